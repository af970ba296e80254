// Lifetimes (Pan 2001 (HUP)): the heap over allocation time split into in-use, lag, drag and void (HUP Figure 5),
// HUP's `stat`, and its `lag|drag|void class|method|nested` queries as a table; a selected row drills down to its
// lifetime patterns (first-use trace, last-use site) and a representative object's traces. Rows open the source.
import { scaleLinear } from 'd3-scale';
import { select as d3select } from 'd3-selection';
import {
  frameText, LifetimeGrouping, LifetimePattern, LifetimeRow, LifetimeSection, lifetimeRows, lifetimeStat, lifetimesOf,
  SpaceKind, sortRows, traceFrames, TraceFrame, useSiteText,
  precisionRuleText,
} from '../../core/views/lifetimes';
import { bytes, num, percent } from '../../core/format';
import { AppContext } from '../context';
import { clear, el, select as selectBox } from './dom';
import { Column, renderTable } from './table';
import { ToolbarView } from './toolbar-view';

const SERIES: ReadonlyArray<{ key: 'inUse' | 'lag' | 'drag' | 'void'; label: string; cls: string }> = [
  { key: 'inUse', label: 'in use', cls: 'lt-use' },
  { key: 'lag', label: 'lag', cls: 'lt-lag' },
  { key: 'drag', label: 'drag', cls: 'lt-drag' },
  { key: 'void', label: 'void', cls: 'lt-void' },
];

/** A space (byte x bytes allocated) as "size x time": shown in MiB·MiB, the unit HUP's figures use. */
export function space(v: number): string {
  const mm = v / (1 << 20) / (1 << 20);
  return mm >= 100 ? `${num(mm)} MiB²` : mm >= 0.01 ? `${mm.toFixed(2)} MiB²` : `${num(v)} B²`;
}

export class LifetimesView extends ToolbarView {
  private readonly stat = el('div', { class: 'lt-stat' });
  private readonly chart = el('div', { class: 'chart lt-chart' });
  private readonly table = el('div', { class: 'table-wrap' });
  private readonly detail = el('div', { class: 'lt-detail' });

  constructor() {
    super('lifetimes', 'Lifetimes');
    this.root.append(this.stat,
      el('h2', {}, 'Heap over allocation time'), this.chart, this.table, this.detail);
  }

  render(ctx: AppContext): void {
    const p = ctx.data.profile;
    let l: LifetimeSection | undefined;
    try {
      l = lifetimesOf(p);
    } catch (e) {
      this.empty(`The lifetime data of this profile is invalid: ${(e as Error).message}`);
      return;
    }
    if (!l) {
      this.empty('This profile has no lifetime data. Record one with "mode": "lifetime" in the launch configuration, or heaplens run --mode lifetime.');
      return;
    }
    const s = ctx.state;
    clear(this.bar);
    this.bar.append(
      selectBox<LifetimeGrouping>('By', [['class', 'class'], ['site', 'allocation site'], ['method', 'method'], ['nested', 'nested allocation site']],
        s.lifetimeBy, (v) => ctx.update({ lifetimeBy: v, lifetimeRow: null })),
      selectBox<SpaceKind>('Sort by', [['drag', 'drag space'], ['lag', 'lag space'], ['void', 'void space'], ['use', 'use space']],
        s.lifetimeSort, (v) => ctx.update({ lifetimeSort: v })),
    );
    this.renderStat(l);
    this.renderChart(l);
    const rows = sortRows(lifetimeRows(p, l, s.lifetimeBy), s.lifetimeSort);
    const cols: Array<Column<LifetimeRow>> = [
      { key: 'key', label: s.lifetimeBy === 'nested' ? 'nested allocation site' : s.lifetimeBy, wide: true, cell: (r) => r.key, title: (r) => r.key },
      { key: 'objects', label: 'objects', numeric: true, cell: (r) => num(r.objects) },
      { key: 'void_objects', label: 'void obj.', numeric: true, cell: (r) => num(r.voidObjects) },
      { key: 'lag', label: 'lag space', numeric: true, cell: (r) => space(r.lag), title: (r) => `${num(r.lag)} byte·bytes` },
      { key: 'drag', label: 'drag space', numeric: true, cell: (r) => space(r.drag), title: (r) => `${num(r.drag)} byte·bytes` },
      { key: 'void', label: 'void space', numeric: true, cell: (r) => space(r.void), title: (r) => `${num(r.void)} byte·bytes` },
      { key: 'use', label: 'use space', numeric: true, cell: (r) => space(r.use), title: (r) => `${num(r.use)} byte·bytes` },
    ];
    const openRow = (r: LifetimeRow): void => {
      const n = r.nested[0];
      const site = p.sites.get(n.site);
      if (site) ctx.open(site.method, site.line);
    };
    renderTable(this.table, rows, cols, {
      caption: `Objects by ${s.lifetimeBy}, sorted by ${s.lifetimeSort} space`,
      onActivate: (r) => ctx.update({ lifetimeRow: r.key === s.lifetimeRow ? null : r.key }),
      onOpen: openRow,
      isSelected: (r) => r.key === s.lifetimeRow,
      limit: 300,
    });
    const chosen = rows.find((r) => r.key === s.lifetimeRow);
    this.renderDetail(ctx, l, chosen, openRow);
  }

