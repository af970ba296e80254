// The profile's first section (docs/format.md, "first"): the frames the first paint can draw, written right after
// `meta` so that a page reading the file as it arrives paints before the rest is in. The first view is the flame tree
// of the default mode's data, all threads merged, top-down, not zoomed. A node is in the section when its total under
// some metric is at least 1/DIVISOR of the root's: the flame painter draws no frame under MIN_WIDTH (0.5) CSS pixels,
// so on a canvas up to WIDEST pixels wide every drawn frame is in. Computed here from the same flattened tree the page
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

/** The metrics each node carries, in this order (allocations = objects + arrays; the CPU samples are not in it). */
export const SECTION_VALUES = ['objects', 'arrays', 'elements', 'bytes', 'calls'] as const;
const V = SECTION_VALUES.length;

/**
 * A node: [method (-1: the root), depth, more (children left out), self × 5, total × 5, gap × 5], where `gap` is the
 * total of the siblings left out just before it (in the page's sibling order), so the frames keep their positions.
 */
export type SectionNode = number[];

export interface FirstSection {
  /** the tree it is of (the default mode's) and the trees the profile holds (the data line's choices) */
  tree: TreeKind;
  kinds: TreeKind[];
  divisor: number;
  widest: number;
  /** per value, the deepest depth of a node with some of it (the canvas' height counts these rows) */
  deepest: number[];
  nodes: SectionNode[];
  /** the methods the nodes name (the profile's Method entries) */
  methods: MethodEntry[];
  /** every class of the tree's methods: [class, profiled (0/1), its methods, self × 5 summed over its nodes] (palette, legend) */
  classes: Array<[string, number, ...number[]]>;
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

const KEYS: readonly ViewMetric[] = SECTION_VALUES;

/** The section of a flattened tree (siblings in the page's order, as frameTree gives them). */
export function sectionOf(tree: FrameTree, kind: TreeKind, kinds: TreeKind[], methods: ReadonlyMap<number, MethodEntry>,
  threads: Array<[number, string]>, divisor = FIRST_SECTION_DIVISOR): FirstSection {
  const root = KEYS.map((k) => tree.total[k][0]);
  const rootAlloc = root[0] + root[1];
  // drawn at WIDEST pixels under some metric (allocations too: objects + arrays)
  const kept = (i: number): boolean => {
    for (let v = 0; v < V; v++) {
      const t = tree.total[KEYS[v]][i];
      if (t > 0 && t * divisor >= root[v]) return true;
    }
    const a = tree.total.objects[i] + tree.total.arrays[i];
    return a > 0 && a * divisor >= rootAlloc;
  };
  const deepest = new Array<number>(V).fill(0);
  const classes = new Map<string, [string, number, ...number[]]>();
  const counted = new Set<number>();
  for (let i = 0; i < tree.n; i++) {
    for (let v = 0; v < V; v++) if (tree.total[KEYS[v]][i] > 0 && tree.depth[i] > deepest[v]) deepest[v] = tree.depth[i];
    const m = methods.get(tree.method[i]);
    if (!m) continue;
    const key = `${m.profiled ? 1 : 0}${m.class}`;
    let c = classes.get(key);
    if (!c) classes.set(key, (c = [m.class, m.profiled ? 1 : 0, ...new Array<number>(V + 1).fill(0)]));
    if (!counted.has(m.id)) c[2] = (c[2] as number) + 1;
    counted.add(m.id);
    for (let v = 0; v < V; v++) c[3 + v] = (c[3 + v] as number) + tree.self[KEYS[v]][i];
  }
  const nodes: SectionNode[] = [];
  const named = new Set<number>();
  const visit = (i: number, gap: number[]): void => {
    const node: number[] = [tree.method[i], tree.depth[i], 0];
    for (let v = 0; v < V; v++) node.push(tree.self[KEYS[v]][i]);
    for (let v = 0; v < V; v++) node.push(tree.total[KEYS[v]][i]);
    node.push(...gap);
    nodes.push(node);
    if (tree.method[i] >= 0) named.add(tree.method[i]);
    let run = new Array<number>(V).fill(0);
    for (let j = i + 1; j < tree.end[i]; j = tree.end[j]) {
      if (kept(j)) {
        visit(j, run);
        run = new Array<number>(V).fill(0);
      } else {
        node[2]++;
        for (let v = 0; v < V; v++) run[v] += tree.total[KEYS[v]][j];
      }
    }
  };
  visit(0, new Array<number>(V).fill(0));
  return {
    tree: kind, kinds, divisor, widest: divisor / 2, deepest, nodes,
    methods: [...named].sort((a, b) => a - b).map((id) => methods.get(id)!).filter(Boolean),
    classes: [...classes.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1])),
    threads,
  };
}

/** The profile with its first section right after `meta` (where a reader of the file as it arrives meets it first). */
export function withFirstSection<T extends ProfileFile>(file: T): T {
  const { format, version, meta, ...rest } = file;
  const first = firstSection(file);
  return (first ? { format, version, meta, first, ...rest } : file) as T;
}
