// Icicle layout of a FrameTree: the zoomed node spans the full width on row 0, every descendant gets
// [x, x + w) in fractions of the zoomed node's total, children left to right in tree order.
// O(size of the zoomed subtree) with typed arrays: a 100,000-node tree lays out in a few milliseconds.
import { FrameTree, ViewMetric } from '../../core/views/frames';

export interface Layout {
  zoom: number;
  metric: ViewMetric;
  /** left edge and width in [0, 1]; 0 width outside the zoomed subtree */
  x: Float64Array;
  w: Float64Array;
  /** the zoomed node's total: the 100% of the view */
  scale: number;
  /** rows below the zoomed node (its depth is row 0) */
  rows: number;
  /** scratch space, kept for reuse */
  cursor?: Float64Array;
}

/** `reuse`: a previous layout of a tree of the same size, whose arrays are overwritten (no garbage per zoom). */
export function layout(tree: FrameTree, metric: ViewMetric, zoom: number, reuse?: Layout): Layout {
  const same = reuse !== undefined && reuse.x.length === tree.n;
  const x = same ? reuse.x.fill(0) : new Float64Array(tree.n);
  const w = same ? reuse.w.fill(0) : new Float64Array(tree.n);
  const cursor = same && reuse.cursor ? reuse.cursor.fill(0) : new Float64Array(tree.n);
  const total = tree.total[metric];
  const scale = total[zoom];
  const end = tree.end[zoom];
  const base = tree.depth[zoom];
  let rows = 1;
  if (scale > 0) {
    w[zoom] = 1;
    const parent = tree.parent;
    for (let i = zoom + 1; i < end; i++) {
      const p = parent[i];
      const wi = total[i] / scale;
      x[i] = cursor[p] + x[p];
      w[i] = wi;
      cursor[p] += wi;
      if (wi > 0) {
        const r = tree.depth[i] - base + 1;
        if (r > rows) rows = r;
      }
    }
  }
  return { zoom, metric, x, w, scale, rows, cursor };
}

/** The node drawn at row `row` (0 = the zoomed node) that covers horizontal fraction `fx`, or -1. */
export function hitTest(tree: FrameTree, lay: Layout, fx: number, row: number): number {
  if (fx < 0 || fx >= 1 || row < 0 || lay.w[lay.zoom] === 0) return -1;
  let at = lay.zoom;
  for (let r = 0; r < row; r++) {
    let next = -1;
    for (let j = at + 1; j < tree.end[at]; j = tree.end[j]) {
      if (lay.w[j] > 0 && fx >= lay.x[j] && fx < lay.x[j] + lay.w[j]) {
        next = j;
        break;
      }
    }
    if (next < 0) return -1;
    at = next;
  }
  return at;
}

/** Keyboard navigation in the laid-out tree: parent, first visible child, previous/next visible sibling. */
export function neighbour(tree: FrameTree, lay: Layout, i: number, dir: 'up' | 'down' | 'left' | 'right'): number {
  if (dir === 'up') return i === lay.zoom ? i : tree.parent[i];
  if (dir === 'down') {
    let best = -1;
    for (let j = i + 1; j < tree.end[i]; j = tree.end[j]) if (lay.w[j] > 0 && (best < 0 || lay.w[j] > lay.w[best])) best = j;
    return best < 0 ? i : best;
  }
  if (i === lay.zoom) return i;
  const sibs: number[] = [];
  const p = tree.parent[i];
  for (let j = p + 1; j < tree.end[p]; j = tree.end[j]) if (lay.w[j] > 0) sibs.push(j);
  const k = sibs.indexOf(i);
  const next = dir === 'left' ? sibs[k - 1] : sibs[k + 1];
  return next ?? i;
}
