// Allocation hot spots by class (JProfiler's Recorded Objects → Allocation Hot Spots): per allocated type its
// allocations and bytes, then the sites that allocate it, then each site's calling contexts as a back-trace tree
// (the site's method first, its callers below, merged by method). One row per site, not one per context.
import { FrameTree } from './frames';
import { SiteEntry, TypeEntry } from '../profile/types';

export type HotMetric = 'allocations' | 'bytes';

export interface HotContext {
  /** node of the calling context that holds the records */
  node: number;
  allocations: number;
  bytes: number;
}

export interface HotSite {
  site: number;
  /** the method that holds the site, and its line (undefined: the class has no line numbers) */
  method: number | undefined;
  line: number | undefined;
  kind: string;
  allocations: number;
  bytes: number;
  contexts: HotContext[];
}

export interface HotType {
  type: number;
  name: string;
  allocations: number;
  bytes: number;
  sites: HotSite[];
}

const value = (x: { allocations: number; bytes: number }, metric: HotMetric): number => (metric === 'bytes' ? x.bytes : x.allocations);

/** Types → sites → contexts, each level sorted by the metric (ties: more of the other, then id / tree order). */
export function hotSpots(tree: FrameTree, types: ReadonlyMap<number, TypeEntry>, sites: ReadonlyMap<number, SiteEntry>, metric: HotMetric): HotType[] {
  const byType = new Map<number, HotType>();
  const bySite = new Map<string, HotSite>();
  for (let i = 0; i < tree.n; i++) {
    const recs = tree.recs[i];
    if (!recs) continue;
    for (const [siteId, typeId, count, , bytes] of recs) {
      let t = byType.get(typeId);
      if (!t) byType.set(typeId, (t = { type: typeId, name: types.get(typeId)?.name ?? `type ${typeId}`, allocations: 0, bytes: 0, sites: [] }));
      t.allocations += count;
      t.bytes += bytes;
      const key = `${typeId}:${siteId}`;
      let s = bySite.get(key);
      if (!s) {
        const e = sites.get(siteId);
        s = { site: siteId, method: e?.method, line: e?.line, kind: e?.kind ?? '?', allocations: 0, bytes: 0, contexts: [] };
        bySite.set(key, s);
        t.sites.push(s);
      }
      s.allocations += count;
      s.bytes += bytes;
      const last = s.contexts[s.contexts.length - 1];
      if (last && last.node === i) {
        last.allocations += count;
        last.bytes += bytes;
      } else {
        s.contexts.push({ node: i, allocations: count, bytes });
      }
    }
  }
  const other: HotMetric = metric === 'bytes' ? 'allocations' : 'bytes';
  const order = <T extends { allocations: number; bytes: number }>(a: T, b: T): number => value(b, metric) - value(a, metric) || value(b, other) - value(a, other);
  const out = [...byType.values()].filter((t) => value(t, metric) > 0);
  for (const t of out) {
    t.sites.sort((a, b) => order(a, b) || a.site - b.site);
    for (const s of t.sites) s.contexts.sort((a, b) => order(a, b) || a.node - b.node);
  }
  return out.sort((a, b) => order(a, b) || a.type - b.type);
}

export interface BackTraceNode {
  /** the frame's method; the first level is the context's own method, the next its callers */
  method: number;
  /** method ids from the frame down to the back-trace's top: a key that survives a rebuild */
  path: number[];
  /**
   * For a caller (level 2 on): the line in its method of the call toward the frame above (the nodes' `line`,
   * docs/format.md); undefined when the profile does not say, or when the merged contexts called from different lines.
   */
  line?: number;
  allocations: number;
  bytes: number;
  children: BackTraceNode[];
}

/**
 * The contexts of one site as a back-trace tree: level 1 the context's method, level 2 its callers, and so on to the
 * thread's first frame; contexts that share a chain of callers merge. Children sorted by the metric.
 */
export function backTraces(tree: FrameTree, contexts: readonly HotContext[], metric: HotMetric): BackTraceNode[] {
  const top: BackTraceNode[] = [];
  for (const c of contexts) {
    let level = top;
    const path: number[] = [];
    let below = -1;
    for (let p = c.node; p > 0; below = p, p = tree.parent[p]) {
      const m = tree.method[p];
      path.push(m);
      // the line of p's call into the frame below it in this chain (0 or absent: not recorded)
      const line = below >= 0 && tree.entryLine?.[below] ? tree.entryLine[below] : undefined;
      let n = level.find((x) => x.method === m);
      if (!n) level.push((n = { method: m, path: path.slice(), ...(line !== undefined ? { line } : {}), allocations: 0, bytes: 0, children: [] }));
      else if (n.line !== line) delete n.line;
      n.allocations += c.allocations;
      n.bytes += c.bytes;
      level = n.children;
    }
  }
  const other: HotMetric = metric === 'bytes' ? 'allocations' : 'bytes';
  const sort = (list: BackTraceNode[]): void => {
    list.sort((a, b) => value(b, metric) - value(a, metric) || value(b, other) - value(a, other) || a.method - b.method);
    for (const n of list) sort(n.children);
  };
  sort(top);
  return top;
}
