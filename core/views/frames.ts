// A call tree flattened for views: pre-order arrays, per-metric self and total values, children sorted by name.
// Pure and DOM-free: the webview lays it out and paints it; tests assert on it.
import { childrenOf, recordsOf } from '../profile/mct';
import { AllocRecord, MctNode, MethodEntry, TypeEntry } from '../profile/types';

/**
 * What the views can size frames by: the allocation metrics plus invocation counts, and CPU samples (only
 * in trees built from the threads profile's CPU stacks, cpu-flame.ts; 0 in allocation trees).
 */
export type ViewMetric = 'allocations' | 'objects' | 'bytes' | 'arrays' | 'elements' | 'calls' | 'samples';
export const VIEW_METRICS: readonly ViewMetric[] = ['allocations', 'objects', 'bytes', 'arrays', 'elements', 'calls', 'samples'];
/** The metrics of allocation trees (the CPU tree has only `samples`). "allocations" (objects + arrays) is the default. */
export const ALLOCATION_METRICS: readonly ViewMetric[] = ['allocations', 'bytes', 'objects', 'arrays', 'elements', 'calls'];
export const METRIC_LABELS: Record<ViewMetric, string> = {
  allocations: 'allocations', objects: 'objects', bytes: 'est. bytes', arrays: 'arrays', elements: 'array elements',
  calls: 'calls', samples: 'CPU samples',
};

export type MetricArrays = Record<ViewMetric, Float64Array>;

/** The flattened tree. The subtree of node i is the index range [i, end[i]). Node 0 is the root. */
export interface FrameTree {
  n: number;
  /** method id, -1 for the root */
  method: Int32Array;
  parent: Int32Array;
  depth: Int32Array;
  end: Int32Array;
  self: MetricArrays;
  total: MetricArrays;
  /** the node's own allocation records (for the breakdown by type) */
  recs: Array<readonly AllocRecord[] | undefined>;
  /** MCTs: the line, in the parent's method, of the call that entered node i (the node's `line`, docs/format.md; 0 unknown) */
  entryLine?: Int32Array;
  maxDepth: number;
  /** a tree read from a profile's first section (first-frames.ts): only the frames a first paint can draw */
  section?: SectionExtras;
}

/** What a first section's tree adds, so that its frames are placed and coloured as the whole tree's are. */
export interface SectionExtras {
  /** the one metric whose values it holds (the others are zero: the tooltip says they are loading) */
  metric: ViewMetric;
  /** per metric, the total of the siblings left out just before node i (added to its left edge) */
  gap: MetricArrays;
  /** children of node i left out, too small to draw */
  more: Int32Array;
  /** per metric, the whole tree's deepest depth with some of it (the canvas' rows) */
  deepest: Record<ViewMetric, number>;
  /** the whole tree's classes: package palette and the legend's sums */
  classes: Array<{ class: string; profiled: boolean; methods: number; self: Record<ViewMetric, number> }>;
}

/** Generic input: anything shaped like a tree whose nodes name a method and carry their own values. */
export interface TreeInput<N> {
  root: N;
  children(n: N): readonly N[];
  /** method id, undefined for the root */
  method(n: N): number | undefined;
  /** adds the node's own values per metric into `out` */
  addSelf(n: N, out: Record<ViewMetric, number>): void;
  recs?(n: N): readonly AllocRecord[] | undefined;
}

function metricArrays(n: number): MetricArrays {
  return {
    allocations: new Float64Array(n), objects: new Float64Array(n), bytes: new Float64Array(n), arrays: new Float64Array(n),
    elements: new Float64Array(n), calls: new Float64Array(n), samples: new Float64Array(n),
  };
}

