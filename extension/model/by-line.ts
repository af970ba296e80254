// Per-line totals for the editor's hot allocation lines: every allocation record is placed on the source
// line of its site (site → method → class → file), summed over contexts and threads, with the breakdown by
// allocated type and the calling contexts that allocate the most there. No `vscode` import.
import { addRecord, cmp, Totals, TypeTotals, zeroTotals } from './aggregate';
import { mergeThreads, recordsOf, walk } from './mct';
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

interface Ctx { count: number; bytes: number; path: number[] }

interface Acc {
  line: LineTotals;
  byType: Map<number, TypeTotals>;
  /** the best contexts so far, best first (at most `keep`) */
  top: Ctx[];
}

/** Every line that allocated, unsorted. Records of sites without a line or a source file are left out. */
export function totalsByLine(profile: Profile, opts: LineOptions = {}): LineTotals[] {
  const root = opts.root ?? mergeThreads(profile);
  const metric = opts.metric ?? 'count';
  const keep = opts.contexts ?? 5;
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
          byType: new Map(), top: [],
        };
        byKey.set(key, acc);
      }
      acc.line.sites.push(site.id);
      if (!acc.line.methods.includes(method.id)) acc.line.methods.push(method.id);
    }
    bySite.set(siteId, acc);
    return acc;
  };
  const better = (a: { count: number; bytes: number }, b: { count: number; bytes: number }): boolean =>
    metric === 'count' ? a.count > b.count || (a.count === b.count && a.bytes > b.bytes) : a.bytes > b.bytes || (a.bytes === b.bytes && a.count > b.count);
  // per node: the lines its records fall on (a node's records rarely span more than a few lines)
  const here = new Map<Acc, { count: number; bytes: number }>();
  walk(root, (node, path) => {
    const recs = recordsOf(node);
    if (recs.length === 0) return;
    here.clear();
    for (const rec of recs) {
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
      const at = here.get(acc);
      if (at) {
        at.count += rec[2];
        at.bytes += rec[4];
      } else {
        here.set(acc, { count: rec[2], bytes: rec[4] });
      }
    }
    for (const [acc, v] of here) {
      const top = acc.top;
      if (keep <= 0 || (top.length >= keep && !better(v, top[top.length - 1]))) continue;
      const ctx: Ctx = { count: v.count, bytes: v.bytes, path: path.map((n) => n.m!).filter((m) => m !== undefined) };
      let i = top.length;
      while (i > 0 && better(v, top[i - 1])) i--;
      top.splice(i, 0, ctx);
      if (top.length > keep) top.pop();
    }
  });
  const out: LineTotals[] = [];
  for (const acc of byKey.values()) {
    acc.line.types = [...acc.byType.values()].sort((a, b) => b.count - a.count || b.bytes - a.bytes || cmp(a.type.name, b.type.name));
    acc.line.contexts = acc.top.map((c) => ({ path: c.path, count: c.count, bytes: c.bytes }));
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
