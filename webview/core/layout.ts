// Icicle layout of a FrameTree: the zoomed node spans the full width on row 0, every descendant gets
// [x, x + w) in fractions of the zoomed node's total, children left to right in tree order.
// O(size of the zoomed subtree) with typed arrays: a 100,000-node tree lays out in a few milliseconds. With a
// `minWidth`, the subtrees below a frame narrower than it are not laid out (they are not drawn): a 1M-node tree's
// first paint then lays out the few thousand frames it draws. Hit testing and keyboard moves read widths from the
// tree's totals, so they do not depend on which frames were laid out.
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
  /** frames narrower than this (a fraction) were laid out, their descendants not (0 width) */
  minWidth: number;
  /** scratch space, kept for reuse */
  cursor?: Float64Array;
}

/**
 * `reuse`: a previous layout of a tree of the same size, whose arrays are overwritten (no garbage per zoom).
 * `minWidth`: below a frame narrower than this fraction of the zoomed node, nothing is laid out (the flame view passes
 * a quarter of a canvas pixel; its painter skips frames under half a pixel); `rows` still counts the rows of those
 * subtrees, so the canvas keeps its height.
 */
export function layout(tree: FrameTree, metric: ViewMetric, zoom: number, reuse?: Layout, minWidth = 0): Layout {
  const steps = layoutInSteps(tree, metric, zoom, reuse, minWidth, Infinity);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * layout() in slices: it yields after about `every` frames visited (those laid out and those whose rows are counted),
 * so that a page can lay out a million-node tree's first view in tasks of its own. The result is layout()'s.
 */
export function* layoutInSteps(tree: FrameTree, metric: ViewMetric, zoom: number, reuse: Layout | undefined, minWidth: number,
  every: number): Generator<void, Layout> {
  const same = reuse !== undefined && reuse.x.length === tree.n;
  const x = same ? reuse.x.fill(0) : new Float64Array(tree.n);
  const w = same ? reuse.w.fill(0) : new Float64Array(tree.n);
  const cursor = same && reuse.cursor ? reuse.cursor.fill(0) : new Float64Array(tree.n);
  const total = tree.total[metric];
  const scale = total[zoom];
  const end = tree.end[zoom];
  const base = tree.depth[zoom];
  let rows = 1;
  const maxRows = Number.isFinite(tree.maxDepth) ? tree.maxDepth - base + 1 : Infinity;
  // a first section's tree: the left-out siblings' widths before each frame, and the whole tree's rows
  const gap = tree.section?.gap[metric];
  if (scale > 0 && zoom === 0 && tree.section) rows = Math.max(rows, tree.section.deepest[metric] + 1);
  if (scale > 0) {
    w[zoom] = 1;
    const parent = tree.parent;
    let work = 0;
    for (let i = zoom + 1; i < end; i++) {
      if (++work >= every) {
        work = 0;
        yield;
      }
      const p = parent[i];
      const wi = total[i] / scale;
      if (gap) cursor[p] += gap[i] / scale;
      x[i] = cursor[p] + x[p];
      w[i] = wi;
      cursor[p] += wi;
      if (wi > 0) {
        const r = tree.depth[i] - base + 1;
        if (r > rows) rows = r;
        if (wi < minWidth) {
          // a frame too narrow to draw any of its descendants: only their rows are counted (until the deepest row is)
          const stop = tree.end[i];
          const depth = tree.depth;
          for (let k = i + 1; k < stop && rows < maxRows; k++) {
            if (total[k] > 0 && depth[k] - base + 1 > rows) rows = depth[k] - base + 1;
            if (++work >= every) {
              work = 0;
              yield;
            }
          }
          i = stop - 1;
        }
      }
    }
  }
  return { zoom, metric, x, w, scale, rows, minWidth, cursor };
}

/** The node drawn at row `row` (0 = the zoomed node) that covers horizontal fraction `fx`, or -1. */
export function hitTest(tree: FrameTree, lay: Layout, fx: number, row: number): number {
  if (fx < 0 || fx >= 1 || row < 0 || !(lay.scale > 0)) return -1;
  // widths from the totals, summed as layout() sums them: the same edges whether or not the frame was laid out
  const total = tree.total[lay.metric];
  const gap = tree.section?.gap[lay.metric];
  let at = lay.zoom;
  let left = 0;
  for (let r = 0; r < row; r++) {
    let next = -1;
    let cursor = 0;
    for (let j = at + 1; j < tree.end[at]; j = tree.end[j]) {
      const wj = total[j] / lay.scale;
      if (gap) cursor += gap[j] / lay.scale;
      const xj = cursor + left;
      cursor += wj;
      if (wj > 0 && fx >= xj && fx < xj + wj) {
        next = j;
        left = xj;
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
  // a frame is visible when it has some of the metric (its width is its total over the zoomed node's)
  const total = tree.total[lay.metric];
  const visible = (j: number): boolean => lay.scale > 0 && total[j] > 0;
  if (dir === 'down') {
    let best = -1;
    for (let j = i + 1; j < tree.end[i]; j = tree.end[j]) if (visible(j) && (best < 0 || total[j] > total[best])) best = j;
    return best < 0 ? i : best;
  }
  if (i === lay.zoom) return i;
  const sibs: number[] = [];
  const p = tree.parent[i];
  for (let j = p + 1; j < tree.end[p]; j = tree.end[j]) if (visible(j)) sibs.push(j);
  const k = sibs.indexOf(i);
  const next = dir === 'left' ? sibs[k - 1] : sibs[k + 1];
  return next ?? i;
}
