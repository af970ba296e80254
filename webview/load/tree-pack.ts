// A FrameTree as typed arrays only, so that the load worker can hand it to the page by transfer (no copy, no
// structured clone of a million small objects). The allocation records of every node go into one flat array; the
// page reads them back per node on demand (a node's records are needed for tooltips and the tables, not to paint).
import { FrameTree, MetricArrays, VIEW_METRICS } from '../../core/views/frames';
import { AllocRecord } from '../../core/profile/types';
import { RECORD_STRIDE, recordsAt } from '../../core/views/frame-columns';

/** Numbers per record in `recData`: site, type, count, elements, bytes, then up to two optional fields (line, callee). */
const STRIDE = RECORD_STRIDE;

export interface PackedTree {
  n: number;
  maxDepth: number;
  method: Int32Array;
  parent: Int32Array;
  depth: Int32Array;
  end: Int32Array;
  entryLine?: Int32Array;
  self: MetricArrays;
  total: MetricArrays;
  /** the records, absent until they arrive (the first tree's come in a message of their own, after the paint) */
  recs?: PackedRecords;
}

export interface PackedRecords {
  /** node i's records are records recStart[i] … recStart[i + 1] - 1; a node without an `a` has recStart[i] = -1 - k */
  recStart: Int32Array;
  /** STRIDE numbers per record */
  recData: Float64Array;
  /** each record's length (5, 6 or 7) */
  recLen: Uint8Array;
}

/** The tree as typed arrays; `withRecords` false leaves the records out (packRecords, sent later). */
export function packTree(t: FrameTree, withRecords = true): PackedTree {
  return {
    n: t.n, maxDepth: t.maxDepth, method: t.method, parent: t.parent, depth: t.depth, end: t.end, entryLine: t.entryLine,
    self: t.self, total: t.total, ...(withRecords ? { recs: packRecords(t) } : {}),
  };
}

export function packRecords(t: FrameTree): PackedRecords {
  let count = 0;
  for (let i = 0; i < t.n; i++) count += t.recs[i]?.length ?? 0;
  const recStart = new Int32Array(t.n + 1);
  const recData = new Float64Array(count * STRIDE);
  const recLen = new Uint8Array(count);
  let k = 0;
  for (let i = 0; i < t.n; i++) {
    const recs = t.recs[i];
    recStart[i] = recs ? k : -1 - k;      // "no records" (undefined) stays apart from "an empty list"
    if (!recs) continue;
    for (const r of recs) {
      const o = k * STRIDE;
      const len = Math.min(r.length, STRIDE);
      for (let j = 0; j < len; j++) recData[o + j] = r[j];
      recLen[k++] = len;
    }
  }
  recStart[t.n] = k;
  return { recStart, recData, recLen };
}

export function recordBuffers(r: PackedRecords): ArrayBuffer[] {
  return [r.recStart.buffer as ArrayBuffer, r.recData.buffer as ArrayBuffer, r.recLen.buffer as ArrayBuffer];
}

/** The buffers to transfer with postMessage (the packed tree is unusable on the sending side afterwards). */
export function transferables(p: PackedTree): ArrayBuffer[] {
  const out = [p.method, p.parent, p.depth, p.end, ...(p.entryLine ? [p.entryLine] : [])].map((a) => a.buffer as ArrayBuffer);
  if (p.recs) out.push(...recordBuffers(p.recs));
  for (const k of VIEW_METRICS) out.push(p.self[k].buffer as ArrayBuffer, p.total[k].buffer as ArrayBuffer);
  return [...new Set(out)];
}

/**
 * The FrameTree the views use. `recs` reads the flat arrays on access (an index proxy): building a million small
 * arrays up front would cost the page what the worker saved it. Each node's list is built once and kept.
 */
export function unpackTree(p: PackedTree): FrameTree {
  const memo: Array<AllocRecord[] | undefined | null> = new Array(p.n);
  const target: Array<AllocRecord[] | undefined> = [];
  const recs = new Proxy(target, {
    get(t, prop, receiver) {
      if (typeof prop === 'string') {
        const i = prop.charCodeAt(0) - 48;
        if (i >= 0 && i <= 9) {
          const at = Number(prop);
          if (at < p.n) {
            if (!p.recs) return undefined;          // not arrived yet: nothing kept
            let v = memo[at];
            if (v === undefined) memo[at] = v = recordsAt(p.recs, at) ?? null;
            return v ?? undefined;
          }
          return undefined;
        }
        if (prop === 'length') return p.n;
      }
      return Reflect.get(t, prop, receiver);
    },
  });
  return {
    n: p.n, maxDepth: p.maxDepth, method: p.method, parent: p.parent, depth: p.depth, end: p.end, entryLine: p.entryLine,
    self: p.self, total: p.total, recs,
  };
}
