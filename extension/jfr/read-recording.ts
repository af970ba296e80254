// Runs the JDK-side reader (io.heaplens.agent.jfr.JfrImport in the agent jar, which parses with the JDK's own
// jdk.jfr.consumer API) on a recording with the user's java, then maps its output to a profile (to-profile.ts).
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ProfileFile } from '../../core/profile/types';
import { parseJfrEvents } from './events';
import { jfrToProfile } from './to-profile';

export interface ReadOptions {
  java: string;
  agentJar: string;
  /** the program's class path: sizes its classes when the recording has no TLAB events for them */
  classpath?: string;
  /** refuse recordings larger than this (MiB) */
  maxMb?: number;
  /** extra JVM options for the reader (e.g. -Xmx4g) */
  javaOpts?: string[];
  /** the reader's environment (default: this process's) */
  env?: NodeJS.ProcessEnv;
}

/** Reads a .jfr into a profile; rejects with a one-line message (not a JFR file, truncated, too large, no java). */
export async function readRecording(file: string, opts: ReadOptions): Promise<ProfileFile> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-jfr-'));
  const out = path.join(dir, 'events.json');
  try {
    const args = [...(opts.javaOpts ?? []), '-cp', opts.agentJar, 'io.heaplens.agent.jfr.JfrImport', file, out];
    if (opts.classpath) args.push('--cp', opts.classpath);
    if (opts.maxMb !== undefined) args.push('--max-mb', String(opts.maxMb));
    const r = await run(opts.java, args, opts.env ?? process.env);
    if (r.code !== 0) {
      const line = r.stderr.split('\n').map((l) => l.trim()).filter(Boolean);
      const said = line.find((l) => l.startsWith('heaplens import: '));
      throw new Error(said ? said.slice('heaplens import: '.length) : `the JFR reader (${opts.java}) failed (exit ${r.code}): ${line.slice(-1)[0] ?? 'no message'}`);
    }
    return jfrToProfile(parseJfrEvents(fs.readFileSync(out, 'utf8')), file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function run(java: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(java, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    child.stderr.on('data', (d) => { if (stderr.length < 64 * 1024) stderr += d; });
    child.on('error', (e) => reject(new Error(`cannot run ${java}: ${e.message}`)));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stderr }));
  });
}
