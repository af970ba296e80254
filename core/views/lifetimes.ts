// The lifetime mode's data (docs/format.md "lifetimes"; Pan 2001 (HUP)): lag, drag, void and use space per class,
// allocation site, method and nested allocation site, lifetime patterns, HUP's `stat`, and Figure 5's series.
// Spaces are byte x byte-time (object size x allocation-clock duration), scaled by the sampling rate.
import { ProfileError } from '../profile/parse';
import { fullFrame } from '../profile/names';
import { MethodEntry, Profile } from '../profile/types';

/** [method id, line]. */
export type UseSite = [number, number];

export interface LifetimeSums {
  objects: number;
  voidObjects: number;
  laggedObjects: number;
  draggedObjects: number;
  lag: number;
  drag: number;
  void: number;
  use: number;
  total: number;
}

export interface Representative {
  size: number;
  born: number;
  firstUse: number;
  lastUse: number;
  firstPut: number;
  lastPut: number;
  unreachable: number;
  reachableAtExit: boolean;
  uses: number;
  puts: number;
  length?: number;
  firstUseSite: UseSite | null;
  lastUseSite: UseSite | null;
  firstPutSite: UseSite | null;
  lastPutSite: UseSite | null;
}

export interface LifetimePattern extends LifetimeSums {
  firstUseTrace: number;
  lastUseSite: UseSite | null;
  representative: Representative;
}

export interface NestedSite extends LifetimeSums {
  site: number;
  type: number;
  trace: number;
  patterns: LifetimePattern[];
}

/**
 * How the precision was bought, in words: "forced GCs kept near 10 % of the run: 91 GCs, 38.5 s of 385 s (10.0 %)"
 * or "1 % of the bytes allocated: 412 forced GCs, 6.1 s of 40 s (15.3 %)".
 */
export function precisionRuleText(l: Pick<LifetimeSection, 'precisionRule' | 'precisionShareBp' | 'gcBudgetPercent' | 'forcedGcs'
  | 'forcedGcMillis' | 'runMillis'>): string {
  const rule = l.precisionRule === 'share' && l.precisionShareBp
    ? `${l.precisionShareBp / 100} % of the bytes allocated`
    : `forced GCs kept near ${l.gcBudgetPercent ?? 10} % of the run`;
  const secs = (ms: number): string => (ms >= 10_000 ? `${(ms / 1000).toFixed(0)} s` : `${(ms / 1000).toFixed(1)} s`);
  const share = l.runMillis ? ` of ${secs(l.runMillis)} (${((100 * l.forcedGcMillis) / l.runMillis).toFixed(1)} %)` : '';
  return `${rule}: ${l.forcedGcs} forced GCs, ${secs(l.forcedGcMillis)}${share}`;
}

export interface LifetimeSection {
  sampleEvery: number;
  clock: number;
  precision: number;
  /** the largest forced-GC spacing used (bytes): the precision is at most this */
  precisionTarget: number;
  /** how the spacing was chosen: "time" (forced GCs kept near gcBudgetPercent of the run) or "share" (of bytes allocated) */
  precisionRule?: 'time' | 'share';
  /** with "share": the share in hundredths of a percent (100 = 1 %) */
  precisionShareBp?: number;
  gcBudgetPercent?: number;
  /** the run's duration when the file was written (ms): the forced GCs' time is a share of it */
  runMillis?: number;
  forcedGcs: number;
  forcedGcMillis: number;
  tracked: number;
  live: number;
  complete: boolean;
  finished: number;
  reachableAtExit: number;
  totals: LifetimeSums;
  nested: NestedSite[];
  /** trace id → flat [method, line, method, line, …], innermost first */
  traces: Record<string, number[]>;
  timeline: { bucket: number; inUse: number[]; lag: number[]; drag: number[]; void: number[] };
}

export type LifetimeGrouping = 'class' | 'site' | 'method' | 'nested';
export const LIFETIME_GROUPINGS: readonly LifetimeGrouping[] = ['class', 'site', 'method', 'nested'];
export type SpaceKind = 'lag' | 'drag' | 'void' | 'use';

/** A frame of a trace, resolved. */
export interface TraceFrame { method: MethodEntry; line: number }

