// Per-line totals for the editor's hot allocation lines: every allocation is placed on the line of the innermost
// profiled frame that caused it: its site's own line when that frame allocated itself, else the line of the call
// it was inside (the record's `line`, docs/format.md: a `split()` line owns the arrays String.split made). Summed
// over contexts and threads, with the breakdown by allocated type, the JDK methods that allocated on the line's
// behalf ("inside"), and the calling contexts that allocate the most there. No `vscode` import.
import { addRecord, cmp, Totals, TypeTotals, zeroTotals } from './aggregate';
import { mergeThreads, recordsOf, walk } from '../profile/mct';
import { isJdkClass, packageOf } from '../profile/names';
import { AllocRecord, MctNode, MethodEntry, Profile, SiteEntry, TypeEntry } from '../profile/types';

/** How lines are ranked: count = allocations (objects + arrays, exact), bytes = estimated bytes. */
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
  /** the allocation sites charged to this line (JDK sites of its calls included), and the methods the line is in */
  sites: number[];
  methods: number[];
  /** what code without a node of its own allocated for this line's calls, by the method holding the site, most first */
  inside: InsideTotals[];
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

/** Allocations a line's calls made inside one JDK (or other unprofiled) method it called: one level down from the line. */
export interface InsideTotals {
  method: number;
  count: number;
  bytes: number;
  types: TypeTotals[];
}

interface Ctx { count: number; bytes: number; path: number[] }

interface Acc {
  line: LineTotals;
  byType: Map<number, TypeTotals>;
  inside: Map<number, { totals: InsideTotals; byType: Map<number, TypeTotals> }>;
  /** the best contexts so far, best first (at most `keep`) */
  top: Ctx[];
}

/** Every line that allocated, unsorted. Records of sites without a line or a source file are left out. */
export function totalsByLine(profile: Profile, opts: LineOptions = {}): LineTotals[] {
  const root = opts.root ?? mergeThreads(profile);
  const metric = opts.metric ?? 'count';
  const keep = opts.contexts ?? 5;
  const byKey = new Map<string, Acc>();
  const accAt = (source: string, line: number, method: MethodEntry, site: number): Acc => {
    const key = `${source}:${line}`;
    let acc = byKey.get(key);
    if (!acc) {
      acc = {
        line: { source, line, totals: zeroTotals(), count: 0, types: [], sites: [], methods: [], inside: [], contexts: [] },
        byType: new Map(), inside: new Map(), top: [],
      };
      byKey.set(key, acc);
    }
    if (!acc.line.sites.includes(site)) acc.line.sites.push(site);
    if (!acc.line.methods.includes(method.id)) acc.line.methods.push(method.id);
    return acc;
  };
  // a record's line: its site's own (cached per site), or the call's line in the node's method (cached per node)
  const bySite = new Map<number, Acc | null>();
  const accOfSite = (siteId: number): Acc | null => {
    let acc = bySite.get(siteId);
    if (acc !== undefined) return acc;
    acc = null;
    const site = profile.sites.get(siteId);
    const method = site ? profile.methods.get(site.method) : undefined;
    const source = method ? sourcePathOf(method) : undefined;
    if (site && method && source && site.line !== undefined && (!opts.include || opts.include(site, method))) {
      acc = accAt(source, site.line, method, site.id);
    }
    bySite.set(siteId, acc);
    return acc;
  };
  const accOfCall = (node: MctNode, rec: AllocRecord): Acc | null => {
    const site = profile.sites.get(rec[0]);
    const method = node.m !== undefined ? profile.methods.get(node.m) : undefined;
    const source = method ? sourcePathOf(method) : undefined;
    if (!site || !method || !source || (opts.include && !opts.include(site, method))) return null;
    return accAt(source, rec[5], method, site.id);
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
      const acc = rec[5] ? accOfCall(node, rec) : accOfSite(rec[0]);
      const type = profile.types.get(rec[1]);
      if (!acc || !type) continue;
      addRecord(acc.line.totals, type, rec);
      acc.line.count += rec[2];
      addType(acc.byType, type, rec);
      if (rec[5]) {
        // one level down: the method the line called (the agent names it), else the JDK method holding the site
        const holder = rec[6] ?? profile.sites.get(rec[0])!.method;
        let inside = acc.inside.get(holder);
        if (!inside) acc.inside.set(holder, (inside = { totals: { method: holder, count: 0, bytes: 0, types: [] }, byType: new Map() }));
        inside.totals.count += rec[2];
        inside.totals.bytes += rec[4];
        addType(inside.byType, type, rec);
      }
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
    acc.line.types = sortTypes(acc.byType);
    acc.line.inside = [...acc.inside.values()].map((i) => ({ ...i.totals, types: sortTypes(i.byType) }))
      .sort((a, b) => b.count - a.count || b.bytes - a.bytes || a.method - b.method);
    acc.line.contexts = acc.top.map((c) => ({ path: c.path, count: c.count, bytes: c.bytes }));
    out.push(acc.line);
  }
  return out;
}

function addType(byType: Map<number, TypeTotals>, type: TypeEntry, rec: AllocRecord): void {
  let tt = byType.get(type.id);
  if (!tt) byType.set(type.id, (tt = { type, count: 0, elements: 0, bytes: 0 }));
  tt.count += rec[2];
  tt.elements += rec[3];
  tt.bytes += rec[4];
}

function sortTypes(byType: Map<number, TypeTotals>): TypeTotals[] {
  return [...byType.values()].sort((a, b) => b.count - a.count || b.bytes - a.bytes || cmp(a.type.name, b.type.name));
}

/** The `limit` lines with the largest metric (non-zero only), ties broken by source then line. */
export function topLines(lines: readonly LineTotals[], metric: LineMetric, limit: number): LineTotals[] {
  return lines.filter((l) => lineValue(l, metric) > 0)
    .sort((a, b) => lineValue(b, metric) - lineValue(a, metric) || cmp(a.source, b.source) || a.line - b.line)
    .slice(0, Math.max(0, limit));
}

/** Which lines compete for the hot-line marks: 'application' = lines in classes outside the JDK, 'all' = every line. */
export type LineScope = 'application' | 'all';

/**
 * The hot allocation lines as the editor marks them, hottest first: the one ranking the editor's marks, hovers
 * and `heaplens report --format lines` share.
 */
export function hotLines(profile: Profile, opts: { scope: LineScope; metric: LineMetric; limit: number; root?: MctNode }): LineTotals[] {
  const include = opts.scope === 'application' ? (_site: SiteEntry, m: MethodEntry) => !isJdkClass(m.class) : undefined;
  return topLines(totalsByLine(profile, { include, metric: opts.metric, root: opts.root }), opts.metric, opts.limit);
}

/**
 * `heaplens report --format lines`: one TSV row per line, `file line method allocations bytes` (allocations =
 * objects + arrays charged to the line, JDK work its calls caused included; bytes estimated). `method` is the
 * method the line is in (`Class.method`, binary class name); lines in several methods (lambdas) name them all.
 */
export function linesTsv(profile: Profile, lines: readonly LineTotals[]): string {
  const clean = (s: string): string => s.replace(/[\t\r\n]/g, ' ');
  const rows = ['file\tline\tmethod\tallocations\tbytes'];
  for (const l of lines) {
    const methods = l.methods.map((id) => profile.methods.get(id)).filter((m): m is MethodEntry => !!m)
      .map((m) => `${m.class}.${m.name}`);
    rows.push([clean(l.source), l.line, clean([...new Set(methods)].join(',')), l.count, l.totals.bytes].join('\t'));
  }
  return rows.join('\n') + '\n';
}
