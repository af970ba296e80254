// Aggregations over a profile: totals per type, per thread, per array element code; top contexts.
import { mergeThreads, recordsOf, walk } from '../profile/mct';
import { AllocRecord, ELEMENT_CODES, ElementCode, MctNode, Profile, ThreadEntry, TypeEntry } from '../profile/types';

/** The four platform-independent metrics plus estimated bytes. */
export type Metric = 'objects' | 'arrays' | 'elements' | 'bytes';
export const METRICS: readonly Metric[] = ['objects', 'bytes', 'arrays', 'elements'];

export interface Totals {
  objects: number;
  arrays: number;
  elements: number;
  /** estimated bytes */
  bytes: number;
}

export interface TypeTotals {
  type: TypeEntry;
  /** objects (non-array type) or arrays (array type) */
  count: number;
  elements: number;
  bytes: number;
}

export function zeroTotals(): Totals {
  return { objects: 0, arrays: 0, elements: 0, bytes: 0 };
}

/** The value a record contributes to a metric: objects counts non-array types only, arrays/elements array types only. */
export function metricOf(type: TypeEntry, rec: AllocRecord, metric: Metric): number {
  switch (metric) {
    case 'objects': return type.array ? 0 : rec[2];
    case 'arrays': return type.array ? rec[2] : 0;
    case 'elements': return type.array ? rec[3] : 0;
    case 'bytes': return rec[4];
  }
}

/** The exports' metrics: the four above and `allocations`, objects and arrays together (a Java developer's count). */
export type ExportMetric = Metric | 'allocations';

/** A record's value in an export metric. */
export function exportValue(type: TypeEntry, rec: AllocRecord, metric: ExportMetric): number {
  return metric === 'allocations' ? rec[2] : metricOf(type, rec, metric);
}

function typeOf(profile: Profile, rec: AllocRecord): TypeEntry {
  const t = profile.types.get(rec[1]);
  if (!t) throw new Error(`unknown type id ${rec[1]}`);
  return t;
}

export function addRecord(into: Totals, type: TypeEntry, rec: AllocRecord): void {
  if (type.array) {
    into.arrays += rec[2];
    into.elements += rec[3];
  } else {
    into.objects += rec[2];
  }
  into.bytes += rec[4];
}

/** Totals of the records of one node (its own allocations, not its callees'). */
export function selfTotals(profile: Profile, node: MctNode): Totals {
  const t = zeroTotals();
  for (const rec of recordsOf(node)) addRecord(t, typeOf(profile, rec), rec);
  return t;
}

/** Per-type totals of one node's own records. */
export function selfByType(profile: Profile, node: MctNode): Map<number, TypeTotals> {
  const out = new Map<number, TypeTotals>();
  addByType(profile, node, out);
  return out;
}

function addByType(profile: Profile, node: MctNode, out: Map<number, TypeTotals>): void {
  for (const rec of recordsOf(node)) {
    let tt = out.get(rec[1]);
    if (!tt) out.set(rec[1], (tt = { type: typeOf(profile, rec), count: 0, elements: 0, bytes: 0 }));
    tt.count += rec[2];
    tt.elements += rec[3];
    tt.bytes += rec[4];
  }
}

function rootsOf(profile: Profile, roots?: readonly MctNode[]): readonly MctNode[] {
  return roots ?? profile.threads.map((t) => t.root);
}

/** Totals per type over whole trees (all threads by default), sorted by bytes, then count, descending. */
export function totalsByType(profile: Profile, roots?: readonly MctNode[]): TypeTotals[] {
  const out = new Map<number, TypeTotals>();
  for (const r of rootsOf(profile, roots)) walk(r, (node) => addByType(profile, node, out));
  return [...out.values()].sort((a, b) => b.bytes - a.bytes || b.count - a.count || cmp(a.type.name, b.type.name));
}

/** Totals over whole trees (all threads by default). */
export function totals(profile: Profile, roots?: readonly MctNode[]): Totals {
  const t = zeroTotals();
  for (const r of rootsOf(profile, roots)) {
    walk(r, (node) => {
      for (const rec of recordsOf(node)) addRecord(t, typeOf(profile, rec), rec);
    });
  }
  return t;
}

export interface ThreadTotals {
  thread: ThreadEntry;
  totals: Totals;
}

export function threadTotals(profile: Profile): ThreadTotals[] {
  return profile.threads.map((thread) => ({ thread, totals: totals(profile, [thread.root]) }));
}

export interface ArrayStats {
  arrays: number;
  elements: number;
  /** estimated bytes */
  bytes: number;
}

/** Array statistics by element type code (Binder 2006) (B C D F I J S Z R), every code present. */
export function arraysByElementCode(profile: Profile, roots?: readonly MctNode[]): Record<ElementCode, ArrayStats> {
  const out = {} as Record<ElementCode, ArrayStats>;
  for (const code of ELEMENT_CODES) out[code] = { arrays: 0, elements: 0, bytes: 0 };
  for (const r of rootsOf(profile, roots)) {
    walk(r, (node) => {
      for (const rec of recordsOf(node)) {
        const t = typeOf(profile, rec);
        if (!t.array || !t.elementCode) continue;
        const s = out[t.elementCode];
        s.arrays += rec[2];
        s.elements += rec[3];
        s.bytes += rec[4];
      }
    });
  }
  return out;
}

export interface ContextValue {
  /** non-root nodes from the top of the tree down to the context */
  path: MctNode[];
  self: number;
  inclusive: number;
}

/**
 * The contexts of a tree (the all-threads merge by default) with the largest `metric`, by self or
 * inclusive value; contexts whose value is 0 are left out. Ties keep tree order.
 */
export function topContexts(
  profile: Profile, opts: { metric: Metric; by: 'self' | 'inclusive'; limit: number; root?: MctNode },
): ContextValue[] {
  const root = opts.root ?? mergeThreads(profile);
  const order: MctNode[] = [];
  const parent = new Map<MctNode, MctNode | undefined>();
  const self = new Map<MctNode, number>();
  walk(root, (node, path) => {
    if (path.length === 0) return;
    order.push(node);
    parent.set(node, path.length > 1 ? path[path.length - 2] : undefined);
    let v = 0;
    for (const rec of recordsOf(node)) v += metricOf(typeOf(profile, rec), rec, opts.metric);
    self.set(node, v);
  });
  const incl = new Map<MctNode, number>(self);
  for (let i = order.length - 1; i >= 0; i--) {
    const p = parent.get(order[i]);
    if (p) incl.set(p, (incl.get(p) ?? 0) + (incl.get(order[i]) ?? 0));
  }
  const key = opts.by === 'self' ? self : incl;
  const ranked = order.filter((n) => (key.get(n) ?? 0) > 0);
  ranked.sort((a, b) => (key.get(b) ?? 0) - (key.get(a) ?? 0));
  return ranked.slice(0, opts.limit).map((node) => {
    const path: MctNode[] = [];
    for (let n: MctNode | undefined = node; n; n = parent.get(n)) path.unshift(n);
    return { path, self: self.get(node) ?? 0, inclusive: incl.get(node) ?? 0 };
  });
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