/** One row of a `lag|drag|void class|site|method|nested` table. */
export interface LifetimeRow extends LifetimeSums {
  key: string;
  /** where the row's allocations are (the first allocation line seen for the row) */
  file?: string;
  className?: string;
  line?: number;
  /** the nested sites the row is made of */
  nested: NestedSite[];
}

const SUM_FIELDS: (keyof LifetimeSums)[] = ['objects', 'voidObjects', 'laggedObjects', 'draggedObjects', 'lag', 'drag', 'void', 'use', 'total'];

/** The profile's lifetime section, checked; undefined when the profile was not recorded in the lifetime mode. */
export function lifetimesOf(profile: Profile): LifetimeSection | undefined {
  const l = (profile.file as unknown as { lifetimes?: LifetimeSection }).lifetimes;
  if (l === undefined) return undefined;
  if (typeof l !== 'object' || l === null || !Array.isArray(l.nested) || typeof l.totals !== 'object') {
    throw new ProfileError('invalid profile: "lifetimes" must be an object with "totals" and "nested"');
  }
  for (const n of l.nested) {
    if (!profile.sites.has(n.site)) throw new ProfileError(`dangling id: lifetimes.nested refers to site ${n.site}, which is not in "sites"`);
    if (!profile.types.has(n.type)) throw new ProfileError(`dangling id: lifetimes.nested refers to type ${n.type}, which is not in "types"`);
    for (const f of SUM_FIELDS) {
      if (typeof n[f] !== 'number') throw new ProfileError(`invalid profile: lifetimes.nested entry for site ${n.site} has no number "${f}"`);
    }
  }
  return l;
}

/** Sampled records stand for sampleEvery objects each. */
function scaled(s: LifetimeSums, k: number): LifetimeSums {
  const out = {} as LifetimeSums;
  for (const f of SUM_FIELDS) out[f] = s[f] * k;
  return out;
}

export function traceFrames(profile: Profile, l: LifetimeSection, id: number): TraceFrame[] {
  const flat = l.traces[String(id)] ?? [];
  const out: TraceFrame[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const m = profile.methods.get(flat[i]);
    if (m) out.push({ method: m, line: flat[i + 1] });
  }
  return out;
}

export function frameText(f: TraceFrame): string {
  return `${fullFrame(f.method)}:${f.line}`;
}

export function useSiteText(profile: Profile, s: UseSite | null): string {
  if (!s) return '-';
  const m = profile.methods.get(s[0]);
  return m ? `${fullFrame(m)}:${s[1]}` : `method ${s[0]}:${s[1]}`;
}

/** HUP's classifications: rows by class, allocation site (instruction), method (HUP's allocation site) or nested site. */
export function lifetimeRows(profile: Profile, l: LifetimeSection, by: LifetimeGrouping): LifetimeRow[] {
  const rows = new Map<string, LifetimeRow>();
  const k = Math.max(1, l.sampleEvery);
  for (const n of l.nested) {
    const site = profile.sites.get(n.site)!;
    const type = profile.types.get(n.type)!;
    const method = profile.methods.get(site.method);
    const where = method ? `${fullFrame(method)}:${site.line ?? -1}` : `site ${n.site}`;
    let key: string;
    switch (by) {
      case 'class': key = type.name; break;
      case 'site': key = `${where} ${type.name}`; break;
      case 'method': key = method ? fullFrame(method) : `site ${n.site}`; break;
      default: {
        const frames = traceFrames(profile, l, n.trace).map(frameText);
        key = `${frames.length ? frames.join(' <- ') : where} ${type.name}`;
      }
    }
    let row = rows.get(key);
    if (!row) {
      row = { key, nested: [], ...scaled({ objects: 0, voidObjects: 0, laggedObjects: 0, draggedObjects: 0, lag: 0, drag: 0, void: 0, use: 0, total: 0 }, 1) };
      row.file = method?.file;
      row.className = method?.class;
      row.line = site.line;
      rows.set(key, row);
    }
    const s = scaled(n, k);
    for (const f of SUM_FIELDS) row[f] += s[f];
    row.nested.push(n);
  }
  return [...rows.values()];
}

