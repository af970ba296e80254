// The call tree as a table (IntelliJ's "Call Tree", JProfiler's "Allocation Call Tree"): the rows shown for a set
// of expanded nodes, siblings sorted by a column. Pure: the webview renders the rows, tests assert on them.
// Only expanded nodes are visited, so a million-node tree costs what is open, not its size.
import { FrameTree, pathOf, findPath } from './frames';

/** "allocations" counts objects and arrays, as a Java developer counts `new`. */
export type CallColumn = 'name' | 'selfAllocations' | 'totalAllocations' | 'selfBytes' | 'totalBytes' | 'calls';
export const CALL_COLUMNS: readonly CallColumn[] = ['name', 'selfAllocations', 'totalAllocations', 'selfBytes', 'totalBytes', 'calls'];

export interface CallRow {
  node: number;
  method: number;
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
  selfAllocations: number;
  totalAllocations: number;
  selfBytes: number;
  totalBytes: number;
  /** totalAllocations over the root's (0 when the root has none) */
  share: number;
  /** bytes share, for ranking by bytes */
  bytesShare: number;
  calls: number;
}

export interface CallSort {
  key: CallColumn;
  desc: boolean;
}

export function rowOf(tree: FrameTree, i: number, expanded: boolean): CallRow {
  const totalAllocations = tree.total.objects[i] + tree.total.arrays[i];
  const rootAllocations = tree.total.objects[0] + tree.total.arrays[0];
  return {
    node: i, method: tree.method[i], depth: tree.depth[i], hasChildren: tree.end[i] > i + 1, expanded,
    selfAllocations: tree.self.objects[i] + tree.self.arrays[i], totalAllocations,
    selfBytes: tree.self.bytes[i], totalBytes: tree.total.bytes[i],
    share: rootAllocations > 0 ? totalAllocations / rootAllocations : 0,
    bytesShare: tree.total.bytes[0] > 0 ? tree.total.bytes[i] / tree.total.bytes[0] : 0,
    calls: tree.self.calls[i],
  };
}

/** The value a column sorts by (name: `nameOf`, ascending alphabetical by default). */
function numeric(tree: FrameTree, i: number, key: CallColumn): number {
  switch (key) {
    case 'selfAllocations': return tree.self.objects[i] + tree.self.arrays[i];
    case 'totalAllocations': return tree.total.objects[i] + tree.total.arrays[i];
    case 'selfBytes': return tree.self.bytes[i];
    case 'totalBytes': return tree.total.bytes[i];
    case 'calls': return tree.self.calls[i];
    default: return 0;
  }
}

/** Children of node i sorted by the column (ties: tree order, which is by name). */
export function sortedChildren(tree: FrameTree, i: number, sort: CallSort, nameOf: (method: number) => string): number[] {
  const kids: number[] = [];
  for (let j = i + 1; j < tree.end[i]; j = tree.end[j]) kids.push(j);
  if (sort.key === 'name') {
    const names = new Map(kids.map((k) => [k, nameOf(tree.method[k])]));
    kids.sort((a, b) => {
      const x = names.get(a)!;
      const y = names.get(b)!;
      const c = x < y ? -1 : x > y ? 1 : a - b;
      return sort.desc ? -c : c;
    });
  } else {
    const v = new Float64Array(kids.length);
    kids.forEach((k, n) => { v[n] = numeric(tree, k, sort.key); });
    const order = kids.map((_, n) => n);
    order.sort((a, b) => (sort.desc ? v[b] - v[a] : v[a] - v[b]) || a - b);
    return order.map((n) => kids[n]);
  }
  return kids;
}

/**
 * The visible rows: the root's children, and below every expanded node its children, depth first.
 * `expanded` holds node indices. The root itself is not a row (its figures are the 100 %).
 */
export function callTableRows(
  tree: FrameTree, expanded: ReadonlySet<number>, sort: CallSort, nameOf: (method: number) => string,
): CallRow[] {
  const out: CallRow[] = [];
  const stack = sortedChildren(tree, 0, sort, nameOf).reverse();
  while (stack.length > 0) {
    const i = stack.pop()!;
    const open = expanded.has(i);
    out.push(rowOf(tree, i, open));
    if (open) {
      const kids = sortedChildren(tree, i, sort, nameOf);
      for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
    }
  }
  return out;
}

/** Expanded method paths (kept in the view state, they survive a rebuild of the tree) → node indices. */
export function expandedNodes(tree: FrameTree, paths: ReadonlyArray<readonly number[]>): Set<number> {
  const out = new Set<number>();
  for (const p of paths) {
    const i = findPath(tree, p);
    if (i > 0) out.add(i);
  }
  return out;
}

/** The paths to add so that node i is visible (every ancestor below the root expanded). */
export function pathsToReveal(tree: FrameTree, i: number): number[][] {
  const out: number[][] = [];
  for (let j = tree.parent[i]; j > 0; j = tree.parent[j]) out.unshift(pathOf(tree, j));
  return out;
}

/**
 * Auto-expansion on the hottest path (what IntelliJ does on opening): from the root, the child with the largest
 * total for the metric while it holds at least `min` of its parent's value. Returns the nodes to expand.
 */
export function hottestPath(tree: FrameTree, metric: 'allocations' | 'bytes', min = 0.5): number[] {
  const value = (i: number): number => (metric === 'bytes' ? tree.total.bytes[i] : tree.total.objects[i] + tree.total.arrays[i]);
  const out: number[] = [];
  let at = 0;
  for (;;) {
    let best = -1;
    for (let j = at + 1; j < tree.end[at]; j = tree.end[j]) if (best < 0 || value(j) > value(best)) best = j;
    if (best < 0 || value(best) === 0 || value(best) < min * value(at)) break;
    if (tree.end[best] === best + 1) break;     // a leaf: nothing to open
    out.push(best);
    at = best;
  }
  return out;
}