  private empty(text: string): void {
    for (const n of [this.bar, this.stat, this.chart, this.table, this.detail]) clear(n);
    this.stat.append(el('p', { class: 'muted' }, text));
  }

  /** HUP's `stat`. */
  private renderStat(l: LifetimeSection): void {
    clear(this.stat);
    const t = lifetimeStat(l);
    const part = (label: string, v: number, cls: string): HTMLElement =>
      el('span', { class: `lt-part ${cls}` }, `${label} ${space(v)} (${percent(t.total ? v / t.total : 0)})`);
    this.stat.append(
      el('div', {}, `${num(t.objects)} objects${t.sampleEvery > 1 ? ` (estimated: every ${num(t.sampleEvery)}th object tracked, scaled)` : ''} · `
        + `${num(t.laggedObjects)} lagged · ${num(t.draggedObjects)} dragged · ${num(t.voidObjects)} void · total space ${space(t.total)}`),
      el('div', {}, part('lag', t.lag, 'lt-lag'), part('drag', t.drag, 'lt-drag'), part('void', t.void, 'lt-void'), part('use', t.use, 'lt-use')),
      el('div', { class: 'muted' }, `Time is bytes allocated (${bytes(l.clock)} in all). Precision: unreachable objects were seen within ${bytes(l.precision)} `
        + `of becoming so (at most ${bytes(l.precisionTarget)}; ${precisionRuleText(l)}); drag and void can be longer than the truth by up to that much per object.`
        + (l.complete ? '' : ' The run had not ended: objects still reachable are not counted yet.')),
    );
  }

  /** HUP Figure 5: stacked heap (in use, lag, drag, void) over allocation time. */
  private renderChart(l: LifetimeSection): void {
    clear(this.chart);
    const tl = l.timeline;
    const n = Math.max(tl.inUse.length, tl.lag.length, tl.drag.length, tl.void.length);
    if (n === 0) {
      this.chart.append(el('p', { class: 'muted' }, 'No object has been seen unreachable yet.'));
      return;
    }
    const k = Math.max(1, l.sampleEvery);
    const width = 640;
    const height = 200;
    const m = { top: 8, right: 8, bottom: 30, left: 64 };
    const stacks: number[][] = [];
    for (let i = 0; i < n; i++) {
      let acc = 0;
      stacks.push([0, ...SERIES.map((sr) => (acc += (tl[sr.key][i] ?? 0) * k))]);
    }
    const max = Math.max(1, ...stacks.map((st) => st[SERIES.length]));
    const x = scaleLinear().domain([0, n * tl.bucket]).range([m.left, width - m.right]);
    const y = scaleLinear().domain([0, max]).range([height - m.bottom, m.top]).nice();
    const svg = d3select(this.chart).append('svg').attr('viewBox', `0 0 ${width} ${height}`).attr('class', 'lt-area')
      .attr('role', 'img').attr('aria-label', 'Heap in use, lag, drag and void over allocation time');
    SERIES.forEach((sr, si) => {
      const top: string[] = [];
      const bottom: string[] = [];
      for (let i = 0; i < n; i++) {
        for (const xv of [i * tl.bucket, (i + 1) * tl.bucket]) {
          top.push(`${x(xv).toFixed(1)},${y(stacks[i][si + 1]).toFixed(1)}`);
          bottom.push(`${x(xv).toFixed(1)},${y(stacks[i][si]).toFixed(1)}`);
        }
      }
      svg.append('path').attr('class', `lt-series ${sr.cls}`).attr('d', `M${top.join('L')}L${bottom.reverse().join('L')}Z`)
        .append('title').text(sr.label);
    });
    const xt = x.ticks(6);
    svg.selectAll('text.xl').data(xt).join('text').attr('class', 'axis xl').attr('x', (v) => x(v)).attr('y', height - m.bottom + 14)
      .attr('text-anchor', 'middle').text((v) => bytes(v));
    svg.append('text').attr('class', 'axis').attr('x', (m.left + width) / 2).attr('y', height - 2).attr('text-anchor', 'middle').text('allocation time (bytes allocated)');
    svg.selectAll('text.yl').data(y.ticks(4)).join('text').attr('class', 'axis yl').attr('x', m.left - 6).attr('y', (v) => y(v) + 4)
      .attr('text-anchor', 'end').text((v) => bytes(v));
    const legend = el('div', { class: 'lt-legend' });
    for (const sr of SERIES) legend.append(el('span', { class: `lt-key ${sr.cls}` }, sr.label));
    this.chart.append(legend);
  }

