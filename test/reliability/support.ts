// Running fixtures straight on `java -javaagent:…` (no CLI in between), so a test controls signals and options.
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { profileText } from '../../core/profile/load';
import { Jdk, ROOT } from '../e2e/support/env';
import { exec, Exec } from '../e2e/support/heaplens';

export const AGENT = process.env.HEAPLENS_AGENT ?? path.join(ROOT, 'dist', 'heaplens-agent.jar');
export const OUT_DIR = path.join(ROOT, 'build', 'reliability');

export function outFile(name: string): string {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const f = path.join(OUT_DIR, name);
  fs.rmSync(f, { force: true });
  return f;
}

export function agentArg(out: string, extra = ''): string {
  return `-javaagent:${AGENT}=out=${out}${extra ? ',' + extra : ''}`;
}

/** java [agent] -Xverify:all jvmArgs -cp CP main args; never rejects on a non-zero exit. */
export function java(jdk: Jdk, opts: { agent?: string; jvmArgs?: string[]; classpath: string[]; main: string; args?: string[]; timeoutMs?: number }): Promise<Exec> {
  const args = [...(opts.agent ? [opts.agent] : []), '-Xverify:all', ...(opts.jvmArgs ?? []),
    '-cp', opts.classpath.join(path.delimiter), opts.main, ...(opts.args ?? [])];
  return exec(jdk.java, args, opts.timeoutMs ?? 300_000);
}

/** Starts a JVM and resolves once its stdout has printed `line`. */
export function startUntil(jdk: Jdk, args: string[], line: string, env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn(jdk.java, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr!.on('data', (d) => { out += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`no "${line}" within 60 s:\n${out}`)); }, 60_000);
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes(line)) { clearTimeout(timer); resolve({ child, out: () => out }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`exited ${code} before "${line}":\n${out}`)); });
  });
}

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The profile's JSON (docs/format.md); deep trees need no recursion limit here (JSON.parse is iterative enough). */
export function readProfile(file: string): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  return JSON.parse(profileText(fs.readFileSync(file) as unknown as Uint8Array));
}
