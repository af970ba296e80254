// Arrays (Binder 2006): per element type B C D F I J S Z R — arrays, elements, average length, est. bytes —
// per context, and how arrays distribute over their allocation record's average length.
import { scaleBand, scaleSymlog } from 'd3-scale';
import { select } from 'd3-selection';
import {
  ArrayRow, arraysByCode, arraysByContext, averageLengthDistribution, ContextArrayRow, ELEMENT_NAMES, LengthBucket,
} from '../../extension/model/array-stats';
import { FrameTree } from '../../extension/model/frames';
import { ELEMENT_CODES, ElementCode } from '../../extension/model/types';
import { bytes, num, percent } from '../../extension/model/format';
import { AppContext, View } from '../context';
import { clear, el, select as selectBox } from './dom';
import { allocationsPatch, threadOptions } from './flame-tab';
import { fullTrace, traceText } from './sites';
import { Column, renderTable } from './table';

type CodeRow = ArrayRow & { code: ElementCode };
const avg = (r: ArrayRow): string => (r.arrays ? (r.elements / r.arrays).toFixed(1) : '–');

export class ArraysView implements View {
  readonly root: HTMLElement;
  private readonly bar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Arrays options' });
  private readonly codes = el('div', { class: 'table-wrap compact' });
  private readonly chart = el('div', { class: 'chart' });
  private readonly contexts = el('div', { class: 'table-wrap' });
  private cache?: { tree: FrameTree; codes: Record<ElementCode, ArrayRow>; contexts: ContextArrayRow[]; dist: Map<ElementCode, LengthBucket[]> };

  constructor() {
    this.root = el('section', { class: 'view view-arrays', 'aria-label': 'Arrays' }, this.bar,
      el('h2', {}, 'By element type'), this.codes, this.chart, el('h2', {}, 'By context'), this.contexts);
  }

  render(ctx: AppContext): void {
    const s = ctx.state;
    const p = ctx.data.profile;
    clear(this.bar);
    this.bar.append(selectBox('Thread', threadOptions(ctx), String(s.thread), (v) => ctx.update({ thread: Number(v) })));
    const tree = ctx.data.tree({ thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: false });
    if (this.cache?.tree !== tree) {
      this.cache = { tree, codes: arraysByCode(tree, p.types), contexts: arraysByContext(tree, p.types), dist: averageLengthDistribution(tree, p.types) };
    }
    const c = this.cache;
    const allBytes = ELEMENT_CODES.reduce((sum, k) => sum + c.codes[k].bytes, 0);
    const code = (s.arrayCode && ELEMENT_CODES.includes(s.arrayCode as ElementCode) ? s.arrayCode : undefined) as ElementCode | undefined;
    const codeRows: CodeRow[] = ELEMENT_CODES.map((k) => ({ code: k, ...c.codes[k] }));
    const codeCols: Array<Column<CodeRow>> = [
      { key: 'code', label: 'code', cell: (r) => r.code },
      { key: 'element', label: 'element', cell: (r) => ELEMENT_NAMES[r.code] },
      { key: 'arrays', label: 'arrays', numeric: true, cell: (r) => num(r.arrays) },
      { key: 'elements', label: 'elements', numeric: true, cell: (r) => num(r.elements) },
      { key: 'avg', label: 'avg length', numeric: true, cell: avg },
      { key: 'bytes', label: 'est. bytes', numeric: true, cell: (r) => num(r.bytes) },
      { key: 'share', label: 'share', numeric: true, cell: (r) => percent(allBytes ? r.bytes / allBytes : 0) },
    ];
    renderTable(this.codes, codeRows, codeCols, {
      caption: 'Arrays by element type',
      onActivate: (r) => ctx.update({ arrayCode: r.code === code ? null : r.code }),
      isSelected: (r) => r.code === code,
    });
    const shown = code ?? [...c.dist.keys()].sort((a, b) => c.codes[b].arrays - c.codes[a].arrays)[0];
    this.renderChart(shown, shown ? c.dist.get(shown) : undefined);

    const rows = code ? c.contexts.filter((r) => r.code === code) : c.contexts;
    const cols: Array<Column<ContextArrayRow>> = [
      { key: 'code', label: 'code', cell: (r) => `${r.code} (${ELEMENT_NAMES[r.code]})` },
      { key: 'trace', label: 'context', wide: true, cell: (r) => traceText(r.trace, p.methods), title: (r) => fullTrace(r.trace, p.methods) },
      { key: 'arrays', label: 'arrays', numeric: true, cell: (r) => num(r.arrays) },
      { key: 'elements', label: 'elements', numeric: true, cell: (r) => num(r.elements) },
      { key: 'avg', label: 'avg length', numeric: true, cell: avg },
      { key: 'bytes', label: 'est. bytes', numeric: true, cell: (r) => bytes(r.bytes), title: (r) => `${num(r.bytes)} bytes` },
    ];
    renderTable(this.contexts, rows, cols, {
      caption: 'Arrays by context',
      onActivate: (r) => ctx.update({ highlight: r.trace }),
      onOpen: (r) => ctx.update({ highlight: r.trace, selected: r.trace, zoom: [], inverted: false, view: 'flame', ...allocationsPatch(ctx) }),
      isSelected: (r) => s.highlight !== null && s.highlight.join() === r.trace.join(),
      limit: 300,
    });
  }

