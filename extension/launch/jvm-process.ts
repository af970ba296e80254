// The profiled JVM as the adapter sees it: a child process with piped output (Debug Console), or a
// process started elsewhere (integrated terminal, attach) known only by its pid. No `vscode` import.
import { ChildProcess, spawn } from 'child_process';
import { EventEmitter } from 'events';
import { pidAlive } from '../channel/portfile';

export interface ExitInfo { code: number | null; signal: string | null }

const STDERR_KEEP = 64 * 1024;

/**
 * Events: 'output' (category 'stdout' | 'stderr', text), 'exit' (ExitInfo) — emitted once, after the
 * output streams are drained.
 */
export abstract class Jvm extends EventEmitter {
  exit: ExitInfo | undefined;
  /** the first 64 KiB of stderr, to explain a failed start */
  stderrHead = '';
  readonly startedAt = Date.now();

  abstract get pid(): number | undefined;
  /** asks the JVM to end (SIGTERM: its shutdown hook writes the final profile) */
  abstract terminate(): void;
  abstract kill(): void;

  get alive(): boolean {
    return this.exit === undefined;
  }

  /** Resolves when the JVM has ended, or after `ms` (then to undefined). */
  waitForExit(ms: number): Promise<ExitInfo | undefined> {
    if (this.exit) return Promise.resolve(this.exit);
    return new Promise((resolve) => {
      const t = setTimeout(() => { this.removeListener('exit', on); resolve(undefined); }, ms);
      const on = (e: ExitInfo): void => { clearTimeout(t); resolve(e); };
      this.once('exit', on);
    });
  }

  protected ended(e: ExitInfo): void {
    if (this.exit) return;
    this.exit = e;
    this.emit('exit', e);
  }
}

export class ChildJvm extends Jvm {
  private readonly child: ChildProcess;

  constructor(java: string, args: string[], cwd: string, env: Record<string, string>) {
    super();
    this.child = spawn(java, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout!.setEncoding('utf8');
    this.child.stderr!.setEncoding('utf8');
    this.child.stdout!.on('data', (s: string) => this.emit('output', 'stdout', s));
    this.child.stderr!.on('data', (s: string) => {
      if (this.stderrHead.length < STDERR_KEEP) this.stderrHead += s.slice(0, STDERR_KEEP - this.stderrHead.length);
      this.emit('output', 'stderr', s);
    });
    this.child.on('error', (e) => {
      this.stderrHead += `cannot start ${java}: ${e.message}\n`;
      this.ended({ code: null, signal: 'ENOENT' });
    });
    this.child.on('close', (code, signal) => this.ended({ code, signal }));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Sends text to the program's standard input. */
  write(text: string): void {
    this.child.stdin?.write(text);
  }

  terminate(): void {
    if (this.alive) this.child.kill('SIGTERM');
  }

  kill(): void {
    if (this.alive) this.child.kill('SIGKILL');
  }
}

/** A JVM we did not start (terminal, attach): polled for liveness; its exit code is not known. */
export class PidJvm extends Jvm {
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly processId: number, pollMs = 300) {
    super();
    this.timer = setInterval(() => {
      if (!PidJvm.isAlive(this.processId)) this.stopPolling();
    }, pollMs);
  }

  static isAlive(pid: number): boolean {
    return pidAlive(pid);
  }

  private stopPolling(): void {
    clearInterval(this.timer);
    this.ended({ code: null, signal: null });
  }

  get pid(): number {
    return this.processId;
  }

  terminate(): void {
    try { process.kill(this.processId, 'SIGTERM'); } catch { /* already gone */ }
  }

  kill(): void {
    try { process.kill(this.processId, 'SIGKILL'); } catch { /* already gone */ }
  }

  /** Stops watching without touching the process (detach). */
  detach(): void {
    clearInterval(this.timer);
  }
}
