// The profile's first section (docs/format.md, "first"): the frames the first paint can draw, written right after
// `meta` so that a page reading the file as it arrives paints before the rest is in. The first view is the flame tree
// of the default mode's data, all threads merged, top-down, not zoomed, under the page's default metric (allocations):
// a first view under another metric waits for the whole file. A node is in the section when its total is at least
// 1/DIVISOR of the root's: the flame painter draws no frame under MIN_WIDTH (0.5) CSS pixels, so on a canvas up to
// WIDEST pixels wide every drawn frame is in. Only that metric's values are written (a node: 6 numbers, not 18 as in
// Round 15's format), so that the section arrives sooner. Computed here from the same flattened tree the page
// builds (the TypeScript writers), and by the agent's ProfileWriter from the tree it writes (FirstSection.java).
import { mergeShared } from '../views/merge-shared';
import { FrameTree, frameTree, ViewMetric } from '../views/frames';
import { defaultTree, TreeKind, treesIn, withTree } from './modes';
import { trustedProfile } from './trusted';
import { MethodEntry, ProfileFile } from './types';

/** The widest canvas (CSS pixels) whose first paint the section holds every frame of: a 4K-wide window. */
export const FIRST_SECTION_WIDEST = 3840;
/** 1/DIVISOR of the root is the narrowest frame drawn at WIDEST pixels (flame-paint.ts MIN_WIDTH = 0.5 px). */
export const FIRST_SECTION_DIVISOR = 7680;

/** The metric the section is of: the page's default (webview/state.ts), objects + arrays. */
export const SECTION_METRIC = 'allocations' as const;
/** The values it is the sum of (the section's writers read these per node). */
const PARTS = ['objects', 'arrays'] as const;

/**
 * A node: [method (-1: the root), depth, more (children left out), self, total, gap] under the section's metric, where
 * `gap` is the total of the siblings left out just before it (in the page's sibling order), so the frames keep their
 * positions.
 */
export type SectionNode = number[];

/** A method the nodes name, its class written once (in `classes`): [id, class index, name, desc, file, line]. */
export type SectionMethod = [number, number, string, string, string, number];

export interface FirstSection {
  /** the tree it is of (the default mode's) and the trees the profile holds (the data line's choices) */
  tree: TreeKind;
  kinds: TreeKind[];
  /** the metric its values are of (SECTION_METRIC) */
  metric: typeof SECTION_METRIC;
  divisor: number;
  widest: number;
  /** the deepest depth of a node with some of the metric (the canvas' height counts these rows) */
  deepest: number;
  nodes: SectionNode[];
  /** the methods the nodes name: [id, index of its class (and profiled) in `classes`, name, desc, file ("": none), line (-1: none)] */
  methods: SectionMethod[];
  /** every class of the tree's methods: [class, profiled (0/1), its methods, self summed over its nodes] (palette, legend) */
  classes: Array<[string, number, number, number]>;
  /** the threads: [id, name] */
  threads: Array<[number, string]>;
}

/** The section of a profile (one the host validated or a writer built), or undefined when it has no call tree. */
export function firstSection(file: ProfileFile, divisor = FIRST_SECTION_DIVISOR): FirstSection | undefined {
  const base = trustedProfile(file);
  const kinds = treesIn(base);
  const kind = defaultTree(base);
  const p = withTree(base, kind);
  if (p.threads.length === 0) return undefined;
  const tree = frameTree(mergeShared(p.threads.map((t) => t.root)), p.methods, p.types);
  return sectionOf(tree, kind, kinds, p.methods, file.threads.map((t) => [t.id, t.name]), divisor);
}

/** The section of a flattened tree (siblings in the page's order, as frameTree gives them). */
export function sectionOf(tree: FrameTree, kind: TreeKind, kinds: TreeKind[], methods: ReadonlyMap<number, MethodEntry>,
  threads: Array<[number, string]>, divisor = FIRST_SECTION_DIVISOR): FirstSection {
  const value = (a: Record<ViewMetric, Float64Array>, i: number): number => a[PARTS[0]][i] + a[PARTS[1]][i];
  const total = (i: number): number => value(tree.total, i);
  const root = total(0);
  // drawn at WIDEST pixels under the metric
  const kept = (i: number): boolean => total(i) > 0 && total(i) * divisor >= root;
  let deepest = 0;
  const classes = new Map<string, [string, number, number, number]>();
  const counted = new Set<number>();
  for (let i = 0; i < tree.n; i++) {
    if (total(i) > 0 && tree.depth[i] > deepest) deepest = tree.depth[i];
    const m = methods.get(tree.method[i]);
    if (!m) continue;
    const key = `${m.profiled ? 1 : 0}${m.class}`;
    let c = classes.get(key);
    if (!c) classes.set(key, (c = [m.class, m.profiled ? 1 : 0, 0, 0]));
    if (!counted.has(m.id)) c[2]++;
    counted.add(m.id);
    c[3] += value(tree.self, i);
  }
  const nodes: SectionNode[] = [];
  const named = new Set<number>();
  const visit = (i: number, gap: number): void => {
    const node: number[] = [tree.method[i], tree.depth[i], 0, value(tree.self, i), total(i), gap];
    nodes.push(node);
    if (tree.method[i] >= 0) named.add(tree.method[i]);
    let run = 0;
    for (let j = i + 1; j < tree.end[i]; j = tree.end[j]) {
      if (kept(j)) {
        visit(j, run);
        run = 0;
      } else {
        node[2]++;
        run += total(j);
      }
    }
  };
  visit(0, 0);
  const sorted = [...classes.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  const index = new Map(sorted.map((c, k) => [`${c[1]}${c[0]}`, k]));
  return {
    tree: kind, kinds, metric: SECTION_METRIC, divisor, widest: divisor / 2, deepest, nodes,
    methods: [...named].sort((a, b) => a - b).map((id) => methods.get(id)).filter((m) => m !== undefined)
      .map((m): SectionMethod => [m.id, index.get(`${m.profiled ? 1 : 0}${m.class}`)!, m.name, m.desc, m.file ?? '', m.line ?? -1]),
    classes: sorted,
    threads,
  };
}

/** The profile with its first section right after `meta` (where a reader of the file as it arrives meets it first). */
export function withFirstSection<T extends ProfileFile>(file: T): T {
  const { format, version, meta, ...rest } = file;
  const first = firstSection(file);
  return (first ? { format, version, meta, first, ...rest } : file) as T;
}