/** Flattens any tree; `sortKey` orders siblings (by name, so the order is stable across updates and metrics). */
export function flatten<N>(
  input: TreeInput<N>, sortKey: (method: number) => string, onNode?: (index: number, node: N) => void,
): FrameTree {
  // siblings are ordered by a rank per method, computed once (sorting by comparing strings is slow)
  const rank = new Map<number, number>();
  const rankOf = (m: number): number => {
    let r = rank.get(m);
    if (r === undefined) rank.set(m, (r = -1));
    return r;
  };
  const order: N[] = [];
  const parents: number[] = [];
  const depths: number[] = [];
  // first pass: collect the methods and rank them by key
  const seen: N[] = [input.root];
  for (let k = 0; k < seen.length; k++) {
    for (const kid of input.children(seen[k])) {
      rankOf(input.method(kid) ?? -1);
      seen.push(kid);
    }
  }
  [...rank.keys()].map((m) => [m, sortKey(m)] as const).sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[0] - b[0]))
    .forEach(([m], k) => rank.set(m, k));
  seen.length = 0;
  const stackNode: N[] = [input.root];
  const stackParent: number[] = [-1];
  const stackDepth: number[] = [0];
  const byRank = (a: N, b: N): number => rank.get(input.method(b) ?? -1)! - rank.get(input.method(a) ?? -1)!;
  while (stackNode.length > 0) {
    const node = stackNode.pop()!;
    const parent = stackParent.pop()!;
    const depth = stackDepth.pop()!;
    const index = order.length;
    order.push(node);
    parents.push(parent);
    depths.push(depth);
    const c = input.children(node);
    // reversed: popped from the stack in ascending rank
    const kids = c.length > 1 ? [...c].sort(byRank) : c;
    for (const kid of kids) {
      stackNode.push(kid);
      stackParent.push(index);
      stackDepth.push(depth + 1);
    }
  }
  const n = order.length;
  const tree: FrameTree = {
    n, method: new Int32Array(n), parent: Int32Array.from(parents), depth: Int32Array.from(depths),
    end: new Int32Array(n), self: metricArrays(n), total: metricArrays(n), recs: new Array(n), maxDepth: 0,
  };
  const acc: Record<ViewMetric, number> = { allocations: 0, objects: 0, bytes: 0, arrays: 0, elements: 0, calls: 0, samples: 0 };
  for (let i = 0; i < n; i++) {
    const node = order[i];
    tree.method[i] = input.method(node) ?? -1;
    for (const k of VIEW_METRICS) acc[k] = 0;
    input.addSelf(node, acc);
    // what a Java developer calls an allocation: an object or an array (the editor and the reports count the same)
    acc.allocations = acc.objects + acc.arrays;
    for (const k of VIEW_METRICS) {
      tree.self[k][i] = acc[k];
      tree.total[k][i] = acc[k];
    }
    tree.recs[i] = input.recs?.(node);
    onNode?.(i, node);
    tree.end[i] = i + 1;
    if (depths[i] > tree.maxDepth) tree.maxDepth = depths[i];
  }
  for (let i = n - 1; i > 0; i--) {
    const p = tree.parent[i];
    for (const k of VIEW_METRICS) tree.total[k][p] += tree.total[k][i];
    if (tree.end[i] > tree.end[p]) tree.end[p] = tree.end[i];
  }
  return tree;
}

/** Adds one allocation record's values into per-metric sums. */
export function addRecordValues(type: TypeEntry | undefined, rec: AllocRecord, out: Record<ViewMetric, number>): void {
  out.allocations += rec[2];
  if (type?.array) {
    out.arrays += rec[2];
    out.elements += rec[3];
  } else {
    out.objects += rec[2];
  }
  out.bytes += rec[4];
}

/** The input adapter for an MCT (a thread's root, a merge, or a transformed tree). */
export function mctInput(root: MctNode, types: ReadonlyMap<number, TypeEntry>): TreeInput<MctNode> {
  return {
    root,
    children: childrenOf,
    method: (n) => n.m,
    addSelf: (n, out) => {
      out.calls += n.calls ?? 0;
      out.samples += n.samples ?? 0;
      for (const rec of recordsOf(n)) addRecordValues(types.get(rec[1]), rec, out);
    },
    recs: (n) => n.a,
  };
}

/**
 * Flattens an MCT with siblings ordered by `class.method(desc)`. A specialised version of flatten():
 * dense lookup tables instead of maps and callbacks, since this runs on every profile shown.
 */
export function frameTree(
  root: MctNode, methods: ReadonlyMap<number, MethodEntry>, types: ReadonlyMap<number, TypeEntry>,
): FrameTree {
  const isArray = arrayTypes(types);
  // one walk over the parsed nodes (a count first would read the whole object graph twice: cache misses, not work)
  const tree = walkMct(root, methodRanks(methods), isArray, false);
  if (tree) return tree;
  // a node names no method or one the table lacks (a damaged file): ranked as ever, over the ids the nodes name
  let maxMethod = 0;
  const scan: MctNode[] = [root];
  while (scan.length > 0) {
    const node = scan.pop()!;
    if (node.m !== undefined && node.m > maxMethod) maxMethod = node.m;
    const c = node.c;
    if (c) for (let k = 0; k < c.length; k++) scan.push(c[k]);
  }
  return walkMct(root, methodRanks(methods, maxMethod), isArray, true)!;
}

/**
 * Siblings' order: a rank per method id by `class.method(desc)` (ids tie-broken by value), -1 for an id the table lacks;
 * with `upTo`, over the ids up to it only, and 0 for the others (the order frameTree always gave such nodes).
 */