export function sortRows(rows: LifetimeRow[], by: SpaceKind): LifetimeRow[] {
  return [...rows].sort((a, b) => b[by] - a[by] || a.key.localeCompare(b.key));
}

export const LIFETIME_TSV_HEADER = 'key\tobjects\tvoid_objects\tlag_space\tdrag_space\tvoid_space\tuse_space';

/** `heaplens report --format lifetime --by …`: tab-separated, sorted by drag space. */
export function lifetimeTsv(profile: Profile, by: LifetimeGrouping): string {
  const l = requireLifetimes(profile);
  const lines = [LIFETIME_TSV_HEADER];
  for (const r of sortRows(lifetimeRows(profile, l, by), 'drag')) {
    lines.push([r.key.replace(/[\t\n]/g, ' '), r.objects, r.voidObjects, r.lag, r.drag, r.void, r.use].join('\t'));
  }
  return lines.join('\n') + '\n';
}

export function requireLifetimes(profile: Profile): LifetimeSection {
  const l = lifetimesOf(profile);
  if (!l) {
    throw new ProfileError(`this profile has no lifetime data (recorded in mode "${profile.file.meta.mode}"): record one with heaplens run --mode lifetime`);
  }
  return l;
}

export interface LifetimeStat {
  objects: number;
  classes: number;
  nestedSites: number;
  laggedObjects: number;
  draggedObjects: number;
  voidObjects: number;
  total: number;
  lag: number;
  drag: number;
  void: number;
  use: number;
  precision: number;
  sampleEvery: number;
}

/** HUP's `stat`: counts, total space and its lag, drag, void and use parts. */
export function lifetimeStat(l: LifetimeSection): LifetimeStat {
  const k = Math.max(1, l.sampleEvery);
  const t = scaled(l.totals, k);
  return {
    objects: t.objects, classes: new Set(l.nested.map((n) => n.type)).size, nestedSites: l.nested.length,
    laggedObjects: t.laggedObjects, draggedObjects: t.draggedObjects, voidObjects: t.voidObjects,
    total: t.total, lag: t.lag, drag: t.drag, void: t.void, use: t.use, precision: l.precision, sampleEvery: k,
  };
}

function share(part: number, total: number): string {
  return total > 0 ? `${((100 * part) / total).toFixed(2)}%` : '-';
}

export function lifetimeStatText(profile: Profile): string {
  const l = requireLifetimes(profile);
  const s = lifetimeStat(l);
  const lines = [
    `objects\t${s.objects}${s.sampleEvery > 1 ? `\t(estimate: every ${s.sampleEvery}th object tracked, counts and spaces scaled)` : ''}`,
    `classes\t${s.classes}`,
    `nested allocation sites\t${s.nestedSites}`,
    `lagged objects\t${s.laggedObjects}`,
    `dragged objects\t${s.draggedObjects}`,
    `void objects\t${s.voidObjects}`,
    `total space\t${s.total}\tbyte x bytes allocated`,
    `lag space\t${s.lag}\t${share(s.lag, s.total)}`,
    `drag space\t${s.drag}\t${share(s.drag, s.total)}`,
    `void space\t${s.void}\t${share(s.void, s.total)}`,
    `use space\t${s.use}\t${share(s.use, s.total)}`,
    `precision\t${s.precision}\tbytes allocated (largest gap between an object becoming unreachable and being seen so; at most ${l.precisionTarget}, ${precisionRuleText(l)})`,
    `allocation time\t${l.clock}\tbytes`,
  ];
  if (!l.complete) lines.push('note\tthe run had not ended when this file was written: objects still reachable are not counted yet');
  return lines.join('\n') + '\n';
}

/** An allocation line whose objects carry much lag, drag or void space, with HUP's suggested transformation. */
export interface LifetimeHint {
  /** source path as sourcePathOf names it (`demo/Parser.java`) */
  source: string;
  /** 1-based */
  line: number;
  kind: 'lag' | 'drag' | 'void';
  /** the share of all lag, drag or void space, 0..1 */
  share: number;
  message: string;
}

/**
 * Lines with at least this share of all lag, drag or void space get a hint (drag and void only when their mean per
 * object exceeds the precision: shorter ones may be the GC's detection delay alone).
 */
export const HINT_SHARE = 0.05;

