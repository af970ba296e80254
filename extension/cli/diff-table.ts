// `heaplens diff`: two profiles compared by method (inclusive, merged over calling contexts), by allocation
// site or by allocated type. Built on diffTrees (diff.ts), the computation the webview's Diff view uses, over
// the all-threads merge of each profile, so the CLI and the view agree on every number.
import { Metric } from '../../core/views/aggregate';
import { diffTrees, DiffTree, methodKey } from '../../core/views/diff';
import { mergeThreads } from '../../core/profile/mct';
import { Profile } from '../../core/profile/types';

export type DiffBy = 'method' | 'site' | 'type';
export const DIFF_BY: readonly DiffBy[] = ['method', 'site', 'type'];

export interface DiffRow {
  /** identity across profiles: `class.method(desc)`, `class.method:line TYPE`, or the type name */
  key: string;
  /** what to show: `class.method` (with the descriptor only when overloads would look alike), the site, the type */
  label: string;
  /** the allocated type (rows by site only) */
  type?: string;
  before: number;
  after: number;
  delta: number;
  /** delta / before; null when before is 0 (a new row) */
  relative: number | null;
}

export interface DiffTable {
  metric: Metric;
  by: DiffBy;
  /** whole-profile totals of the metric */
  totalBefore: number;
  totalAfter: number;
  /** rows whose value changed, largest increase first, largest decrease last */
  changed: DiffRow[];
  /** rows present in either profile with the same value in both */
  unchanged: number;
}

function row(key: string, label: string, before: number, after: number, type?: string): DiffRow {
  const delta = after - before;
  return { key, label, ...(type !== undefined ? { type } : {}), before, after, delta, relative: before === 0 ? null : delta / before };
}

/**
 * Inclusive values per method: for every context of a method, its subtree total; a context below another
 * context of the same method (recursion) is not added again, so every allocation counts at most once per method.
 */
export function methodRows(d: DiffTree, metric: Metric): DiffRow[] {
  const { tree } = d;
  const sums = new Map<number, { before: number; after: number }>();
  const onPath = new Map<number, number>();
  const open: number[] = [];
  for (let i = 1; i < tree.n; i++) {
    while (open.length > 0 && i >= tree.end[open[open.length - 1]]) {
      const done = tree.method[open.pop() as number];
      onPath.set(done, (onPath.get(done) ?? 1) - 1);
    }
    const m = tree.method[i];
    if (!onPath.get(m)) {
      let s = sums.get(m);
      if (!s) sums.set(m, (s = { before: 0, after: 0 }));
      s.before += d.before.total[metric][i];
      s.after += d.after.total[metric][i];
    }
    onPath.set(m, (onPath.get(m) ?? 0) + 1);
    open.push(i);
  }
  const short = new Map<string, number>();
  for (const id of sums.keys()) {
    const m = d.methods.get(id);
    if (m) short.set(`${m.class}.${m.name}`, (short.get(`${m.class}.${m.name}`) ?? 0) + 1);
  }
  return [...sums].map(([id, s]) => {
    const m = d.methods.get(id);
    if (!m) return row(`?${id}`, `?${id}`, s.before, s.after);
    const name = `${m.class}.${m.name}`;
    return row(methodKey(m), (short.get(name) ?? 0) > 1 ? `${name}${m.desc}` : name, s.before, s.after);
  });
}

/**
 * Ties between equal changes: the row with the smaller values first. By method, a change made in a leaf shows
 * the same delta in every caller up to main; the smallest of them is the method where it happened.
 */
function byFocus(a: DiffRow, b: DiffRow): number {
  return a.before + a.after - (b.before + b.after) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** Compares `before` with `after` (all threads merged). */
export function diffTable(before: Profile, after: Profile, metric: Metric, by: DiffBy): DiffTable {
  const side = (p: Profile) => ({ root: mergeThreads(p), methods: p.methods, types: p.types, sites: p.sites });
  const d = diffTrees(side(before), side(after));
  let rows: DiffRow[];
  switch (by) {
    case 'method':
      rows = methodRows(d, metric);
      break;
    case 'type':
      rows = d.types.map((t) => row(t.name, t.name, t.before[metric], t.after[metric]));
      break;
    case 'site':
      rows = d.sites.map((s) => row(`${s.site} ${s.type}`, s.site, s.before[metric], s.after[metric], s.type));
      break;
  }
  const present = rows.filter((r) => r.before !== 0 || r.after !== 0);
  const changed = present.filter((r) => r.delta !== 0);
  changed.sort((a, b) => b.delta - a.delta || byFocus(a, b));
  return {
    metric, by, totalBefore: d.before.total[metric][0], totalAfter: d.after.total[metric][0],
    changed, unchanged: present.length - changed.length,
  };
}

/** The `top` largest increases, largest first (all when `top` is 0). */
export function increases(t: DiffTable, top: number): DiffRow[] {
  const up = t.changed.filter((r) => r.delta > 0);
  return top > 0 ? up.slice(0, top) : up;
}

/** The `top` largest decreases, largest (most negative) first (all when `top` is 0). */
export function decreases(t: DiffTable, top: number): DiffRow[] {
  const down = t.changed.filter((r) => r.delta < 0).sort((a, b) => a.delta - b.delta || byFocus(a, b));
  return top > 0 ? down.slice(0, top) : down;
}
