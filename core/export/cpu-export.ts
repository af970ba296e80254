// The CPU samples of the threads profile in the two export formats the flame tab offers (collapsed.ts,
// speedscope.ts hold the allocation versions): one stack per calling context with samples on its top frame,
// weighted by those samples; frames as the agent names them (`pkg.Class.method`), no allocated-type leaf.
import { SpeedscopeFile, SpeedscopeFrame, SpeedscopeProfile } from './speedscope';
import { CpuNodeFile, ThreadCpu, ThreadsProfile } from '../profile/threads-profile';

function clean(frame: string): string {
  return frame.replace(/[;\r\n]/g, '_');
}

/** Calls `visit` for every node with samples of its own, with its frames from the thread's first down (root excluded). */
function eachSampled(root: CpuNodeFile, visit: (path: readonly string[], samples: number) => void): void {
  const path: string[] = [];
  const walk = (n: CpuNodeFile): void => {
    if (n.s) visit(path, n.s);
    for (const c of n.c ?? []) {
      path.push(c.f);
      walk(c);
      path.pop();
    }
  };
  walk(root);
}

/** Collapsed-stack lines, sorted, summed over threads (or prefixed `thread:<name>` with `threads`). */
export function cpuCollapsed(tp: ThreadsProfile, opts: { threads: boolean } = { threads: false }): string[] {
  const sums = new Map<string, number>();
  for (const t of tp.threads) {
    const prefix = opts.threads ? [clean(`thread:${t.name}`)] : [];
    eachSampled(t.cpu, (path, s) => {
      if (path.length === 0) return;   // a sample without a stack: nothing to name it by
      const key = prefix.concat(path.map(clean)).join(';');
      sums.set(key, (sums.get(key) ?? 0) + s);
    });
  }
  return [...sums].map(([k, n]) => `${k} ${n}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function cpuCollapsedText(tp: ThreadsProfile, opts: { threads: boolean } = { threads: false }): string {
  const lines = cpuCollapsed(tp, opts);
  return lines.length ? lines.join('\n') + '\n' : '';
}

/** One speedscope "sampled" profile per thread with CPU samples (unit: samples, one every intervalMillis). */
export function cpuSpeedscope(tp: ThreadsProfile, opts: { name: string; exporter?: string }): SpeedscopeFile {
  const frames: SpeedscopeFrame[] = [];
  const index = new Map<string, number>();
  const frameOf = (f: string): number => {
    let k = index.get(f);
    if (k === undefined) index.set(f, (k = frames.push({ name: f }) - 1));
    return k;
  };
  const profiles = tp.threads.filter((t: ThreadCpu) => t.samples > 0).map((t): SpeedscopeProfile => {
    const samples: number[][] = [];
    const weights: number[] = [];
    eachSampled(t.cpu, (path, s) => {
      samples.push(path.map(frameOf));
      weights.push(s);
    });
    const total = weights.reduce((a, w) => a + w, 0);
    return { type: 'sampled', name: `${t.name} (CPU samples, every ${tp.intervalMillis} ms)`, unit: 'none', startValue: 0, endValue: total, samples, weights };
  });
  return {
    $schema: 'https://www.speedscope.app/file-format-schema.json',
    shared: { frames },
    profiles,
    name: opts.name,
    activeProfileIndex: profiles.reduce((best, p, k) => (p.endValue > profiles[best].endValue ? k : best), 0),
    exporter: opts.exporter ?? 'heaplens',
  };
}

/** The CPU export in `format`, or an error naming the missing section when the profile has no CPU samples. */
export function cpuExportText(tp: ThreadsProfile | undefined, format: 'collapsed' | 'speedscope', name: string, threads = false): string {
  if (!tp || !tp.threads.some((t) => t.samples > 0)) {
    throw new Error('this profile has no CPU samples: profile with threads sampling on (heaplens run --threads, or "threads": true)');
  }
  return format === 'collapsed' ? cpuCollapsedText(tp, { threads }) : JSON.stringify(cpuSpeedscope(tp, { name: `${name} (CPU samples)` }));
}