export function methodRanks(methods: ReadonlyMap<number, MethodEntry>, upTo?: number): Int32Array {
  let max = 0;
  for (const id of methods.keys()) if (id > max) max = id;
  const limit = upTo ?? max;
  const rank = new Int32Array(limit + 1).fill(upTo === undefined ? -1 : 0);
  const ids = [...methods.keys()].filter((id) => id <= limit);
  const key = (id: number): string => {
    const m = methods.get(id)!;
    return `${m.class}.${m.name}${m.desc}`;
  };
  ids.map((id) => [id, key(id)] as const).sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[0] - b[0]))
    .forEach(([id], k) => { rank[id] = k; });
  return rank;
}

function arrayTypes(types: ReadonlyMap<number, TypeEntry>): Uint8Array {
  let maxType = 0;
  for (const id of types.keys()) if (id > maxType) maxType = id;
  const isArray = new Uint8Array(maxType + 1);
  for (const [id, t] of types) if (t.array) isArray[id] = 1;
  return isArray;
}

/** Typed arrays that double when full; the tree keeps views of their first n slots (no copy at the end). */
class Columns {
  cap = 1024;
  method = new Int32Array(this.cap);
  parent = new Int32Array(this.cap);
  depth = new Int32Array(this.cap);
  entryLine = new Int32Array(this.cap);
  self = metricArrays(this.cap);

  grow(): void {
    this.cap *= 2;
    const more = <A extends Int32Array | Float64Array>(a: A): A => {
      const b = new (a.constructor as new (n: number) => A)(this.cap);
      b.set(a);
      return b;
    };
    this.method = more(this.method);
    this.parent = more(this.parent);
    this.depth = more(this.depth);
    this.entryLine = more(this.entryLine);
    for (const k of VIEW_METRICS) this.self[k] = more(this.self[k]);
  }
}

/**
 * Pre-order, children in ascending rank. Undefined when a node has no method or one `rank` does not know (-1),
 * unless `anyRank` (then the ranks are used as they are, with the sort frameTree always used).
 */
function walkMct(root: MctNode, rank: Int32Array, isArray: Uint8Array, anyRank: boolean): FrameTree | undefined {
  const col = new Columns();
  let { method, parent, depth, entryLine } = col;
  let { allocations, objects, bytes, arrays, elements, calls, samples } = col.self;
  const recs: Array<readonly AllocRecord[] | undefined> = [];
  let maxDepth = 0;
  const byRankDesc = (a: MctNode, b: MctNode): number => rank[b.m as number] - rank[a.m as number];
  const stackNode: MctNode[] = [root];
  const stackParent: number[] = [-1];
  const stackDepth: number[] = [0];
  const kids: MctNode[] = [];
  let i = 0;
  while (stackNode.length > 0) {
    if (i === col.cap) {
      col.grow();
      ({ method, parent, depth, entryLine } = col);
      ({ allocations, objects, bytes, arrays, elements, calls, samples } = col.self);
    }
    const node = stackNode.pop()!;
    const d = stackDepth.pop()!;
    parent[i] = stackParent.pop()!;
    depth[i] = d;
    if (d > maxDepth) maxDepth = d;
    method[i] = node.m ?? -1;
    if (node.line) entryLine[i] = node.line;
    calls[i] = node.calls ?? 0;
    samples[i] = node.samples ?? 0;
    const a = node.a;
    recs.push(a);
    if (a) {
      // summed in locals, stored once: typed-array read-modify-writes per record cost more than the sums
      let nArr = 0;
      let nObj = 0;
      let nElem = 0;
      let nBytes = 0;
      for (let k = 0; k < a.length; k++) {
        const r = a[k];
        if (isArray[r[1]]) {
          nArr += r[2];
          nElem += r[3];
        } else {
          nObj += r[2];
        }
        nBytes += r[4];
      }
      allocations[i] = nArr + nObj;
      arrays[i] = nArr;
      objects[i] = nObj;
      elements[i] = nElem;
      bytes[i] = nBytes;
    }
    const c = node.c;
    if (c && c.length > 0) {
      if (!anyRank) {
        for (let k = 0; k < c.length; k++) {
          const m = c[k].m;
          if (m === undefined || !(rank[m] >= 0)) return undefined;
        }
      }
      if (c.length === 1 || c.length > 16 || anyRank) {
        const sorted = c.length > 1 ? c.slice().sort(byRankDesc) : c;
        for (let k = 0; k < sorted.length; k++) {
          stackNode.push(sorted[k]);
          stackParent.push(i);
          stackDepth.push(d + 1);
        }
      } else {
        // short lists (most): a stable insertion sort by descending rank, the order sort() gives, without a copy and a
        // callback per node
        kids.length = 0;
        for (let k = 0; k < c.length; k++) {
          const v = c[k];
          const r = rank[v.m as number];
          let b = k - 1;
          kids.push(v);
          while (b >= 0 && rank[kids[b].m as number] < r) {
            kids[b + 1] = kids[b];
            b--;
          }
          kids[b + 1] = v;
        }
        for (let k = 0; k < kids.length; k++) {
          stackNode.push(kids[k]);
          stackParent.push(i);
          stackDepth.push(d + 1);
        }
      }
    }
    i++;
  }
  const n = i;
  const self = {} as MetricArrays;
  for (const k of VIEW_METRICS) self[k] = col.self[k].subarray(0, n);
  const tree: FrameTree = {
    n, method: method.subarray(0, n), parent: parent.subarray(0, n), depth: depth.subarray(0, n), end: new Int32Array(n),
    self, total: metricArrays(n), recs, entryLine: entryLine.subarray(0, n), maxDepth,
  };
  for (let j = 0; j < n; j++) tree.end[j] = j + 1;
  rollUp(tree);
  return tree;
}

