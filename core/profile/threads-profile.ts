// The profile's "threadsProfile" section (agent option threads=true): CPU samples per thread as call trees,
// monitor contention per lock and thread, deadlocks. Shapes: docs/format.md, "Threads: CPU, monitors, deadlocks".

export interface CpuNodeFile {
  /** frame: `pkg.Class.method` (`<thread>` at the root) */
  f: string;
  /** samples with this frame on top, and the CPU nanoseconds they measured */
  s?: number;
  ns?: number;
  c?: CpuNodeFile[];
}

export interface ThreadCpu {
  id: number;
  name: string;
  samples: number;
  cpuNanos: number;
  blockedCount: number;
  blockedMillis: number;
  waitedCount: number;
  waitedMillis: number;
  cpu: CpuNodeFile;
}

export interface LockContention {
  lock: string;
  observations: number;
  episodes: number;
  sampledBlockedMillis: number;
  owners: string[];
  waiters: { thread: string; observations: number }[];
  stacks: { observations: number; frames: string[] }[];
}

export interface DeadlockThread {
  id: number;
  name: string;
  state: string;
  waitsFor: string | null;
  heldBy: string | null;
  heldById: number;
  holds: string[];
  stack: string[];
}

export interface Deadlock {
  time: number;
  threads: DeadlockThread[];
}

export interface ThreadsProfile {
  /** 'jfr': execution samples of an imported JFR recording (JFR samples threads running Java code), else the agent's */
  source?: 'jfr';
  intervalMillis: number;
  ticks: number;
  samples: number;
  threads: ThreadCpu[];
  locks: LockContention[];
  deadlocks: Deadlock[];
}

/** A CPU tree node with inclusive totals, children sorted by samples (largest first). */
export interface CpuTreeNode {
  frame: string;
  samples: number;
  self: number;
  cpuNanos: number;
  children: CpuTreeNode[];
}

export function cpuTree(n: CpuNodeFile): CpuTreeNode {
  const children = (n.c ?? []).map(cpuTree).sort((a, b) => b.samples - a.samples);
  const self = n.s ?? 0;
  return {
    frame: n.f, self,
    samples: self + children.reduce((t, c) => t + c.samples, 0),
    cpuNanos: (n.ns ?? 0) + children.reduce((t, c) => t + c.cpuNanos, 0),
    children,
  };
}

/** Frames charged with samples on top ("self"), summed over the thread's tree, largest first. */
export function selfByFrame(n: CpuNodeFile, into = new Map<string, number>()): Map<string, number> {
  if (n.s) into.set(n.f, (into.get(n.f) ?? 0) + n.s);
  for (const c of n.c ?? []) selfByFrame(c, into);
  return into;
}

/** One line naming the cycle: "alice waits for LockB@… held by bob; bob waits for LockA@… held by alice". */
export function deadlockSummary(d: Deadlock): string {
  return d.threads.map((t) => `"${t.name}" waits for ${t.waitsFor ?? '?'} held by "${t.heldBy ?? '?'}"`).join('; ');
}

/** The cycle with each thread's stack, for the output channel or a text report. */
export function deadlockText(d: Deadlock): string {
  const lines = [`Deadlock detected at ${new Date(d.time).toISOString()}: ${deadlockSummary(d)}`];
  for (const t of d.threads) {
    lines.push(`  "${t.name}" (id ${t.id}, ${t.state}) holds ${t.holds.join(', ') || 'nothing'}; waits for ${t.waitsFor ?? '?'} held by "${t.heldBy ?? '?'}"`);
    for (const f of t.stack) lines.push(`      at ${f}`);
  }
  return lines.join('\n');
}
