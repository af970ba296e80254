// Array statistics for the Arrays view: Binder 2006's per element type table, per context, and the
// distribution of allocation records by their average length.
//
// The profile records, per (context, site, type), the number of arrays and their total elements, not
// the individual lengths: a true length histogram needs per-length data from the agent. What can be
// shown honestly is the average length of each record and how arrays distribute over those averages.
import { FrameTree, pathOf } from './frames';
import { ELEMENT_CODES, ElementCode, TypeEntry } from '../profile/types';

export const ELEMENT_NAMES: Record<ElementCode, string> = {
  B: 'byte', C: 'char', D: 'double', F: 'float', I: 'int', J: 'long', S: 'short', Z: 'boolean', R: 'reference',
};

export interface ArrayRow {
  arrays: number;
  elements: number;
  bytes: number;
}

export interface ContextArrayRow extends ArrayRow {
  code: ElementCode;
  node: number;
  trace: number[];
}

function emptyByCode(): Record<ElementCode, ArrayRow> {
  const out = {} as Record<ElementCode, ArrayRow>;
  for (const c of ELEMENT_CODES) out[c] = { arrays: 0, elements: 0, bytes: 0 };
  return out;
}

function codeOf(types: ReadonlyMap<number, TypeEntry>, typeId: number): ElementCode | undefined {
  const t = types.get(typeId);
  return t?.array ? t.elementCode : undefined;
}

/** Per element code over a subtree (the whole tree by default): every code present. */
export function arraysByCode(tree: FrameTree, types: ReadonlyMap<number, TypeEntry>, node = 0): Record<ElementCode, ArrayRow> {
  const out = emptyByCode();
  for (let i = node; i < tree.end[node]; i++) {
    for (const rec of tree.recs[i] ?? []) {
      const code = codeOf(types, rec[1]);
      if (!code) continue;
      out[code].arrays += rec[2];
      out[code].elements += rec[3];
      out[code].bytes += rec[4];
    }
  }
  return out;
}

/**
 * A row whose `trace` (the context's method path) is computed when first read: in a tree a million calls deep,
 * a path for every row would take memory quadratic in the depth, and views read it for the rows they show.
 */
function contextRow(tree: FrameTree, code: ElementCode, node: number): ContextArrayRow {
  let trace: number[] | undefined;
  return {
    code, node, arrays: 0, elements: 0, bytes: 0,
    get trace(): number[] { return (trace ??= pathOf(tree, node)); },
  };
}

/** One row per (context, element code) with arrays, sorted by bytes then arrays, descending. */
export function arraysByContext(tree: FrameTree, types: ReadonlyMap<number, TypeEntry>): ContextArrayRow[] {
  const rows: ContextArrayRow[] = [];
  for (let i = 0; i < tree.n; i++) {
    const recs = tree.recs[i];
    if (!recs) continue;
    const here = new Map<ElementCode, ContextArrayRow>();
    for (const rec of recs) {
      const code = codeOf(types, rec[1]);
      if (!code || rec[2] === 0) continue;
      let r = here.get(code);
      if (!r) here.set(code, (r = contextRow(tree, code, i)));
      r.arrays += rec[2];
      r.elements += rec[3];
      r.bytes += rec[4];
    }
    for (const r of here.values()) rows.push(r);
  }
  return rows.sort((a, b) => b.bytes - a.bytes || b.arrays - a.arrays || a.node - b.node);
}

/** Bucket k holds average lengths in [lo, hi]: 0, 1, 2–3, 4–7, … (powers of two). */
export interface LengthBucket {
  lo: number;
  hi: number;
  label: string;
  /** arrays whose record's average length falls in the bucket */
  arrays: number;
  /** records (context × site × type) in the bucket */
  records: number;
}

export function bucketOf(avg: number): number {
  return avg < 1 ? 0 : 1 + Math.floor(Math.log2(avg));
}

function bucketBounds(k: number): [number, number] {
  return k === 0 ? [0, 0] : [2 ** (k - 1), 2 ** k - 1];
}

/** Distribution of arrays over their record's average length, per element code (empty codes omitted). */
export function averageLengthDistribution(tree: FrameTree, types: ReadonlyMap<number, TypeEntry>): Map<ElementCode, LengthBucket[]> {
  const counts = new Map<ElementCode, Map<number, { arrays: number; records: number }>>();
  for (let i = 0; i < tree.n; i++) {
    for (const rec of tree.recs[i] ?? []) {
      const code = codeOf(types, rec[1]);
      if (!code || rec[2] === 0) continue;
      const k = bucketOf(rec[3] / rec[2]);
      let byBucket = counts.get(code);
      if (!byBucket) counts.set(code, (byBucket = new Map()));
      const c = byBucket.get(k) ?? { arrays: 0, records: 0 };
      c.arrays += rec[2];
      c.records += 1;
      byBucket.set(k, c);
    }
  }
  const out = new Map<ElementCode, LengthBucket[]>();
  for (const code of ELEMENT_CODES) {
    const byBucket = counts.get(code);
    if (!byBucket) continue;
    let maxK = 0;
    for (const k of byBucket.keys()) maxK = Math.max(maxK, k);
    const buckets: LengthBucket[] = [];
    for (let k = 0; k <= maxK; k++) {
      const [lo, hi] = bucketBounds(k);
      const c = byBucket.get(k) ?? { arrays: 0, records: 0 };
      buckets.push({ lo, hi, label: lo === hi ? `${lo}` : `${lo}–${hi}`, arrays: c.arrays, records: c.records });
    }
    out.set(code, buckets);
  }
  return out;
}