/**
 * Totals and subtree ends from the self values, children before parents (reverse pre-order). One loop over the nodes
 * for all seven metrics, the arrays held in locals: looking them up by name per node cost more than the sums, and
 * one loop per metric ran eight cold loops on a page's first paint (each waits for the compiler on its own).
 */
export function rollUp(tree: Pick<FrameTree, 'n' | 'parent' | 'end' | 'self' | 'total'>): void {
  for (const k of VIEW_METRICS) tree.total[k].set(tree.self[k]);
  sumIntoParents(tree, tree.n - 1, 0);
}

/** rollUp in slices (a page decoding a million-node tree runs them in tasks): yields after about `every` nodes. */
export function* rollUpInSteps(tree: Pick<FrameTree, 'n' | 'parent' | 'end' | 'self' | 'total'>, every: number): Generator<void> {
  for (const k of VIEW_METRICS) tree.total[k].set(tree.self[k]);
  yield;
  for (let hi = tree.n - 1; hi > 0; hi -= every) {
    sumIntoParents(tree, hi, Math.max(0, hi - every));
    yield;
  }
}

/** Nodes hi down to lo + 1 add their totals and ends to their parents' (children after parents: one pass, backwards). */
function sumIntoParents(tree: Pick<FrameTree, 'parent' | 'end' | 'total'>, hi: number, lo: number): void {
  const { parent, end, total } = tree;
  const { allocations, objects, bytes, arrays, elements, calls, samples } = total;
  for (let j = hi; j > lo; j--) {
    const p = parent[j];
    if (end[j] > end[p]) end[p] = end[j];
    allocations[p] += allocations[j];
    objects[p] += objects[j];
    bytes[p] += bytes[j];
    arrays[p] += arrays[j];
    elements[p] += elements[j];
    calls[p] += calls[j];
    samples[p] += samples[j];
  }
}

/** Children of node i, in order. */
export function childrenIndices(tree: FrameTree, i: number): number[] {
  const out: number[] = [];
  for (let j = i + 1; j < tree.end[i]; j = tree.end[j]) out.push(j);
  return out;
}

/** Indices from the root (0) down to i inclusive. */
export function ancestry(tree: FrameTree, i: number): number[] {
  const out: number[] = [];
  for (let j = i; j >= 0; j = tree.parent[j]) out.unshift(j);
  return out;
}

/** The method ids from the top down to i (the root excluded): a node's identity that survives a rebuild. */
export function pathOf(tree: FrameTree, i: number): number[] {
  return ancestry(tree, i).slice(1).map((j) => tree.method[j]);
}

/** Finds the node with the given method path (the deepest existing prefix when `nearest`), or -1. */
export function findPath(tree: FrameTree, path: readonly number[], nearest = false): number {
  let at = 0;
  for (const m of path) {
    let next = -1;
    for (let j = at + 1; j < tree.end[at]; j = tree.end[j]) {
      if (tree.method[j] === m) {
        next = j;
        break;
      }
    }
    if (next < 0) return nearest ? at : -1;
    at = next;
  }
  return at;
}

export interface TypeBreakdown {
  type: number;
  count: number;
  elements: number;
  bytes: number;
}

/** Allocations by type of node i: its own records (`self`) or its whole subtree. Sorted by bytes, descending. */
export function breakdownByType(tree: FrameTree, i: number, scope: 'self' | 'total'): TypeBreakdown[] {
  const out = new Map<number, TypeBreakdown>();
  const last = scope === 'self' ? i + 1 : tree.end[i];
  for (let j = i; j < last; j++) {
    for (const rec of tree.recs[j] ?? []) {
      let b = out.get(rec[1]);
      if (!b) out.set(rec[1], (b = { type: rec[1], count: 0, elements: 0, bytes: 0 }));
      b.count += rec[2];
      b.elements += rec[3];
      b.bytes += rec[4];
    }
  }
  return [...out.values()].sort((a, b) => b.bytes - a.bytes || b.count - a.count || a.type - b.type);
}
