// `heaplens run` as a child process that keeps running (for requests while the program waits), with its own
// sessions directory so that concurrent runs elsewhere on the machine are never picked up.
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CLI, ROOT } from './env';

export interface LongRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  sessions: string;
  env: NodeJS.ProcessEnv;
  /** resolves when stdout has a line containing `text` */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  exit: Promise<number>;
}

export function startRun(args: readonly string[]): LongRun {
  const sessions = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-e2e-sessions-'));
  const env = { ...process.env, HEAPLENS_SESSIONS: sessions };
  const child = spawn(process.execPath, [CLI, 'run', ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const exit = new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
  return {
    child, sessions, env, exit,
    stdout: () => out,
    stderr: () => err,
    waitFor: (text, timeoutMs = 60_000) => new Promise((resolve, reject) => {
      const start = Date.now();
      const tick = (): void => {
        if (out.includes(text)) return resolve();
        if (child.exitCode !== null) return reject(new Error(`the program ended before printing "${text}"\nstdout:\n${out}\nstderr:\n${err}`));
        if (Date.now() - start > timeoutMs) return reject(new Error(`no "${text}" within ${timeoutMs} ms\nstdout:\n${out}\nstderr:\n${err}`));
        setTimeout(tick, 50);
      };
      tick();
    }),
  };
}
