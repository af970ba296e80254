// Per-method passes over a flattened tree with dense arrays indexed by method id instead of maps: the flame tab's
// palette and legend run them over every node of the shown tree (a million in a big profile) before its first paint.
import { FrameTree, ViewMetric } from './frames';

/** Method ids above this use a map: a dense array that large would cost more than it saves. */
const DENSE_LIMIT = 1 << 24;

function maxMethod(tree: FrameTree, from: number, to: number): number {
  let max = -1;
  for (let i = from; i < to; i++) if (tree.method[i] > max) max = tree.method[i];
  return max;
}

/** The distinct method ids of nodes from … to - 1 (-1: the root), in order of first appearance. */
export function methodsIn(tree: FrameTree, from: number, to: number): number[] {
  const out: number[] = [];
  const max = maxMethod(tree, from, to);
  if (max >= DENSE_LIMIT) {
    const seen = new Set<number>();
    for (let i = from; i < to; i++) {
      const m = tree.method[i];
      if (!seen.has(m)) {
        seen.add(m);
        out.push(m);
      }
    }
    return out;
  }
  const seen = new Uint8Array(max + 2);       // index m + 1: the root's -1 at 0
  for (let i = from; i < to; i++) {
    const m = tree.method[i];
    if (seen[m + 1] === 0) {
      seen[m + 1] = 1;
      out.push(m);
    }
  }
  return out;
}

/**
 * The zoomed subtree's self values summed per method, in order of first appearance; each node adds 1e-9 as well, so
 * that a method whose frames all have 0 still counts (the legend lists packages of frames drawn with no width).
 */
export function selfByMethod(tree: FrameTree, metric: ViewMetric, zoom: number): Map<number, number> {
  const self = tree.self[metric];
  const end = tree.end[zoom];
  const out = new Map<number, number>();
  const max = maxMethod(tree, zoom, end);
  if (max >= DENSE_LIMIT) {
    for (let i = zoom; i < end; i++) {
      const m = tree.method[i];
      out.set(m, (out.get(m) ?? 0) + self[i] + 1e-9);
    }
    return out;
  }
  const order = methodsIn(tree, zoom, end);
  const sum = new Float64Array(max + 2);
  for (let i = zoom; i < end; i++) {
    const k = tree.method[i] + 1;
    sum[k] = sum[k] + self[i] + 1e-9;
  }
  for (const m of order) out.set(m, sum[m + 1]);
  return out;
}
