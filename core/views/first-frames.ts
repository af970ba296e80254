// A profile's first section (core/profile/first-section.ts) as the flame view's tree: the nodes in the file's order
// (pre-order, siblings as the page orders them), their self values and the whole tree's totals as written, the
// siblings left out as gaps before the next frame. Laid out and painted, it draws what the whole tree draws.
import { FIRST_SECTION_DIVISOR, FirstSection, SECTION_VALUES } from '../profile/first-section';
import { TREE_KINDS } from '../profile/modes';
import { FrameTree, MetricArrays, VIEW_METRICS, ViewMetric } from './frames';

const V = SECTION_VALUES.length;
const NODE = 3 + 3 * V;

function metricArrays(n: number): MetricArrays {
  const o = {} as MetricArrays;
  for (const k of VIEW_METRICS) o[k] = new Float64Array(n);
  return o;
}

const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0;

/** The section when it has the shape first-section.ts writes, else undefined (the page then waits for the whole file). */
export function checkSection(x: unknown): FirstSection | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const s = x as Partial<FirstSection>;
  if (!TREE_KINDS.includes(s.tree as never) || !Array.isArray(s.kinds) || !s.kinds.every((k) => TREE_KINDS.includes(k))) return undefined;
  if (!isCount(s.divisor) || !isCount(s.widest) || !Array.isArray(s.deepest) || s.deepest.length !== V || !s.deepest.every(isCount)) return undefined;
  if (!Array.isArray(s.nodes) || s.nodes.length === 0 || !Array.isArray(s.methods) || !Array.isArray(s.classes) || !Array.isArray(s.threads)) return undefined;
  let prev = -1;
  for (let i = 0; i < s.nodes.length; i++) {
    const n = s.nodes[i];
    if (!Array.isArray(n) || n.length !== NODE || !n.every((v) => typeof v === 'number' && Number.isFinite(v))) return undefined;
    // pre-order: the root at depth 0 first, then each node at most one deeper than the one before
    if (i === 0 ? n[1] !== 0 || n[0] !== -1 : n[1] < 1 || n[1] > prev + 1 || n[0] < 0) return undefined;
    prev = n[1];
  }
  const named = new Set<number>();
  for (const m of s.methods) {
    if (typeof m !== 'object' || m === null || typeof m.id !== 'number' || typeof m.class !== 'string' || typeof m.name !== 'string' || typeof m.desc !== 'string') return undefined;
    named.add(m.id);
  }
  for (let i = 1; i < s.nodes.length; i++) if (!named.has(s.nodes[i][0])) return undefined;
  if (!s.classes.every((c) => Array.isArray(c) && c.length === 3 + V && typeof c[0] === 'string' && c.slice(1).every(isCount))) return undefined;
  if (!s.threads.every((t) => Array.isArray(t) && typeof t[0] === 'number' && typeof t[1] === 'string')) return undefined;
  return s as FirstSection;
}

/** Whether a canvas this many CSS pixels wide draws only frames the section holds (a wider one draws narrower ones). */
export function sectionCovers(s: FirstSection, width: number): boolean {
  return width <= s.widest && s.divisor >= FIRST_SECTION_DIVISOR / 2;
}

/** The section's flame tree. */
export function sectionFrames(s: FirstSection): FrameTree {
  const n = s.nodes.length;
  const tree: FrameTree = {
    n, method: new Int32Array(n), parent: new Int32Array(n), depth: new Int32Array(n), end: new Int32Array(n),
    self: metricArrays(n), total: metricArrays(n), recs: new Array(n), maxDepth: 0,
  };
  const gap = metricArrays(n);
  const more = new Int32Array(n);
  const path: number[] = [];
  for (let i = 0; i < n; i++) {
    const node = s.nodes[i];
    const d = node[1];
    path.length = d;
    tree.method[i] = node[0];
    tree.depth[i] = d;
    tree.parent[i] = d === 0 ? -1 : path[d - 1];
    path.push(i);
    more[i] = node[2];
    for (let v = 0; v < V; v++) {
      const k = SECTION_VALUES[v];
      tree.self[k][i] = node[3 + v];
      tree.total[k][i] = node[3 + V + v];
      gap[k][i] = node[3 + 2 * V + v];
    }
    tree.self.allocations[i] = tree.self.objects[i] + tree.self.arrays[i];
    tree.total.allocations[i] = tree.total.objects[i] + tree.total.arrays[i];
    gap.allocations[i] = gap.objects[i] + gap.arrays[i];
    tree.end[i] = i + 1;
  }
  for (let i = n - 1; i > 0; i--) if (tree.end[i] > tree.end[tree.parent[i]]) tree.end[tree.parent[i]] = tree.end[i];
  const deepest = {} as Record<ViewMetric, number>;
  for (const k of VIEW_METRICS) deepest[k] = 0;
  SECTION_VALUES.forEach((k, v) => { deepest[k] = s.deepest[v]; });
  deepest.allocations = Math.max(deepest.objects, deepest.arrays);
  tree.maxDepth = Math.max(...Object.values(deepest));
  const classes = s.classes.map((c) => {
    const self = {} as Record<ViewMetric, number>;
    for (const k of VIEW_METRICS) self[k] = 0;
    SECTION_VALUES.forEach((k, v) => { self[k] = c[3 + v] as number; });
    self.allocations = self.objects + self.arrays;
    return { class: c[0], profiled: c[1] === 1, methods: c[2] as number, self };
  });
  tree.section = { gap, more, deepest, classes };
  return tree;
}
