// A JFR recording's samples (events.ts) → a HeapLens profile (docs/format.md), so the views, reports, CodeLens and
// hot lines work on production recordings (docs/jfr.md):
// - allocation samples → each thread's `sampled` tree with the sampled mode's JFR estimator (docs/modes.md,
//   "sampler=jfr"): bytes = the samples' weight (the thread's bytes since its previous sample); objects = weight ÷
//   instance size; arrays: one per sample, elements = (weight − header) ÷ element size. The path keeps the frames
//   exact mode would show (classes outside the JDK); the top frame is the site (kind "jfr", its line and bci), and
//   allocations in JDK code are charged to the innermost application frame, as the agent does.
// - old-object samples → the `siteTraces` tree: counts are samples of objects still alive when the recording ended.
// - execution samples → `threadsProfile`: one CPU tree per thread, every frame kept.
import { CpuNodeFile, ThreadCpu, ThreadsProfile } from '../../core/profile/threads-profile';
import { AllocRecord, ElementCode, MctNode, MethodEntry, ProfileFile, SiteEntry, ThreadEntry, TypeEntry } from '../../core/profile/types';
import { JfrEvents } from './events';

export const JFR_ESTIMATOR = 'bytes = the samples\' weight (bytes the thread allocated since its previous sample); '
  + 'objects = weight ÷ instance size; arrays: one per sample';
const TLAB_ESTIMATOR = 'bytes = the TLAB size of each TLAB event (whole allocation outside a TLAB); objects = bytes ÷ instance size; arrays: one per event';

const PRIMITIVES: Record<string, [name: string, size: number]> = {
  B: ['byte', 1], C: ['char', 2], D: ['double', 8], F: ['float', 4], I: ['int', 4], J: ['long', 8], S: ['short', 2], Z: ['boolean', 1],
};

/** JFR's class name → the profile's: `[B` → byte[], `[[Ljava.lang.String;` → java.lang.String[][], a hidden class without its 0x… suffix. */
export function typeName(jfr: string): string {
  let dims = 0;
  while (jfr[dims] === '[') dims++;
  let base = jfr.slice(dims);
  if (dims > 0) base = base.startsWith('L') ? base.slice(1, -1) : PRIMITIVES[base]?.[0] ?? base;
  // hidden classes: `a.B$$Lambda$108/0x…` (Class.getName), `a.B$$Lambda$108+0x….123` (JFR on JDK 17) or
  // `a.B$$Lambda.0x…` (JFR on JDK 25), named as the agent does
  const cut = base.search(/[/+.]0x[0-9a-f]/);
  if (cut >= 0) base = base.slice(0, cut).replace(/\$\$Lambda\$\d+$/, '$$$$Lambda');
  return base + '[]'.repeat(dims);
}

function typeEntry(id: number, jfr: string, size: number, ref: number): TypeEntry {
  const name = typeName(jfr);
  if (!jfr.startsWith('[')) return { id, name, array: false, size: size > 0 ? size : null };
  const el = jfr.slice(1);
  const prim = el.length === 1 ? PRIMITIVES[el] : undefined;
  return { id, name, array: true, size: null, elementSize: prim ? prim[1] : ref, elementCode: (prim ? el : 'R') as ElementCode };
}

/** The source file a class was most likely compiled from: its outermost class's simple name + .java (a guess: JFR does not record it). */
export function guessSourceFile(cls: string): string {
  const simple = cls.slice(cls.lastIndexOf('.') + 1);
  return `${simple.split('$')[0]}.java`;
}

/** JDK version from jdk.JVMInformation's jvmVersion text, e.g. "… (17.0.15+6-Debian-1deb12u1) for linux-amd64 …" → "17.0.15+6-Debian-1deb12u1". */
export function jvmVersionOf(text: string | undefined): string {
  return (/\(([^()]*\d[^()]*)\) for /.exec(text ?? '') ?? [])[1] ?? text ?? '';
}

export interface ImportInfo {
  from: 'jfr';
  file: string;
  /** the estimator of the `sampled` tree, in words */
  estimator: string;
  /** events of each kind the profile was built from */
  events: Record<string, number>;
  /** allocation samples (or TLAB events) the sampled tree was built from */
  samples: number;
  /** coefficient of variation of their weights (σ ÷ mean): widens the estimate's interval (docs/jfr.md) */
  weightCv?: number;
}

