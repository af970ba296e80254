// "Why is it still alive?" on a finished profile without a heap dump: the answer needs a dump, which a
// finished program can no longer give. The user can ask for one at the end of the next run: the next
// launch then gets "heapDumpAtExit" (the agent dumps the heap as the program ends, and the profile names
// the dump, so the question is answered from that profile). Kept for this window. No `vscode` import.
import * as path from 'path';

let requested = false;

export function requestDumpAtNextRun(): void {
  requested = true;
}

export function dumpAtNextRunRequested(): boolean {
  return requested;
}

/**
 * The next launch's heapDumpAtExit, once: `.heaplens/heap-at-exit-20261125-031500.hprof` in the profile folder;
 * undefined when none was asked for or the configuration names its own.
 */
export function takeDumpAtNextRun(cfg: { heapDumpAtExit?: unknown }, profileDir: string, now = new Date()): string | undefined {
  if (!requested || cfg.heapDumpAtExit) return undefined;
  requested = false;
  const two = (x: number): string => String(x).padStart(2, '0');
  const stamp = `${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}-${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}`;
  return path.join(profileDir, `heap-at-exit-${stamp}.hprof`);
}
