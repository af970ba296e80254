// Differential trees: two profiles (or two snapshots of one session) compared context by context.
// Method and type ids differ between files, so frames match by `class.method(desc)` and types by name.
import { childrenOf, recordsOf } from '../profile/mct';
import { flatten, FrameTree, MetricArrays, VIEW_METRICS, ViewMetric, addRecordValues } from './frames';
import { MctNode, MethodEntry, SiteEntry, TypeEntry } from '../profile/types';

export interface DiffSide {
  root: MctNode;
  methods: ReadonlyMap<number, MethodEntry>;
  types: ReadonlyMap<number, TypeEntry>;
  /** when given, allocations are also compared per site (`DiffTree.sites`) */
  sites?: ReadonlyMap<number, SiteEntry>;
}

type Values = Record<ViewMetric, number>;

interface UnionNode {
  m?: number;
  before: Values;
  after: Values;
  kids: Map<number, UnionNode>;
}

export interface DiffTree {
  /** widths: before + after, so both sides fit and children nest */
  tree: FrameTree;
  before: { self: MetricArrays; total: MetricArrays };
  after: { self: MetricArrays; total: MetricArrays };
  /** the shared method table (ids of the union) */
  methods: Map<number, MethodEntry>;
  /** allocated types by name: before and after totals per metric */
  types: TypeChange[];
  /** allocation sites (`class.method:line`) with the type allocated there; empty unless both sides give `sites` */
  sites: SiteChange[];
}

export interface TypeChange {
  name: string;
  before: Values;
  after: Values;
}

export interface SiteChange {
  /** `class.method:line` of the method holding the site (`@bci` when the class has no line numbers) */
  site: string;
  /** the allocated type */
  type: string;
  before: Values;
  after: Values;
}

/** `com.acme.Parser.parse:42`: how a site is named across profiles (ids differ between files). */
export function siteKey(site: SiteEntry | undefined, methods: ReadonlyMap<number, MethodEntry>): string {
  if (!site) return '?';
  const m = methods.get(site.method);
  const where = site.line !== undefined ? `:${site.line}` : `@${site.bci}`;
  return `${m ? `${m.class}.${m.name}` : `?${site.method}`}${where}`;
}

function zero(): Values {
  return { allocations: 0, objects: 0, bytes: 0, arrays: 0, elements: 0, calls: 0, samples: 0 };
}

export function methodKey(m: MethodEntry): string {
  return `${m.class}.${m.name}${m.desc}`;
}

/** Compares `before` with `after`; frames are matched by method signature along the path. */
export function diffTrees(before: DiffSide, after: DiffSide): DiffTree {
  const methods = new Map<number, MethodEntry>();
  const ids = new Map<string, number>();
  const idOf = (m: MethodEntry): number => {
    const key = methodKey(m);
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
      methods.set(id, { ...m, id });
    }
    return id;
  };
  const types = new Map<string, TypeChange>();
  const sites = new Map<string, SiteChange>();
  const withSites = before.sites !== undefined && after.sites !== undefined;
  const root: UnionNode = { before: zero(), after: zero(), kids: new Map() };
  const add = (side: DiffSide, which: 'before' | 'after'): void => {
    const stack: Array<{ from: MctNode; into: UnionNode }> = [{ from: side.root, into: root }];
    while (stack.length > 0) {
      const { from, into } = stack.pop()!;
      const v = into[which];
      v.calls += from.m === undefined ? 0 : from.calls ?? 0;
      for (const rec of recordsOf(from)) {
        const t = side.types.get(rec[1]);
        addRecordValues(t, rec, v);
        const name = t?.name ?? `?${rec[1]}`;
        let tc = types.get(name);
        if (!tc) types.set(name, (tc = { name, before: zero(), after: zero() }));
        addRecordValues(t, rec, tc[which]);
        if (withSites) {
          const where = siteKey(side.sites?.get(rec[0]), side.methods);
          const key = `${where} ${name}`;
          let sc = sites.get(key);
          if (!sc) sites.set(key, (sc = { site: where, type: name, before: zero(), after: zero() }));
          addRecordValues(t, rec, sc[which]);
        }
      }
      for (const kid of childrenOf(from)) {
        const m = side.methods.get(kid.m as number);
        const id = m ? idOf(m) : idOf({ id: -1, class: '?', name: `?${kid.m}`, desc: '', profiled: false });
        let u = into.kids.get(id);
        if (!u) into.kids.set(id, (u = { m: id, before: zero(), after: zero(), kids: new Map() }));
        stack.push({ from: kid, into: u });
      }
    }
  };
  add(before, 'before');
  add(after, 'after');

  const nodes: UnionNode[] = [];
  const keyOf = (id: number): string => {
    const m = methods.get(id);
    return m ? methodKey(m) : '';
  };
  const tree = flatten<UnionNode>({
    root,
    children: (n) => [...n.kids.values()],
    method: (n) => n.m,
    addSelf: (n, out) => {
      for (const k of VIEW_METRICS) out[k] += n.before[k] + n.after[k];
    },
  }, keyOf, (i, n) => { nodes[i] = n; });
  const side = (which: 'before' | 'after'): { self: MetricArrays; total: MetricArrays } => {
    const self = {} as MetricArrays;
    const total = {} as MetricArrays;
    for (const k of VIEW_METRICS) {
      self[k] = Float64Array.from(nodes, (n) => n[which][k]);
      total[k] = Float64Array.from(self[k]);
      for (let i = tree.n - 1; i > 0; i--) total[k][tree.parent[i]] += total[k][i];
    }
    return { self, total };
  };
  const list = [...types.values()].sort((a, b) => Math.abs(b.after.bytes - b.before.bytes) - Math.abs(a.after.bytes - a.before.bytes) || (a.name < b.name ? -1 : 1));
  const siteList = [...sites.values()].sort((a, b) => Math.abs(b.after.bytes - b.before.bytes) - Math.abs(a.after.bytes - a.before.bytes)
    || (a.site < b.site ? -1 : a.site > b.site ? 1 : a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
  return { tree, before: side('before'), after: side('after'), methods, types: list, sites: siteList };
}

export interface ContextChange {
  /** node index in the diff tree */
  node: number;
  before: number;
  after: number;
  delta: number;
}

/** The contexts whose own value changed most (by absolute change), largest first. */
export function biggestChanges(d: DiffTree, metric: ViewMetric, limit: number): ContextChange[] {
  const out: ContextChange[] = [];
  const b = d.before.self[metric];
  const a = d.after.self[metric];
  for (let i = 1; i < d.tree.n; i++) {
    const delta = a[i] - b[i];
    if (delta !== 0) out.push({ node: i, before: b[i], after: a[i], delta });
  }
  out.sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || x.node - y.node);
  return out.slice(0, limit);
}
