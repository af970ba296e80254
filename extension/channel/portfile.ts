// The agent's port file (docs/protocol.md): {"port": N, "pid": P, "protocol": 1}, written atomically.
import * as fs from 'fs';

export interface PortInfo { port: number; pid: number; protocol: number }

/** Whether a process with this id exists (signal 0 checks without sending; EPERM: it exists, owned by another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Reads the port file; undefined while it does not exist (or is not complete yet). */
export function readPortFile(file: string): PortInfo | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    if (typeof v.port === 'number' && Number.isInteger(v.port) && v.port > 0 && v.port < 65536) {
      return { port: v.port, pid: typeof v.pid === 'number' ? v.pid : -1, protocol: typeof v.protocol === 'number' ? v.protocol : 1 };
    }
  } catch {
    /* a partial write: keep waiting */
  }
  return undefined;
}

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** stop waiting early: returns a reason to give up (e.g. "the JVM exited with code 1") */
  giveUp?: () => string | undefined;
}

/** Polls for the port file; rejects with a message naming what happened. */
export function waitForPortFile(file: string, opts: WaitOptions): Promise<PortInfo> {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      const info = readPortFile(file);
      if (info) return resolve(info);
      const why = opts.giveUp?.();
      if (why) return reject(new Error(why));
      if (Date.now() - start >= opts.timeoutMs) {
        return reject(new Error(`the agent did not open its channel within ${Math.round(opts.timeoutMs / 1000)} s (no port file ${file})`));
      }
      setTimeout(tick, opts.intervalMs ?? 50);
    };
    tick();
  });
}