  private renderChart(code: ElementCode | undefined, buckets: LengthBucket[] | undefined): void {
    clear(this.chart);
    if (!code || !buckets) {
      this.chart.append(el('p', { class: 'muted' }, 'No arrays were allocated here.'));
      return;
    }
    this.chart.append(el('h3', {}, `${ELEMENT_NAMES[code]} arrays (${code}) by the average length of their allocation record`));
    const width = 560;
    const height = 150;
    const m = { top: 8, right: 8, bottom: 34, left: 56 };
    const x = scaleBand<string>().domain(buckets.map((b) => b.label)).range([m.left, width - m.right]).padding(0.15);
    const max = Math.max(1, ...buckets.map((b) => b.arrays));
    // a log-like scale: a few empty arrays or oversized buffers next to 80,000 ordinary ones stay visible
    const y = scaleSymlog().domain([0, max]).range([height - m.bottom, m.top]);
    const ticks = [0, ...[1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8].filter((t) => t <= max)];
    const short = (v: number): string => (v >= 1 << 20 ? `${v / (1 << 20)}M` : v >= 1024 ? `${v / 1024}K` : String(v));
    const svg = select(this.chart).append('svg').attr('viewBox', `0 0 ${width} ${height}`).attr('class', 'bars')
      .attr('role', 'img').attr('aria-label', `Histogram of ${ELEMENT_NAMES[code]} arrays by record average length`);
    svg.selectAll('rect').data(buckets).join('rect')
      .attr('x', (b) => x(b.label) ?? 0).attr('width', x.bandwidth())
      .attr('y', (b) => y(b.arrays)).attr('height', (b) => y(0) - y(b.arrays))
      .attr('class', (b) => (b.lo === 0 && b.hi === 0 ? 'bar bar-empty' : 'bar'))
      .append('title').text((b) => `average length ${b.label}: ${num(b.arrays)} arrays in ${num(b.records)} records`);
    svg.selectAll('text.xl').data(buckets).join('text').attr('class', 'axis xl')
      .attr('x', (b) => (x(b.label) ?? 0) + x.bandwidth() / 2).attr('y', height - m.bottom + 14).attr('text-anchor', 'middle').text((b) => short(b.lo));
    svg.append('text').attr('class', 'axis').attr('x', (m.left + width) / 2).attr('y', height - 4).attr('text-anchor', 'middle').text('average length, from (buckets 0, 1, 2–3, 4–7, …; counts on a log scale)');
    svg.selectAll('text.yl').data(ticks).join('text').attr('class', 'axis yl')
      .attr('x', m.left - 6).attr('y', (t) => y(t) + 4).attr('text-anchor', 'end').text((t) => num(t));
    this.chart.append(el('p', { class: 'muted note' },
      'The profile records, per context and site, how many arrays were allocated and their total elements, not each array\'s ' +
      'length: this chart groups arrays by their record\'s average length (0, 1, 2–3, 4–7, …). A true length histogram needs ' +
      'per-length counts from the agent. Select a row above to show another element type.'));
  }
}
