// Memory accounts (Bouché et al. 2009): per account its allocated and live memory with the per-class breakdown, live bytes
// per account over the snapshots, the leak suspects with their evidence, and a diff between two snapshots.
import { scaleLinear, scaleOrdinal } from 'd3-scale';
import { schemeTableau10 } from 'd3-scale-chromatic';
import { select } from 'd3-selection';
import {
  AccountDelta, AccountRow, Accounts, accountTotals, AccountTotal, LeakSuspect, leakSuspects, livenessLabel, snapshotDiff,
  suspectEvidence,
} from '../../core/views/accounts';
import { bytes, num, signed } from '../../core/format';
import { AppContext } from '../context';
import { button, clear, el, select as selectBox } from './dom';
import { Column, renderTable } from './table';
import { ToolbarView } from './toolbar-view';

const SVG = 'http://www.w3.org/2000/svg';

/** "1,216 (1,050–1,380)" for an estimate with its 95 % interval; the count alone when it is exact. */
function liveCount(r: { liveObjects?: number; liveLow?: number; liveHigh?: number }): string {
  const v = r.liveObjects ?? 0;
  if (r.liveLow === undefined || r.liveHigh === undefined || (r.liveLow === v && r.liveHigh === v)) return num(v);
  return `${num(v)} (${num(r.liveLow)}–${num(r.liveHigh)})`;
}
const LIVE_TITLE = 'live objects; a sampled estimate shows its 95 % interval in brackets';

/** A stable colour per account (the flame tree's "colour by account" uses the same). */
export function accountColor(a: Accounts): (name: string) => string {
  const scale = scaleOrdinal<string, string>().domain(a.names).range(schemeTableau10);
  return (name) => scale(name);
}

export class AccountsView extends ToolbarView {
  private readonly note = el('p', { class: 'muted accounts-note' });
  private readonly totals = el('div', { class: 'table-wrap compact' });
  private readonly classes = el('div', { class: 'table-wrap' });
  private readonly classesTitle = el('h2', {});
  private readonly chart = el('div', { class: 'chart accounts-chart' });
  private readonly suspects = el('div', { class: 'table-wrap' });
  private readonly diff = el('div', { class: 'table-wrap' });
  private readonly diffTitle = el('h2', {});
  private readonly empty = el('p', { class: 'muted' });
  private readonly body: HTMLElement;
  private cache?: { file: unknown; accounts?: Accounts; suspects: LeakSuspect[] };

  constructor() {
    super('accounts', 'Memory accounts', 'Accounts options');
    this.body = el('div', {}, this.note, el('h2', {}, 'Accounts'), this.totals, this.classesTitle, this.classes,
      el('h2', {}, 'Live bytes per account'), this.chart, el('h2', {}, 'Leak suspects'), this.suspects, this.diffTitle, this.diff);
    this.root.append(this.empty, this.body);
  }

  render(ctx: AppContext): void {
    const file = ctx.data.file;
    if (this.cache?.file !== file) {
      const accounts = ctx.data.accounts();
      this.cache = { file, accounts, suspects: accounts ? leakSuspects(accounts) : [] };
    }
    const a = this.cache.accounts;
    clear(this.bar);
    this.empty.hidden = !!a?.snapshots.length;
    this.body.hidden = !a?.snapshots.length;
    if (!a || a.snapshots.length === 0) {
      this.empty.textContent = a
        ? 'No accounts snapshot yet: the first one is taken after the snapshot interval (or use Snapshot).'
        : 'This profile has no memory accounts. Launch with "accounts": ["com.acme.web.*", …] (or heaplens run --accounts …).';
      return;
    }
    const s = ctx.state;
    const last = a.snapshots.length - 1;
    const at = s.accountsSnapshot >= 0 && s.accountsSnapshot <= last ? s.accountsSnapshot : last;
    const from = s.accountsFrom >= 0 && s.accountsFrom <= last ? s.accountsFrom : 0;
    const snapOptions = a.snapshots.map((x, i): [string, string] =>
      [String(i), `#${x.seq} ${x.reason}${x.gc ? ' after GC' : ''} +${((x.time - a.snapshots[0].time) / 1000).toFixed(1)} s`]);
    this.bar.append(
      selectBox('Snapshot', snapOptions, String(at), (v) => ctx.update({ accountsSnapshot: Number(v) })),
      selectBox('Diff from', snapOptions, String(from), (v) => ctx.update({ accountsFrom: Number(v) })),
    );
    if (ctx.hostKind === 'vscode' && ctx.live) {
      this.bar.append(button('Snapshot after GC', 'device-camera', () => ctx.post({ type: 'snapshot', gc: true }),
        'Take an accounts snapshot now, after a full garbage collection'));
    }
    const live = a.liveness.kind !== 'off';
    this.note.textContent = `Live counts: ${livenessLabel(a)}. ${a.snapshots.length} snapshot(s); ${a.snapshots[at].gcs} garbage collections `
      + `by snapshot #${a.snapshots[at].seq}. Allocations are charged to the innermost accounted method on the stack; byte figures are estimates.`;
    const totals = accountTotals(a, a.snapshots[at]);
    const color = accountColor(a);
    const chosen = totals.find((t) => t.account === s.account) ?? totals[0];
    this.renderTotals(ctx, totals, chosen, live, color);
    this.classesTitle.textContent = `Classes in ${chosen.account}`;
    this.renderClasses(chosen.rows, live);
    this.renderChart(a, color);
    this.renderSuspects(ctx, this.cache.suspects);
    this.diffTitle.textContent = `Snapshot diff: #${a.snapshots[from].seq} → #${a.snapshots[at].seq} (${live ? 'live' : 'allocated'})`;
    this.renderDiff(snapshotDiff(a, a.snapshots[from], a.snapshots[at]));
  }