const MIB = 1 << 20;

/**
 * Hints for the editor: what was measured at an allocation line and what HUP's transformations (Pan 2001 (HUP) §3.1.1)
 * suggest — worded as a suggestion to check, never as a claim that the change is safe.
 */
export function lifetimeHints(profile: Profile, l: LifetimeSection, sourceOf: (m: MethodEntry) => string | undefined): LifetimeHint[] {
  const rows = lifetimeRows(profile, l, 'site');
  const t = lifetimeStat(l);
  const out: LifetimeHint[] = [];
  for (const r of rows) {
    const n = r.nested[0];
    const site = profile.sites.get(n.site);
    const method = site ? profile.methods.get(site.method) : undefined;
    const source = method ? sourceOf(method) : undefined;
    if (!site || site.line === undefined || !method || !source) continue;
    const type = profile.types.get(n.type)!;
    const sampled = l.sampleEvery > 1 ? ` (estimated from every ${l.sampleEvery}th object)` : '';
    const writtenNotRead = type.array && r.voidObjects > 0 && r.nested.some((x) => x.patterns.some((p) => p.firstUseTrace < 0 && p.representative.puts > 0));
    const kinds: Array<['lag' | 'drag' | 'void', number, number]> = [['drag', r.drag, t.drag], ['lag', r.lag, t.lag], ['void', r.void, t.void]];
    for (const [kind, v, total] of kinds) {
      if (v <= 0 || total <= 0 || v / total < HINT_SHARE) continue;
      const pct = `${((100 * v) / total).toFixed(1)}%`;
      const objs = kind === 'void' ? r.voidObjects : kind === 'lag' ? r.laggedObjects : r.draggedObjects;
      const size = r.objects ? Math.round(totalSize(r) / r.objects) : 0;
      const perObject = objs > 0 && size > 0 ? v / objs / size : 0;
      // Drag and void end when the GC shows the object unreachable: a mean within the precision may be detection delay.
      // Objects reachable until the end have an exact drag (their end is the end of the run, not a GC's finding).
      const toTheEnd = r.nested.every((x) => x.patterns.every((q) => q.representative.reachableAtExit));
      if (kind !== 'lag' && !toTheEnd && perObject <= l.precision) continue;
      const time = perObject > 0 ? (perObject / MIB).toFixed(1) : '?';
      let measured: string;
      let suggestion: string;
      if (kind === 'drag') {
        measured = `${objs} ${type.name} object(s) allocated here stayed reachable for ~${time} MiB of allocation after their last use: ${pct} of all drag space${sampled}.`;
        suggestion = 'HUP suggests assigning null to the reference that keeps them once no later use can happen'
          + (type.array ? ', or array length reduction if some elements are never read' : '') + '.';
      } else if (kind === 'lag') {
        measured = `${objs} ${type.name} object(s) allocated here waited ~${time} MiB of allocation before their first use: ${pct} of all lag space${sampled}.`;
        suggestion = 'HUP suggests lazy allocation (allocating at the first use), where the constructor does not depend on program state and has no effect elsewhere.';
      } else {
        measured = `${objs} ${type.name} object(s) allocated here were never used (no get operation) and lived ~${time} MiB of allocation: ${pct} of all void space${sampled}.`;
        suggestion = writtenNotRead
          ? 'Their elements were written but never read: HUP suggests dead code removal or array length reduction.'
          : 'HUP suggests dead code removal or lazy allocation, where the constructor and finalizer have no effect on the rest of the program.';
      }
      out.push({
        source, line: site.line, kind, share: v / total,
        message: `HeapLens lifetimes: ${measured} ${suggestion} This is a hint from one run, not proof that the change is safe.`,
      });
    }
  }
  return out.sort((a, b) => b.share - a.share);
}

/** The row's object sizes summed (each nested site's representative size times its objects, scaled). */
function totalSize(r: LifetimeRow): number {
  let s = 0;
  for (const n of r.nested) {
    const rep = n.patterns[0]?.representative;
    if (rep) s += rep.size * n.objects;
  }
  const tracked = r.nested.reduce((a, n) => a + n.objects, 0);
  return tracked ? (s / tracked) * r.objects : 0;
}