export function jfrToProfile(ev: JfrEvents, file: string): ProfileFile {
  const warnings: string[] = [];
  const methods = new Map<string, MethodEntry>();
  const sites = new Map<string, SiteEntry>();
  const types = new Map<number, TypeEntry>();
  const typeOf = (cls: number): TypeEntry => {
    let t = types.get(cls);
    if (!t) {
      const [name, size] = ev.classes[cls];
      types.set(cls, (t = typeEntry(cls + 1, name, size, ev.layout.reference)));
    }
    return t;
  };
  const methodOf = (f: number): MethodEntry | undefined => {
    const fr = ev.frames[f];
    if (!fr) return undefined;
    const [cls, name, desc, line, , jdk] = fr;
    const key = `${cls}.${name}${desc}`;
    let m = methods.get(key);
    if (!m) {
      m = { id: methods.size + 1, class: typeName(cls), name, desc, file: guessSourceFile(cls), profiled: !jdk };
      methods.set(key, m);
    }
    if (line > 0 && (m.line === undefined || line < m.line)) m.line = line;   // the earliest line seen stands for the first
    return m;
  };
  const siteOf = (f: number, type: TypeEntry, kind: string): SiteEntry | undefined => {
    const m = methodOf(f);
    if (!m) return undefined;
    const [, , , line, bci] = ev.frames[f];
    const key = `${m.id}@${bci}:${line} ${type.id} ${kind}`;
    let s = sites.get(key);
    if (!s) {
      s = { id: sites.size + 1, method: m.id, bci: Math.max(0, bci), kind, type: type.id };
      if (line > 0) s.line = line;
      sites.set(key, s);
    }
    return s;
  };
  /**
   * The stack's frames (innermost first), the application path from the outermost frame in, and, when JDK code
   * made the allocation, where the innermost application frame called into it: the line of that call and the
   * method it called (docs/format.md `line` and `callee`: a `split()` line owns what String.split allocated).
   */
  const stackOf = (stack: number): { frames: number[]; path: number[]; truncated: boolean; call?: [number, number] } | undefined => {
    const st = ev.stacks[stack];
    if (!st) return undefined;
    const frames = st.slice(1).filter((f) => f >= 0 && ev.frames[f]);
    const path = frames.filter((f) => !ev.frames[f][5]).reverse().map((f) => methodOf(f)!.id);
    const app = frames.findIndex((f) => !ev.frames[f][5]);
    const line = app > 0 ? ev.frames[frames[app]][3] : 0;
    const call: [number, number] | undefined = line > 0 ? [line, methodOf(frames[app - 1])!.id] : undefined;
    return { frames, path, truncated: st[0] === 1, call };
  };

  // ---- allocations: the samples when the recording has them, else the TLAB events
  const useSamples = ev.alloc.some((r) => r[0] === 0);
  const allocRows = ev.alloc.filter((r) => (useSamples ? r[0] === 0 : r[0] !== 0));
  const trees = new Map<number, { sampled: MctNode; siteTraces: MctNode }>();
  const treesOf = (thread: number): { sampled: MctNode; siteTraces: MctNode } => {
    let t = trees.get(thread);
    if (!t) trees.set(thread, (t = { sampled: {}, siteTraces: {} }));
    return t;
  };
  type Acc = Map<MctNode, Map<string, { site: number; type: TypeEntry; events: number; weight: number; elements: number; call?: [number, number] }>>;
  const sampledAcc: Acc = new Map(), oldAcc: Acc = new Map();
  const add = (acc: Acc, root: MctNode, path: number[], call: [number, number] | undefined, site: SiteEntry, type: TypeEntry, events: number, weight: number, elements = 0): void => {
    let node = root;
    for (const m of path) {
      const kids = node.c ?? (node.c = []);
      let next = kids.find((k) => k.m === m);
      if (!next) kids.push((next = { m, calls: 0 }));
      node = next;
    }
    let recs = acc.get(node);
    if (!recs) acc.set(node, (recs = new Map()));
    const key = `${site.id} ${type.id} ${call ?? ''}`;
    const r = recs.get(key);
    if (r) { r.events += events; r.weight += weight; r.elements += elements; } else recs.set(key, { site: site.id, type, events, weight, elements, call });
  };
  let noStack = 0, truncated = 0;
  const unsized = new Set<string>();
  for (const [, thread, stack, cls, events, weight] of allocRows) {
    const s = stackOf(stack);
    if (!s || s.frames.length === 0) { noStack += events; continue; }
    if (s.truncated) truncated += events;
    const type = typeOf(cls);
    const site = siteOf(s.frames[0], type, 'jfr')!;
    add(sampledAcc, treesOf(thread).sampled, s.path, s.call, site, type, events, weight);
  }
  // ---- old-object samples: one record per (context, site, type); counts are samples
  for (const [thread, stack, cls, samples, elements] of ev.old) {
    const s = stackOf(stack);
    if (!s || s.frames.length === 0) continue;
    const type = typeOf(cls);
    add(oldAcc, treesOf(thread).siteTraces, s.path, s.call, siteOf(s.frames[0], type, 'jfr-old')!, type, samples, 0, Math.max(0, elements));
  }
  const L = ev.layout;
  const align = (n: number): number => Math.ceil(n / L.alignment) * L.alignment;
  const recordOf = (r: { type: TypeEntry; site: number; events: number; weight: number; elements: number }, inOld: boolean): AllocRecord => {
    const t = r.type;
    if (inOld) {   // samples of live objects: bytes from their sizes (arrays: their lengths)
      const bytes = t.array ? r.events * L.arrayHeader + r.elements * (t.elementSize ?? L.reference) : t.size ? r.events * t.size : 0;
      return [r.site, t.id, r.events, r.elements, t.array ? align(bytes / Math.max(1, r.events)) * r.events : bytes];
    }
    if (t.array) {
      return [r.site, t.id, r.events, Math.max(0, Math.floor((r.weight - r.events * L.arrayHeader) / (t.elementSize ?? 1))), r.weight];
    }
    if (!t.size) unsized.add(t.name);
    return [r.site, t.id, t.size ? Math.max(1, Math.round(r.weight / t.size)) : r.events, 0, r.weight];
  };
  for (const [node, recs, inOld] of [...[...sampledAcc].map(([n, r]) => [n, r, false] as const), ...[...oldAcc].map(([n, r]) => [n, r, true] as const)]) {
    node.a = [...recs.values()].map((r): AllocRecord => {
      const rec = recordOf(r, inOld);
      if (r.call) rec.push(...r.call);
      return rec;
    });
  }
  if (noStack) warnings.push(`${noStack} allocation sample(s) had no stack trace and are left out`);
  if (truncated) warnings.push(`${truncated} allocation sample(s) had stacks deeper than JFR's stack depth: their paths start mid-stack (raise it with -XX:FlightRecorderOptions:stackdepth=1024)`);
  if (unsized.size) {
    warnings.push(`${unsized.size} class(es) could not be sized (not in the recording's TLAB events, not loadable here: give heaplens import --cp the program's class path): their object counts are sample counts: ${[...unsized].slice(0, 10).join(', ')}`);
  }
  const [firstN, firstBytes] = ev.firstSamples ?? [0, 0];
  if (firstN) {
    warnings.push(`${firstN} first sample(s) of threads left out: each weighs what its thread allocated since it started, before the recording too (${Math.round(firstBytes / 1024)} KiB in all)`);
  }
  if (ev.truncated) warnings.push(`the recording ends early (${ev.truncated}): the events before that point are shown`);
  if (allocRows.length === 0) warnings.push('the recording has no allocation events (jdk.ObjectAllocationSample needs JDK 16+ and the default or profile settings)');

  // ---- threads
  const threadIds = new Set<number>([...trees.keys(), ...ev.cpu.map((r) => r[0])]);
  const threads: ThreadEntry[] = [...threadIds].sort((a, b) => a - b).map((i) => {
    const [id, name] = ev.threads[i];
    const t = trees.get(i);
    const entry: ThreadEntry = { id: id >= 0 ? id : 1_000_000_000 - id, name, daemon: false, alive: false, root: {} };
    if (t?.sampled.c || t?.sampled.a) entry.sampled = t.sampled;
    if (t?.siteTraces.c || t?.siteTraces.a) entry.siteTraces = t.siteTraces;
    return entry;
  });

  const count = (k: string): number => ev.events[k] ?? 0;
  const usedEvents: Record<string, number> = {};
  for (const k of ['jdk.ObjectAllocationSample', 'jdk.ObjectAllocationInNewTLAB', 'jdk.ObjectAllocationOutsideTLAB', 'jdk.ExecutionSample', 'jdk.OldObjectSample']) {
    if (count(k)) usedEvents[k] = count(k);
  }
  const used = allocRows.filter((r) => r[2] >= 0);
  const n = used.reduce((s, r) => s + r[4], 0);
  const imported: ImportInfo = { from: 'jfr', file, estimator: useSamples ? JFR_ESTIMATOR : TLAB_ESTIMATOR, events: usedEvents, samples: n };
  if (n > 1 && used.every((r) => r[6] !== undefined)) {
    const mean = used.reduce((s, r) => s + r[5], 0) / n / 1024;                 // KiB
    const meanSq = used.reduce((s, r) => s + (r[6] ?? 0), 0) / n;
    imported.weightCv = mean > 0 ? Math.sqrt(Math.max(0, meanSq - mean * mean)) / mean : 0;
  }
  const j = ev.jvm;
  const file_: ProfileFile = {
    format: 'heaplens-profile',
    version: 1,
    meta: {
      agentVersion: 'JFR import',
      mode: 'sampled',
      modes: [{ mode: 'sampled', since: ev.start }],
      sampler: 'jfr',
      jvm: { name: j.jvmName ?? '', vendor: j['java.vm.vendor'] ?? '', version: j['java.vm.version'] ?? jvmVersionOf(j.jvmVersion), javaHome: j['java.home'] ?? '' },
      pid: Number(j.pid ?? 0),
      command: j.javaArguments ?? '',
      jvmArgs: (j.jvmArguments ?? '').split(/\s+/).filter(Boolean),
      startTime: ev.start,
      writeTime: ev.end,
      final: true,
      sequence: 1,
      options: { import: file },
      layout: { ...L, compressedOops: true, source: 'assumed by the JFR import (64-bit, compressed oops and class pointers)' },
      imported,
    },
    types: [...types.values()].sort((a, b) => a.id - b.id),
    methods: [...methods.values()],
    sites: [...sites.values()],
    threads,
    transform: { classesTransformed: 0, classesSkipped: 0, classesFailed: 0, retransformed: 0, methodsProfiled: 0, sites: sites.size, failures: [], warnings },
    agent: { threads: threads.length, nodes: 0, writeMillis: 0, bytesWritten: 0, collectorCycles: 0, jfrSamples: n } as ProfileFile['agent'],
  };
  const tp = cpuProfile(ev);
  if (tp) file_.threadsProfile = tp;
  return file_;
}