  private renderTotals(ctx: AppContext, totals: AccountTotal[], chosen: AccountTotal, live: boolean, color: (n: string) => string): void {
    const swatch = (name: string): HTMLElement => {
      const sw = el('span', { class: 'swatch', 'aria-hidden': 'true' });
      sw.style.background = color(name);
      return el('span', {}, sw, name);
    };
    const cols: Array<Column<AccountTotal>> = [
      { key: 'account', label: 'account', wide: true, cell: (r) => swatch(r.account), title: (r) => r.account },
      { key: 'ao', label: 'allocated objects', numeric: true, cell: (r) => num(r.allocatedObjects) },
      { key: 'ab', label: 'allocated bytes', numeric: true, cell: (r) => bytes(r.allocatedBytes) },
    ];
    if (live) {
      cols.push({ key: 'lo', label: 'live objects', numeric: true, cell: liveCount, title: () => LIVE_TITLE },
        { key: 'lb', label: 'live bytes', numeric: true, cell: (r) => bytes(r.liveBytes ?? 0) });
    }
    cols.push({ key: 'classes', label: 'classes', numeric: true, cell: (r) => num(r.rows.length) });
    renderTable(this.totals, totals, cols, {
      caption: 'Accounts', onActivate: (r) => ctx.update({ account: r.account }), isSelected: (r) => r === chosen,
    });
  }

  private renderClasses(rows: AccountRow[], live: boolean): void {
    const cols: Array<Column<AccountRow>> = [
      { key: 'cls', label: 'class', wide: true, cell: (r) => r.cls },
      { key: 'ao', label: 'allocated objects', numeric: true, cell: (r) => num(r.allocatedObjects) },
      { key: 'ab', label: 'allocated bytes', numeric: true, cell: (r) => bytes(r.allocatedBytes) },
    ];
    if (live) {
      cols.push({ key: 'lo', label: 'live objects', numeric: true, cell: liveCount, title: () => LIVE_TITLE },
        { key: 'lb', label: 'live bytes', numeric: true, cell: (r) => bytes(r.liveBytes ?? 0) },
        { key: 'gen', label: 'max GCs survived', numeric: true, cell: (r) => num(r.maxGenerations ?? 0) });
    }
    renderTable(this.classes, rows, cols, { caption: 'Classes of the account', limit: 200 });
  }

