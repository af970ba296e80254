// Per-line totals for the editor's hot allocation lines: every allocation record is placed on the source
// line of its site (site → method → class → file), summed over contexts and threads, with the breakdown by
// allocated type and the calling contexts that allocate the most there. No `vscode` import.
import { addRecord, cmp, Totals, TypeTotals, zeroTotals } from './aggregate';
import { childrenOf, mergeThreads, recordsOf } from './mct';
import { packageOf } from './names';
import { MctNode, MethodEntry, Profile, SiteEntry } from './types';

/** How lines are ranked: count = objects + arrays (exact), bytes = estimated bytes. */
export type LineMetric = 'count' | 'bytes';

export interface LineContext {
  /** method ids from the top of the (all-threads) tree down to the node that holds the records */
  path: number[];
  count: number;
  bytes: number;
}

export interface LineTotals {
  /** the source path as the class file names it: package directories + file (`demo/WordIndex.java`) */
  source: string;
  /** 1-based source line */
  line: number;
  totals: Totals;
  /** objects + arrays */
  count: number;
  /** by allocated type, most allocations first */
  types: TypeTotals[];
  /** the allocation sites on this line, and the methods that hold them */
  sites: number[];
  methods: number[];
  /** the top calling contexts (see totalsByLine's `contexts`) */
  contexts: LineContext[];
}

/** `demo/WordIndex.java` for a method of `demo.WordIndex$Entry` compiled from WordIndex.java; undefined without a file. */
export function sourcePathOf(m: Pick<MethodEntry, 'class' | 'file'>): string | undefined {
  if (!m.file) return undefined;
  const pkg = packageOf(m.class);
  return pkg ? `${pkg.replace(/\./g, '/')}/${m.file}` : m.file;
}

export function lineValue(l: Pick<LineTotals, 'count' | 'totals'>, metric: LineMetric): number {
  return metric === 'count' ? l.count : l.totals.bytes;
}

export interface LineOptions {
  /** which sites count (e.g. only the application's); all by default */
  include?: (site: SiteEntry, method: MethodEntry) => boolean;
  /** how many calling contexts to keep per line (default 5), ranked by `metric` */
  contexts?: number;
  metric?: LineMetric;
  /** the tree to read (default: the merge of all threads) */
  root?: MctNode;
}

interface Acc {
  line: LineTotals;
  byType: Map<number, TypeTotals>;
  nodes: Map<MctNode, { count: number; bytes: number }>;
}

/** Every line that allocated, unsorted. Records of sites without a line or a source file are left out. */
export function totalsByLine(profile: Profile, opts: LineOptions = {}): LineTotals[] {
  const root = opts.root ?? mergeThreads(profile);
  const metric = opts.metric ?? 'count';
  const keep = opts.contexts ?? 5;
  const parent = new Map<MctNode, MctNode>();
  const bySite = new Map<number, Acc | null>();
  const byKey = new Map<string, Acc>();
  const accOf = (siteId: number): Acc | null => {
    let acc = bySite.get(siteId);
    if (acc !== undefined) return acc;
    acc = null;
    const site = profile.sites.get(siteId);
    const method = site ? profile.methods.get(site.method) : undefined;
    const source = method ? sourcePathOf(method) : undefined;
    if (site && method && source && site.line !== undefined && (!opts.include || opts.include(site, method))) {
      const key = `${source}:${site.line}`;
      acc = byKey.get(key) ?? null;
      if (!acc) {
        acc = {
          line: { source, line: site.line, totals: zeroTotals(), count: 0, types: [], sites: [], methods: [], contexts: [] },
          byType: new Map(), nodes: new Map(),
        };
        byKey.set(key, acc);
      }
      acc.line.sites.push(site.id);
      if (!acc.line.methods.includes(method.id)) acc.line.methods.push(method.id);
    }
    bySite.set(siteId, acc);
    return acc;
  };
  const stack: MctNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const rec of recordsOf(node)) {
      const acc = accOf(rec[0]);
      const type = profile.types.get(rec[1]);
      if (!acc || !type) continue;
      addRecord(acc.line.totals, type, rec);
      acc.line.count += rec[2];
      let tt = acc.byType.get(type.id);
      if (!tt) acc.byType.set(type.id, (tt = { type, count: 0, elements: 0, bytes: 0 }));
      tt.count += rec[2];
      tt.elements += rec[3];
      tt.bytes += rec[4];
      const at = acc.nodes.get(node) ?? { count: 0, bytes: 0 };
      at.count += rec[2];
      at.bytes += rec[4];
      acc.nodes.set(node, at);
    }
    for (const kid of childrenOf(node)) {
      parent.set(kid, node);
      stack.push(kid);
    }
  }
  const out: LineTotals[] = [];
  for (const acc of byKey.values()) {
    acc.line.types = [...acc.byType.values()].sort((a, b) => b.count - a.count || b.bytes - a.bytes || cmp(a.type.name, b.type.name));
    const nodes = [...acc.nodes].sort((a, b) => (metric === 'count' ? b[1].count - a[1].count : b[1].bytes - a[1].bytes)
      || b[1].bytes - a[1].bytes);
    acc.line.contexts = nodes.slice(0, keep).map(([node, v]) => {
      const path: number[] = [];
      for (let n: MctNode | undefined = node; n; n = parent.get(n)) if (n.m !== undefined) path.unshift(n.m);
      return { path, count: v.count, bytes: v.bytes };
    });
    out.push(acc.line);
  }
  return out;
}

/** The `limit` lines with the largest metric (non-zero only), ties broken by source then line. */
export function topLines(lines: readonly LineTotals[], metric: LineMetric, limit: number): LineTotals[] {
  return lines.filter((l) => lineValue(l, metric) > 0)
    .sort((a, b) => lineValue(b, metric) - lineValue(a, metric) || cmp(a.source, b.source) || a.line - b.line)
    .slice(0, Math.max(0, limit));
}
