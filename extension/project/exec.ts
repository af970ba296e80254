// Running a build tool as a child process: output collected (and passed on line by line), never a hang
// without a way out (a timeout, an abort signal). No `vscode` import.
import { spawn } from 'child_process';

export interface ExecResult { code: number | null; signal: NodeJS.Signals | null; output: string }

export interface ExecOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** each chunk of stdout/stderr as it comes */
  onOutput?: (text: string) => void;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export function execTool(file: string, args: readonly string[], o: ExecOptions): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: o.cwd, env: o.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (b: Buffer): void => {
      // Maven prints colour resets even in batch mode: plain text for the output panel and the terminal's log
      const s = b.toString('utf8').replace(/\x1b\[[0-9;]*m/g, '');
      if (output.length < 4 * 1024 * 1024) output += s;
      o.onOutput?.(s);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const timer = o.timeoutMs ? setTimeout(() => child.kill('SIGTERM'), o.timeoutMs) : undefined;
    const abort = (): void => { child.kill('SIGTERM'); };
    o.signal?.addEventListener('abort', abort);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', abort);
      resolve({ code, signal, output });
    });
  });
}