  /** One line per account: live bytes (allocated bytes when liveness is off) at each snapshot. */
  private renderChart(a: Accounts, color: (n: string) => string): void {
    clear(this.chart);
    const live = a.liveness.kind !== 'off';
    const series = a.names.map((name) => ({
      name, points: a.snapshots.map((s) => {
        const t = accountTotals(a, s).find((x) => x.account === name)!;
        return { t: (s.time - a.snapshots[0].time) / 1000, v: live ? t.liveBytes ?? 0 : t.allocatedBytes };
      }),
    }));
    const W = 640, H = 200, L = 70, R = 150, T = 10, B = 28;
    const maxT = Math.max(1e-3, ...series.flatMap((s) => s.points.map((p) => p.t)));
    const maxV = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.v)));
    const x = scaleLinear().domain([0, maxT]).range([L, W - R]);
    const y = scaleLinear().domain([0, maxV]).nice().range([H - B, T]);
    const svg = select(this.chart).append('svg').attr('viewBox', `0 0 ${W} ${H}`).attr('role', 'img')
      .attr('aria-label', `${live ? 'Live' : 'Allocated'} bytes per account over time`).attr('class', 'accounts-svg');
    for (const v of y.ticks(4)) {
      svg.append('line').attr('class', 'grid-line').attr('x1', L).attr('x2', W - R).attr('y1', y(v)).attr('y2', y(v));
      svg.append('text').attr('class', 'axis').attr('x', L - 6).attr('y', y(v) + 4).attr('text-anchor', 'end').text(bytes(v));
    }
    for (const v of x.ticks(6)) {
      svg.append('text').attr('class', 'axis').attr('x', x(v)).attr('y', H - 8).attr('text-anchor', 'middle').text(`${v}s`);
    }
    series.forEach((s, i) => {
      const d = s.points.map((p, k) => `${k ? 'L' : 'M'}${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join('');
      svg.append('path').attr('d', d).attr('fill', 'none').attr('stroke', color(s.name)).attr('stroke-width', 2);
      for (const p of s.points) svg.append('circle').attr('cx', x(p.t)).attr('cy', y(p.v)).attr('r', 2.5).attr('fill', color(s.name));
      const ly = T + 14 + i * 16;
      svg.append('rect').attr('x', W - R + 10).attr('y', ly - 9).attr('width', 10).attr('height', 10).attr('fill', color(s.name));
      svg.append('text').attr('class', 'legend').attr('x', W - R + 24).attr('y', ly).text(s.name);
    });
    const svgNode = svg.node();
    if (svgNode) svgNode.setAttribute('xmlns', SVG);
  }

  private renderSuspects(ctx: AppContext, suspects: LeakSuspect[]): void {
    if (suspects.length === 0) {
      this.suspects.replaceChildren(el('p', { class: 'muted' },
        'No class keeps rising across the snapshots (a suspect needs live objects that survived a GC growing in both halves of the series).'));
      return;
    }
    const cols: Array<Column<LeakSuspect>> = [
      { key: 'account', label: 'account', clip: true, cell: (r) => r.account },
      { key: 'cls', label: 'class', wide: true, cell: (r) => r.cls },
      { key: 'lo', label: 'live objects', numeric: true, cell: (r) => num(r.liveObjects) },
      { key: 'growth', label: 'growth', numeric: true, cell: (r) => `${signed(r.growthObjects)} (${signed(r.growthBytes, 'bytes')})` },
      { key: 'gen', label: 'GCs survived', numeric: true, cell: (r) => num(r.maxGenerations), title: () => 'the most garbage collections a live object of this class survived' },
      { key: 'evidence', label: 'evidence', cell: suspectEvidence, title: () => 'steps between snapshots where the objects that survived a GC rose or fell' },
      { key: 'series', label: 'live objects per snapshot', clip: true, cell: (r) => r.series.map(num).join(' → ') },
      {
        key: 'why', label: '', cell: (r) => button('Why is it still alive?', 'search', (e) => {
          e.stopPropagation();
          ctx.post({ type: 'whyAlive', className: r.cls });
        }, `Find what keeps ${r.cls} objects reachable (heap retention)`),
      },
    ];
    renderTable(this.suspects, suspects, cols, { caption: 'Leak suspects', limit: 50 });
  }

  private renderDiff(rows: AccountDelta[]): void {
    if (rows.length === 0) {
      this.diff.replaceChildren(el('p', { class: 'muted' }, 'No change between these snapshots.'));
      return;
    }
    const cols: Array<Column<AccountDelta>> = [
      { key: 'account', label: 'account', clip: true, cell: (r) => r.account },
      { key: 'cls', label: 'class', wide: true, cell: (r) => r.cls },
      { key: 'objects', label: 'objects', numeric: true, cell: (r) => signed(r.objects) },
      { key: 'bytes', label: 'bytes', numeric: true, cell: (r) => signed(r.bytes, 'bytes') },
    ];
    renderTable(this.diff, rows, cols, { caption: 'Snapshot diff', limit: 100 });
  }
}
