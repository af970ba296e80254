// hprof `heap=sites`-style table (Liang & Viswanathan 1999): one row per allocation site, allocated type and calling
// context, ranked by a metric, with self and accumulated shares of the total.
import { FrameTree, pathOf } from './frames';
import { shortClass } from '../profile/names';
import { MethodEntry, SiteEntry, TypeEntry } from '../profile/types';

/** count: instances (objects and arrays, as hprof counts them); bytes: estimated bytes. */
export type SiteMetric = 'count' | 'bytes';

export interface SiteRow {
  rank: number;
  /** objects (non-array type) or arrays (array type) */
  count: number;
  elements: number;
  bytes: number;
  /** the ranking metric's share of the total, and the running sum of shares up to this row */
  selfShare: number;
  accumShare: number;
  type: TypeEntry | undefined;
  site: SiteEntry | undefined;
  /** the method that holds the site (a JDK method when the JDK allocated on the context's behalf) */
  method: MethodEntry | undefined;
  /**
   * For an allocation made inside a JDK call: the line of that call in the context's own method (the line the editor
   * charges it to, docs/format.md) and the method the call invoked, when the agent named it
   */
  callLine?: number;
  callee?: MethodEntry;
  /** node index of the context in the tree, and its method path from the top */
  node: number;
  trace: number[];
  /**
   * The line of each trace frame: of its call into the next frame (0 where the profile does not say), the last
   * frame's the line charged (the call's for JDK work, else the site's own when the frame holds the site)
   */
  traceLines: number[];
}

export interface SiteTableInput {
  tree: FrameTree;
  types: ReadonlyMap<number, TypeEntry>;
  sites: ReadonlyMap<number, SiteEntry>;
  methods: ReadonlyMap<number, MethodEntry>;
}

function valueOf(row: Pick<SiteRow, 'count' | 'bytes'>, metric: SiteMetric): number {
  return metric === 'count' ? row.count : row.bytes;
}

/** All rows with a non-zero ranking value, ranked by it (ties: more bytes first, then tree order). */
export function siteTable(input: SiteTableInput, metric: SiteMetric): SiteRow[] {
  const { tree } = input;
  const rows: SiteRow[] = [];
  for (let i = 0; i < tree.n; i++) {
    const recs = tree.recs[i];
    if (!recs) continue;
    let trace: number[] | undefined;
    let lines: number[] | undefined;
    for (const rec of recs) {
      const [siteId, typeId, count, elements, bytes] = rec;
      const type = input.types.get(typeId);
      const site = input.sites.get(siteId);
      const row: SiteRow = {
        rank: 0, count, elements, bytes, selfShare: 0, accumShare: 0, type, site,
        method: site ? input.methods.get(site.method) : undefined, node: i, trace: (trace ??= pathOf(tree, i)),
        traceLines: (lines ??= callerLines(tree, i, trace.length)).slice(),
      };
      if (row.traceLines.length) {
        row.traceLines[row.traceLines.length - 1] = rec[5] || (site && site.method === tree.method[i] ? site.line ?? 0 : 0);
      }
      if (rec[5]) row.callLine = rec[5];
      if (rec[5] && rec[6] !== undefined) row.callee = input.methods.get(rec[6]);
      if (valueOf(row, metric) > 0) rows.push(row);
    }
  }
  rows.sort((a, b) => valueOf(b, metric) - valueOf(a, metric) || b.bytes - a.bytes || a.node - b.node);
  const total = rows.reduce((s, r) => s + valueOf(r, metric), 0);
  let acc = 0;
  rows.forEach((r, k) => {
    r.rank = k + 1;
    r.selfShare = total > 0 ? valueOf(r, metric) / total : 0;
    acc += r.selfShare;
    r.accumShare = acc;
  });
  return rows;
}

/** Lines of the `frames` frames ending at node i: each frame's call into the next one (the child's entry line). */
function callerLines(tree: FrameTree, i: number, frames: number): number[] {
  const out = new Array<number>(frames).fill(0);
  const entry = tree.entryLine;
  for (let j = i, k = frames - 1; k > 0 && j > 0; j = tree.parent[j], k--) out[k - 1] = entry ? entry[j] : 0;
  return out;
}

/** Case-insensitive filter over type, site method and calling trace names. */
export function filterRows(rows: readonly SiteRow[], query: string, methods: ReadonlyMap<number, MethodEntry>): SiteRow[] {
  const q = query.trim().toLowerCase();
  if (!q) return rows.slice();
  return rows.filter((r) => {
    if (r.type?.name.toLowerCase().includes(q)) return true;
    if (r.method && `${r.method.class}.${r.method.name}`.toLowerCase().includes(q)) return true;
    return r.trace.some((m) => {
      const e = methods.get(m);
      return e !== undefined && `${e.class}.${e.name}`.toLowerCase().includes(q);
    });
  });
}

/**
 * Where a row's allocation happened, as a Java developer reads it: `Main.parse:40 › String.split ›
 * Arrays.copyOfRange:3822` for JDK work on behalf of a line (the context's line, the call it made, the JDK site),
 * `Main.parse:41` for an allocation of the line itself.
 */
export function siteWhere(row: Pick<SiteRow, 'callLine' | 'callee' | 'method' | 'site' | 'trace'>, methods: ReadonlyMap<number, MethodEntry>): string {
  const at = (m: MethodEntry | undefined, line: number | undefined): string => (m ? `${shortClass(m.class)}.${m.name}${line !== undefined ? `:${line}` : ''}` : '?');
  const own = at(row.method, row.site?.line);
  if (row.callLine === undefined) return own;
  const context = methods.get(row.trace[row.trace.length - 1]);
  const here = at(context, row.callLine);
  if (!row.callee || row.callee.id === row.method?.id) return `${here} › ${own}`;
  return `${here} › ${at(row.callee, undefined)} › ${own}`;
}
