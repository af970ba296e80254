// Arrays (Binder 2006): per element type (byte[], char[], …, arrays of references) — arrays, elements, average
// length, est. bytes — per context, and how arrays distribute over their allocation record's average length.
// The UI names element types as Java does (byte[]), never by their one-letter descriptor codes.
import { scaleBand, scaleSymlog } from 'd3-scale';
import { select } from 'd3-selection';
import {
  ArrayRow, arraysByCode, arraysByContext, averageLengthDistribution, ContextArrayRow, ELEMENT_NAMES, LengthBucket,
} from '../../core/views/array-stats';
import { FrameTree } from '../../core/views/frames';
import { ELEMENT_CODES, ElementCode } from '../../core/profile/types';
import { bytes, num, percent } from '../../core/format';
import { AppContext } from '../context';
import { clear, el, select as selectBox } from './dom';
import { allocationsPatch, threadOptions } from './flame-tab';
import { fullTrace, traceText } from './sites';
import { Column, renderTable } from './table';
import { ToolbarView } from './toolbar-view';

type CodeRow = ArrayRow & { code: ElementCode };
const avg = (r: ArrayRow): string => (r.arrays ? (r.elements / r.arrays).toFixed(1) : '–');
/** `byte[]`, `Object[]` (arrays of references, arrays of arrays included): as a Java developer names them */
export function arrayName(code: ElementCode): string {
  return code === 'R' ? 'Object[] (references)' : `${ELEMENT_NAMES[code]}[]`;
}

export class ArraysView extends ToolbarView {
  private readonly codes = el('div', { class: 'table-wrap compact' });
  private readonly chart = el('div', { class: 'chart' });
  private readonly contexts = el('div', { class: 'table-wrap' });
  private readonly byType = el('h2', {}, 'By element type');
  private readonly byContext = el('h2', {}, 'By calling context');
  private readonly none = el('p', { class: 'empty' }, 'No arrays were allocated in this tree.');
  private cache?: { tree: FrameTree; codes: Record<ElementCode, ArrayRow>; contexts: ContextArrayRow[]; dist: Map<ElementCode, LengthBucket[]> };

  constructor() {
    super('arrays', 'Arrays');
    this.root.append(this.none, this.byType, this.codes, this.chart, this.byContext, this.contexts);
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
    // no arrays at all: one line says so, no heading stands over an empty table
    const any = ELEMENT_CODES.some((k) => c.codes[k].arrays > 0);
    this.none.hidden = any;
    for (const e of [this.byType, this.codes, this.chart, this.byContext, this.contexts]) e.hidden = !any;
    if (!any) return;
    // only the element types that occur (a row of zeros for short[] says nothing)
    const codeRows: CodeRow[] = ELEMENT_CODES.filter((k) => c.codes[k].arrays > 0).map((k) => ({ code: k, ...c.codes[k] }));
    const codeCols: Array<Column<CodeRow>> = [
      { key: 'element', label: 'array type', cell: (r) => arrayName(r.code), title: () => 'Click to show only this type below and in the chart' },
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
      { key: 'code', label: 'array type', cell: (r) => arrayName(r.code) },
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
    this.chart.append(el('h3', {}, `How long are the ${arrayName(code)} arrays? Number of arrays by average length`));
    const width = 560;
    const height = 160;
    const m = { top: 8, right: 8, bottom: 34, left: 64 };
    const x = scaleBand<string>().domain(buckets.map((b) => b.label)).range([m.left, width - m.right]).padding(0.15);
    const max = Math.max(1, ...buckets.map((b) => b.arrays));
    // a log-like scale: a few empty arrays or oversized buffers next to 80,000 ordinary ones stay visible
    const y = scaleSymlog().domain([0, max]).range([height - m.bottom, m.top]);
    // 0 and 1 sit 8 px apart on the log scale: label 1 only when nothing larger is labelled
    const ticks = [0, ...[10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8].filter((t) => t <= max)];
    if (ticks.length === 1) ticks.push(1);
    const short = (v: number): string => (v >= 1 << 20 ? `${v / (1 << 20)}M` : v >= 1024 ? `${v / 1024}K` : String(v));
    const svg = select(this.chart).append('svg').attr('viewBox', `0 0 ${width} ${height}`).attr('class', 'bars')
      .attr('role', 'img').attr('aria-label', `Histogram of ${ELEMENT_NAMES[code]} arrays by record average length`);
    svg.selectAll('rect').data(buckets).join('rect')
      .attr('x', (b) => x(b.label) ?? 0).attr('width', x.bandwidth())
      .attr('y', (b) => y(b.arrays)).attr('height', (b) => y(0) - y(b.arrays))
      .attr('class', (b) => (b.lo === 0 && b.hi === 0 ? 'bar bar-empty' : 'bar'))
      .append('title').text((b) => `average length ${b.label}: ${num(b.arrays)} arrays in ${num(b.records)} records`);
    // one label every `every` buckets, so that labels (up to 5 characters, ~32 px) never overlap
    const every = Math.max(1, Math.ceil(34 / Math.max(1, x.step())));
    svg.selectAll('text.xl').data(buckets.filter((_, k) => k % every === 0)).join('text').attr('class', 'axis xl')
      .attr('x', (b) => (x(b.label) ?? 0) + x.bandwidth() / 2).attr('y', height - m.bottom + 14).attr('text-anchor', 'middle').text((b) => short(b.lo));
    svg.append('text').attr('class', 'axis').attr('x', (m.left + width) / 2).attr('y', height - 4).attr('text-anchor', 'middle').text('average length (each bar: from this length up to the next bar\'s)');
    svg.append('text').attr('class', 'axis').attr('transform', `translate(12, ${(height - m.bottom + m.top) / 2}) rotate(-90)`)
      .attr('text-anchor', 'middle').text('arrays (log scale)');
    svg.selectAll('text.yl').data(ticks).join('text').attr('class', 'axis yl')
      .attr('x', m.left - 6).attr('y', (t) => y(t) + 4).attr('text-anchor', 'end').text((t) => num(t));
    this.chart.append(el('p', { class: 'muted note' },
      'The profile records, per context and site, how many arrays were allocated and their total elements, not each array\'s ' +
      'length: this chart groups arrays by their record\'s average length (0, 1, 2–3, 4–7, …). A true length histogram needs ' +
      'per-length counts from the agent. The orange bar counts empty arrays (length 0). Select a row above to show another array type.'));
  }
}