  private renderDetail(ctx: AppContext, l: LifetimeSection, row: LifetimeRow | undefined, openRow: (r: LifetimeRow) => void): void {
    clear(this.detail);
    if (!row) {
      this.detail.append(el('p', { class: 'muted' }, 'Select a row for its lifetime patterns (first-use trace, last-use site) and a representative object; double-click a row to open its allocation line.'));
      return;
    }
    const p = ctx.data.profile;
    const k = Math.max(1, l.sampleEvery);
    const frameLink = (f: TraceFrame): HTMLElement => {
      const a = el('a', { href: '#', class: 'frame-link', title: 'Open the source' }, frameText(f));
      a.addEventListener('click', (e) => { e.preventDefault(); ctx.open(f.method.id, f.line); });
      return a;
    };
    const traceList = (frames: TraceFrame[]): HTMLElement =>
      frames.length ? el('ol', { class: 'lt-trace' }, ...frames.map((f) => el('li', {}, frameLink(f)))) : el('span', { class: 'muted' }, '(no profiled frame)');
    const siteLink = (s: [number, number] | null): HTMLElement => {
      const m = s ? p.methods.get(s[0]) : undefined;
      return m && s ? frameLink({ method: m, line: s[1] }) : el('span', { class: 'muted' }, useSiteText(p, s));
    };
    const open = el('button', { type: 'button', class: 'btn' }, 'Open allocation line');
    open.addEventListener('click', () => openRow(row));
    this.detail.append(el('h2', {}, `Lifetime patterns: ${row.key}`), open);
    const patterns: Array<{ pattern: LifetimePattern; alloc: number }> = [];
    for (const n of row.nested) for (const pt of n.patterns) patterns.push({ pattern: pt, alloc: n.trace });
    patterns.sort((a, b) => b.pattern.drag + b.pattern.lag + b.pattern.void - (a.pattern.drag + a.pattern.lag + a.pattern.void));
    for (const { pattern: pt, alloc } of patterns.slice(0, 20)) {
      const r = pt.representative;
      const when = (v: number): string => (v < 0 ? 'never' : `at ${bytes(v)}`);
      this.detail.append(el('div', { class: 'lt-pattern' },
        el('div', {}, `${num(pt.objects * k)} objects · lag ${space(pt.lag * k)} · drag ${space(pt.drag * k)} · void ${space(pt.void * k)} · use ${space(pt.use * k)}`),
        el('div', { class: 'lt-rep' },
          el('div', {}, `Representative object: ${num(r.size)} bytes${r.length !== undefined ? `, length ${num(r.length)}` : ''}; allocated ${when(r.born)}, `
            + `first use ${when(r.firstUse)}, last use ${when(r.lastUse)}, ${r.reachableAtExit ? 'reachable until the end' : `unreachable ${when(r.unreachable)}`}; `
            + `${num(r.uses)} uses, ${num(r.puts)} puts (first ${when(r.firstPut)}, last ${when(r.lastPut)}).`),
          el('div', { class: 'lt-label' }, 'Allocation trace'), traceList(traceFrames(p, l, alloc)),
          el('div', { class: 'lt-label' }, 'First use trace'), traceList(traceFrames(p, l, pt.firstUseTrace)),
          el('div', { class: 'lt-label' }, 'Last use'), siteLink(r.lastUseSite),
          el('div', { class: 'lt-label' }, 'First / last put'), el('span', {}, siteLink(r.firstPutSite), ' / ', siteLink(r.lastPutSite)),
        )));
    }
  }
}
