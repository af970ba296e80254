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
  const steps = methodsInSteps(tree, from, to, Infinity);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** methodsIn in slices: yields after about `every` nodes (a page's palette over a million nodes, in tasks). */
export function* methodsInSteps(tree: FrameTree, from: number, to: number, every: number): Generator<void, number[]> {
  const out: number[] = [];
  const max = maxMethod(tree, from, to);
  const dense = max < DENSE_LIMIT;
  const seenSet = new Set<number>();
  const seen = new Uint8Array(dense ? max + 2 : 0);       // index m + 1: the root's -1 at 0
  for (let lo = from; lo < to; lo += every) {
    if (lo > from) yield;
    const hi = Math.min(to, lo + every);
    if (dense) {
      for (let i = lo; i < hi; i++) {
        const m = tree.method[i];
        if (seen[m + 1] === 0) {
          seen[m + 1] = 1;
          out.push(m);
        }
      }
    } else {
      for (let i = lo; i < hi; i++) {
        const m = tree.method[i];
        if (!seenSet.has(m)) {
          seenSet.add(m);
          out.push(m);
        }
      }
    }
  }
  return out;
}

/**
 * The zoomed subtree's self values summed per method, in order of first appearance, plus 1e-9 per method, so that a
 * method whose frames all have 0 still counts (the legend lists packages of frames drawn with no width). Per method,
 * not per node: a profile's first section (first-section.ts) gives the legend the same sums from its classes.
 */
export function selfByMethod(tree: FrameTree, metric: ViewMetric, zoom: number): Map<number, number> {
  const self = tree.self[metric];
  const end = tree.end[zoom];
  const out = new Map<number, number>();
  const max = maxMethod(tree, zoom, end);
  if (max >= DENSE_LIMIT) {
    for (let i = zoom; i < end; i++) {
      const m = tree.method[i];
      out.set(m, (out.get(m) ?? 1e-9) + self[i]);
    }
    return out;
  }
  const order = methodsIn(tree, zoom, end);
  const sum = new Float64Array(max + 2);
  for (let i = zoom; i < end; i++) {
    const k = tree.method[i] + 1;
    sum[k] = sum[k] + self[i];
  }
  for (const m of order) out.set(m, sum[m + 1] + 1e-9);
  return out;
}
