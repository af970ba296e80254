// The threads profile's CPU stacks as method call trees, so that the flame tree, its transforms (merge of all
// threads, only my code, collapse recursion, inverted) and its search show CPU samples exactly as they show
// allocations: each thread with CPU samples becomes a thread whose tree carries `samples` (the samples with
// that frame on top) per calling context, read through the `samples` view metric (frames.ts).
// A CPU frame is `pkg.Class.method`, without descriptor: it is matched to the profile's method of that class
// and name (the lowest id when overloaded); a method the agent never registered (it allocates nothing, or its
// class was not instrumented) gets a new id above the profile's, marked profiled when its class was
// instrumented, so that "my code", colours and the package legend agree with the allocation trees.
import { CpuNodeFile, ThreadsProfile } from '../profile/threads-profile';
import { MctNode, MethodEntry, Profile, ThreadEntry } from '../profile/types';

export interface CpuProfile {
  /** the profile with one thread per CPU-sampled thread and the methods extended by the CPU frames */
  profile: Profile;
  intervalMillis: number;
  /** all threads' samples */
  samples: number;
}

/** `pkg.Outer$Inner.method` → class `pkg.Outer$Inner`, method `method` (a frame without a dot: no class). */
export function splitFrame(frame: string): { class: string; name: string } {
  const dot = frame.lastIndexOf('.');
  return dot <= 0 ? { class: '', name: frame } : { class: frame.slice(0, dot), name: frame.slice(dot + 1) };
}

/** Gives each CPU frame a method id: the profile's own when it has that class and name, else a new one. */
class FrameIds {
  readonly methods: Map<number, MethodEntry>;
  private readonly byFrame = new Map<string, number>();
  private readonly instrumented = new Set<string>();
  private next = 0;

  constructor(base: ReadonlyMap<number, MethodEntry>) {
    this.methods = new Map(base);
    for (const m of base.values()) {
      const frame = `${m.class}.${m.name}`;
      const have = this.byFrame.get(frame);
      if (have === undefined || m.id < have) this.byFrame.set(frame, m.id);
      if (m.profiled) this.instrumented.add(m.class);
      if (m.id >= this.next) this.next = m.id + 1;
    }
  }

  idOf(frame: string): number {
    let id = this.byFrame.get(frame);
    if (id === undefined) {
      const { class: cls, name } = splitFrame(frame);
      id = this.next++;
      this.methods.set(id, { id, class: cls, name, desc: '', profiled: this.instrumented.has(cls) });
      this.byFrame.set(frame, id);
    }
    return id;
  }
}

/** One CPU tree as an MCT (stacks are at most 128 frames deep, so recursion is safe). */
function toMct(n: CpuNodeFile, ids: FrameIds, m?: number): MctNode {
  const node: MctNode = m === undefined ? {} : { m };
  if (n.s) node.samples = n.s;
  const kids = new Map<number, MctNode>();
  for (const c of n.c ?? []) {
    const id = ids.idOf(c.f);
    const kid = toMct(c, ids, id);
    const same = kids.get(id);
    if (same) mergeInto(same, kid);
    else kids.set(id, kid);
  }
  if (kids.size > 0) node.c = [...kids.values()];
  return node;
}

/** Two frames of one caller that map to the same method id: their samples and callees are added up. */
function mergeInto(into: MctNode, from: MctNode): void {
  if (from.samples) into.samples = (into.samples ?? 0) + from.samples;
  for (const c of from.c ?? []) {
    const same = into.c?.find((k) => k.m === c.m);
    if (same) mergeInto(same, c);
    else (into.c ??= []).push(c);
  }
}

/** The CPU profile of threads with at least one sample, or undefined when the profile has no CPU samples. */
export function cpuProfile(base: Profile, tp: ThreadsProfile | undefined): CpuProfile | undefined {
  const sampled = (tp?.threads ?? []).filter((t) => t.samples > 0);
  if (!tp || sampled.length === 0) return undefined;
  const ids = new FrameIds(base.methods);
  const threads: ThreadEntry[] = sampled.map((t) => {
    const same = base.threads.find((b) => b.id === t.id);
    return { id: t.id, name: t.name, daemon: same?.daemon ?? false, alive: same?.alive ?? false, root: toMct(t.cpu, ids) };
  });
  const profile: Profile = { ...base, methods: ids.methods, threads, file: { ...base.file, threads } };
  return { profile, intervalMillis: tp.intervalMillis, samples: sampled.reduce((n, t) => n + t.samples, 0) };
}

/** What the CPU numbers are, for labels and legends. */
export function cpuLabel(intervalMillis: number, source?: 'jfr'): string {
  if (source === 'jfr') return `JFR execution samples, one every ${intervalMillis} ms of each thread running Java code — not allocations`;
  return `CPU samples, one every ${intervalMillis} ms, charged only to threads that used CPU in the interval — not allocations`;
}
