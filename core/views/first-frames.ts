// A profile's first section (core/profile/first-section.ts) as the flame view's tree: the nodes in the file's order
// (pre-order, siblings as the page orders them), their self values and the whole tree's totals as written, the
// siblings left out as gaps before the next frame. Laid out and painted under the section's metric, it draws what the
// whole tree draws; the other metrics' values are not in it (zero here: the views ask sectionShows first).
import { FIRST_SECTION_DIVISOR, FirstSection, SECTION_METRIC } from '../profile/first-section';
import { TREE_KINDS } from '../profile/modes';
import { MethodEntry } from '../profile/types';
import { FrameTree, MetricArrays, VIEW_METRICS, ViewMetric } from './frames';

/** [method, depth, more, self, total, gap] */
const NODE = 6;

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
  // a section of another metric, or Round 15's (all five values per node, no `metric`): the whole file is waited for
  if (s.metric !== SECTION_METRIC) return undefined;
  if (!isCount(s.divisor) || !isCount(s.widest) || !isCount(s.deepest)) return undefined;
  if (!Array.isArray(s.nodes) || s.nodes.length === 0 || !Array.isArray(s.methods) || !Array.isArray(s.classes) || !Array.isArray(s.threads)) return undefined;
  let prev = -1;
  for (let i = 0; i < s.nodes.length; i++) {
    const n = s.nodes[i];
    if (!Array.isArray(n) || n.length !== NODE || !n.every((v) => typeof v === 'number' && Number.isFinite(v))) return undefined;
    // pre-order: the root at depth 0 first, then each node at most one deeper than the one before
    if (i === 0 ? n[1] !== 0 || n[0] !== -1 : n[1] < 1 || n[1] > prev + 1 || n[0] < 0) return undefined;
    prev = n[1];
  }
  if (!s.classes.every((c) => Array.isArray(c) && c.length === 4 && typeof c[0] === 'string' && c.slice(1).every(isCount))) return undefined;
  const named = new Set<number>();
  for (const m of s.methods) {
    if (!Array.isArray(m) || m.length !== 6 || !isCount(m[0]) || !Number.isInteger(m[1]) || !s.classes[m[1]] || typeof m[2] !== 'string' ||
      typeof m[3] !== 'string' || typeof m[4] !== 'string' || typeof m[5] !== 'number') return undefined;
    named.add(m[0]);
  }
  for (let i = 1; i < s.nodes.length; i++) if (!named.has(s.nodes[i][0])) return undefined;
  if (!s.threads.every((t) => Array.isArray(t) && typeof t[0] === 'number' && typeof t[1] === 'string')) return undefined;
  return s as FirstSection;
}

/** The section's methods as the profile's Method entries (their class and whether profiled from `classes`). */
export function sectionMethods(s: FirstSection): MethodEntry[] {
  return s.methods.map(([id, c, name, desc, file, line]) => ({
    id, class: s.classes[c][0], name, desc, ...(file !== '' ? { file } : {}), ...(line >= 0 ? { line } : {}), profiled: s.classes[c][1] === 1,
  }));
}

/** Whether a canvas this many CSS pixels wide draws only frames the section holds (a wider one draws narrower ones). */
export function sectionCovers(s: FirstSection, width: number): boolean {
  return width <= s.widest && s.divisor >= FIRST_SECTION_DIVISOR / 2;
}

/** The section's flame tree: its metric's values (allocations: the objects' and arrays' split is not in it). */
export function sectionFrames(s: FirstSection): FrameTree {
  const n = s.nodes.length;
  const k = s.metric;
  const tree: FrameTree = {
    n, method: new Int32Array(n), parent: new Int32Array(n), depth: new Int32Array(n), end: new Int32Array(n),
    self: metricArrays(n), total: metricArrays(n), recs: new Array(n), maxDepth: s.deepest,
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
    tree.self[k][i] = node[3];
    tree.total[k][i] = node[4];
    gap[k][i] = node[5];
    tree.end[i] = i + 1;
  }
  for (let i = n - 1; i > 0; i--) if (tree.end[i] > tree.end[tree.parent[i]]) tree.end[tree.parent[i]] = tree.end[i];
  const deepest = {} as Record<ViewMetric, number>;
  for (const m of VIEW_METRICS) deepest[m] = 0;
  deepest[k] = s.deepest;
  const classes = s.classes.map((c) => {
    const self = {} as Record<ViewMetric, number>;
    for (const m of VIEW_METRICS) self[m] = 0;
    self[k] = c[3];
    return { class: c[0], profiled: c[1] === 1, methods: c[2], self };
  });
  tree.section = { metric: k, gap, more, deepest, classes };
  return tree;
}