/** Execution samples → the threads profile's CPU trees (frames `pkg.Class.method`, every frame kept). */
function cpuProfile(ev: JfrEvents): ThreadsProfile | undefined {
  if (ev.cpu.length === 0) return undefined;
  const period = ev.executionPeriodMillis > 0 ? ev.executionPeriodMillis : 20;
  const byThread = new Map<number, ThreadCpu>();
  let total = 0;
  for (const [thread, stack, samples] of ev.cpu) {
    const st = ev.stacks[stack];
    if (!st) continue;
    let t = byThread.get(thread);
    if (!t) {
      const [id, name] = ev.threads[thread];
      byThread.set(thread, (t = { id, name, samples: 0, cpuNanos: 0, blockedCount: 0, blockedMillis: 0, waitedCount: 0, waitedMillis: 0, cpu: { f: '<thread>' } }));
    }
    let node: CpuNodeFile = t.cpu;
    const frames = st.slice(1).filter((f) => f >= 0 && ev.frames[f]).reverse();
    for (const f of frames) {
      const name = `${ev.frames[f][0]}.${ev.frames[f][1]}`;
      const kids = node.c ?? (node.c = []);
      let next = kids.find((k) => k.f === name);
      if (!next) kids.push((next = { f: name }));
      node = next;
    }
    node.s = (node.s ?? 0) + samples;
    node.ns = (node.ns ?? 0) + samples * period * 1e6;
    t.samples += samples;
    t.cpuNanos += samples * period * 1e6;
    total += samples;
  }
  return { source: 'jfr', intervalMillis: period, ticks: total, samples: total, threads: [...byThread.values()], locks: [], deadlocks: [] };
}
