// `heaplens diff` output: a readable table of the largest increases and decreases, or JSON for tools.
import { decreases, DiffRow, DiffTable, increases } from './diff-table';
import { METRIC_LABELS } from '../../core/views/frames';
import { num } from '../../core/format';
import { append, dateTime, table } from './text-table';
import { Profile } from '../../core/profile/types';

export interface DiffSideInfo {
  /** the file name as given on the command line */
  name: string;
  profile: Profile;
}

const BY_TITLE = { method: 'method (inclusive, all contexts and threads)', site: 'allocation site', type: 'allocated type' };
const KEY_HEADER = { method: 'method', site: 'site', type: 'type' };

/** +1,234 / -56 / 0 */
export function signed(n: number): string {
  return n > 0 ? `+${num(n)}` : n < 0 ? `-${num(-n)}` : '0';
}

/** +12.5% / -100.0% / new (the row did not exist before) */
export function relative(r: Pick<DiffRow, 'relative' | 'before' | 'after'>): string {
  if (r.relative === null) return r.after === 0 ? '' : 'new';
  const p = r.relative * 100;
  return `${p > 0 ? '+' : ''}${p.toFixed(Math.abs(p) >= 0.1 || p === 0 ? 1 : 3)}%`;
}

function describe(s: DiffSideInfo): string {
  const m = s.profile.file.meta;
  const jvm = m.jvm ? `${m.jvm.name ?? 'JVM'} ${m.jvm.version ?? '?'}` : 'JVM ?';
  return `${s.name} (${jvm}, written ${dateTime(m.writeTime)})`;
}

function rowsTable(t: DiffTable, rows: DiffRow[]): string[] {
  const site = t.by === 'site';
  const headers = ['change', 'relative', 'before', 'after', KEY_HEADER[t.by], ...(site ? ['type'] : [])];
  return table(headers, rows.map((r) => [
    signed(r.delta), relative(r), num(r.before), num(r.after), r.label, ...(site ? [r.type ?? ''] : []),
  ]), ['r', 'r', 'r', 'r', 'l', 'l']);
}

/** The text table: header, totals, largest increases, largest decreases, a count of unchanged rows. */
export function diffText(t: DiffTable, before: DiffSideInfo, after: DiffSideInfo, top: number): string {
  const label = METRIC_LABELS[t.metric];
  const out: string[] = [];
  out.push(`HeapLens diff: ${label} by ${BY_TITLE[t.by]}`);
  out.push(`before: ${describe(before)}`);
  out.push(`after:  ${describe(after)}`);
  const total = { before: t.totalBefore, after: t.totalAfter, relative: t.totalBefore === 0 ? null : (t.totalAfter - t.totalBefore) / t.totalBefore };
  const rel = relative(total);
  out.push(`total ${label}: ${num(t.totalBefore)} -> ${num(t.totalAfter)} (${signed(t.totalAfter - t.totalBefore)}${rel ? `, ${rel}` : ''})`);
  const section = (title: string, rows: DiffRow[], all: number): void => {
    out.push('', `${title}${rows.length < all ? ` (top ${rows.length} of ${all})` : ''}`);
    if (rows.length === 0) out.push('(none)');
    else append(out, rowsTable(t, rows));
  };
  const up = increases(t, top);
  const down = decreases(t, top);
  section('Largest increases', up, increases(t, 0).length);
  section('Largest decreases', down, decreases(t, 0).length);
  out.push('', `${num(t.changed.length)} ${KEY_HEADER[t.by]}s changed, ${num(t.unchanged)} unchanged.`);
  if (t.metric === 'bytes') out.push('Byte figures are estimates from each JVM\'s object layout; counts are exact.');
  return out.join('\n') + '\n';
}

function sideJson(s: DiffSideInfo, total: number): Record<string, unknown> {
  const m = s.profile.file.meta;
  return { file: s.name, jvm: m.jvm?.version ?? null, writeTime: m.writeTime, total };
}

/** The JSON document (`--format json`): every field a tool needs, `relative` null for new rows. */
export function diffJson(t: DiffTable, before: DiffSideInfo, after: DiffSideInfo, top: number): Record<string, unknown> {
  const plain = (r: DiffRow): Record<string, unknown> => ({
    key: r.key, label: r.label, ...(r.type !== undefined ? { type: r.type } : {}),
    before: r.before, after: r.after, delta: r.delta, relative: r.relative,
  });
  return {
    format: 'heaplens-diff',
    version: 1,
    metric: t.metric,
    by: t.by,
    before: sideJson(before, t.totalBefore),
    after: sideJson(after, t.totalAfter),
    delta: t.totalAfter - t.totalBefore,
    increases: increases(t, top).map(plain),
    decreases: decreases(t, top).map(plain),
    changed: t.changed.length,
    unchanged: t.unchanged,
  };
}
