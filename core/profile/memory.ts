// The memory chart's data (docs/format.md, "memory"): validation of the saved section, the live accumulation of
// the channel's news, and the series the chart draws (heap used and committed, collection pauses, allocation rate).
import { ProfileFile } from './types';

export type MemorySample = [time: number, used: number, committed: number, max: number, allocated: number, gcCount: number, gcMillis: number];
export type GcEvent = [start: number, durationMillis: number, collector: string, cause: string, usedBefore: number, usedAfter: number];
export type Mark = [time: number, what: string];

export interface MemorySection {
  intervalMillis: number;
  samples: MemorySample[];
  gcs: GcEvent[];
  marks: Mark[];
}

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** The section of a file, validated; undefined when absent. Throws a one-line message naming the problem. */
export function memoryOf(file: ProfileFile): MemorySection | undefined {
  const m = (file as { memory?: unknown }).memory;
  if (m === undefined) return undefined;
  return validateMemory(m);
}

export function validateMemory(m: unknown): MemorySection {
  const bad = (what: string): never => {
    throw new Error(`the memory section is malformed: ${what}`);
  };
  if (typeof m !== 'object' || m === null) bad('not an object');
  const o = m as Record<string, unknown>;
  if (!isNum(o.intervalMillis) || o.intervalMillis <= 0) bad('intervalMillis must be a positive number');
  for (const k of ['samples', 'gcs', 'marks']) if (!Array.isArray(o[k])) bad(`${k} must be an array`);
  (o.samples as unknown[]).forEach((s, i) => {
    if (!Array.isArray(s) || s.length !== 7 || !s.every(isNum)) bad(`samples[${i}] must be 7 numbers`);
  });
  (o.gcs as unknown[]).forEach((g, i) => {
    if (!Array.isArray(g) || g.length !== 6 || !isNum(g[0]) || !isNum(g[1]) || typeof g[2] !== 'string' || typeof g[3] !== 'string' || !isNum(g[4]) || !isNum(g[5])) {
      bad(`gcs[${i}] must be [start, duration, collector, cause, before, after]`);
    }
  });
  (o.marks as unknown[]).forEach((k, i) => {
    if (!Array.isArray(k) || k.length !== 2 || !isNum(k[0]) || typeof k[1] !== 'string') bad(`marks[${i}] must be [time, what]`);
  });
  return { intervalMillis: o.intervalMillis as number, samples: o.samples as MemorySample[], gcs: o.gcs as GcEvent[], marks: o.marks as Mark[] };
}

/** The live channel's news appended to what a client has (docs/protocol.md); `restart` replaces the samples. */
export function appendMemory(have: MemorySection | undefined, news: MemorySection & { restart?: boolean }): MemorySection {
  const base = have ?? { intervalMillis: news.intervalMillis, samples: [], gcs: [], marks: [] };
  return {
    intervalMillis: news.intervalMillis,
    samples: news.restart ? news.samples.slice() : [...base.samples, ...news.samples],
    gcs: [...base.gcs, ...news.gcs],
    marks: [...base.marks, ...news.marks],
  };
}

export interface MemorySeries {
  /** seconds since the first sample */
  t: number[];
  used: number[];
  committed: number[];
  /** bytes per second between a sample and the one before (0 for the first; never below 0) */
  allocationRate: number[];
  /** collections: start in seconds since the first sample, duration ms, collector, whether it stops the world */
  pauses: Array<{ t: number; millis: number; collector: string; cause: string; stopsTheWorld: boolean; freed: number }>;
  marks: Array<{ t: number; what: string }>;
  start: number;
  /** totals over the run: collections, ms in them, the longest pause */
  gcCount: number;
  gcMillis: number;
  longestPause: number;
}

/** Concurrent cycles (G1's and ZGC's "Cycles", CMS, Shenandoah's concurrent phase) do not stop the program. */
export function stopsTheWorld(collector: string, cause: string): boolean {
  return !/concurrent|cycles|\bcms\b/i.test(collector) && !/concurrent/i.test(cause);
}

export function memorySeries(m: MemorySection): MemorySeries {
  const start = m.samples.length > 0 ? m.samples[0][0] : m.gcs.length > 0 ? m.gcs[0][0] : 0;
  const sec = (time: number): number => (time - start) / 1000;
  const rate: number[] = m.samples.map((s, i) => {
    if (i === 0) return 0;
    const p = m.samples[i - 1];
    const dt = (s[0] - p[0]) / 1000;
    if (s[4] < 0 || p[4] < 0 || dt <= 0) return 0;
    return Math.max(0, (s[4] - p[4]) / dt);
  });
  const pauses = m.gcs.map((g) => ({ t: sec(g[0]), millis: g[1], collector: g[2], cause: g[3], stopsTheWorld: stopsTheWorld(g[2], g[3]), freed: Math.max(0, g[4] - g[5]) }));
  const last = m.samples[m.samples.length - 1];
  return {
    t: m.samples.map((s) => sec(s[0])), used: m.samples.map((s) => s[1]), committed: m.samples.map((s) => s[2]), allocationRate: rate,
    pauses, marks: m.marks.map(([time, what]) => ({ t: sec(time), what })), start,
    gcCount: last ? last[5] : m.gcs.length, gcMillis: last ? last[6] : m.gcs.reduce((s, g) => s + g[1], 0),
    longestPause: pauses.filter((p) => p.stopsTheWorld).reduce((x, p) => Math.max(x, p.millis), 0),
  };
}
