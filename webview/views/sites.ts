// Allocation sites (hprof heap=sites, Liang & Viswanathan 1999): rank, self %, accumulated %, instances, est. bytes,
// type, site, calling trace; sortable and filterable; a row highlights its context in the flame tree.
import { FrameTree } from '../../core/views/frames';
import { shortClass, shortFrame } from '../../core/profile/names';
import { filterRows, SiteRow, siteTable, siteWhere } from '../../core/views/site-table';
import { MethodEntry } from '../../core/profile/types';
import { bytes, num, percent } from '../../core/format';
import { AppContext } from '../context';
import { clear, el, select } from './dom';
import { allocationsPatch, threadOptions } from './flame-tab';
import { Column, renderTable } from './table';
import { ToolbarView } from './toolbar-view';

export function traceText(trace: readonly number[], methods: ReadonlyMap<number, MethodEntry>, max = 6): string {
  const names = trace.map((m) => {
    const e = methods.get(m);
    return e ? shortFrame(e) : `?${m}`;
  });
  if (names.length === 0) return '(thread root)';
  // innermost frame first, as hprof prints traces: the allocating context is what matters most
  const inner = names.reverse();
  return inner.length > max ? `${inner.slice(0, max).join(' ← ')} ← …` : inner.join(' ← ');
}

export function fullTrace(trace: readonly number[], methods: ReadonlyMap<number, MethodEntry>): string {
  return trace.map((m) => {
    const e = methods.get(m);
    return e ? `${e.class}.${e.name}` : `?${m}`;
  }).reverse().join('\n') || '(thread root)';
}

function samePath(a: readonly number[] | null, b: readonly number[]): boolean {
  return a !== null && a.length === b.length && a.every((x, k) => x === b[k]);
}

export class SitesView extends ToolbarView {
  private readonly filter = el('input', { type: 'search', class: 'search', placeholder: 'Filter by type, method or trace', 'aria-label': 'Filter sites' });
  private readonly info = el('div', { class: 'muted view-info' });
  private readonly body = el('div', { class: 'table-wrap' });
  private cache?: { tree: FrameTree; metric: string; rows: SiteRow[] };
  private ctx?: AppContext;

  constructor() {
    super('sites', 'Allocation sites');
    this.filter.addEventListener('input', () => this.ctx?.update({ siteFilter: this.filter.value }));
    this.root.append(this.info, this.body);
  }

  focus(): void {
    this.filter.focus();
  }

  render(ctx: AppContext): void {
    this.ctx = ctx;
    const s = ctx.state;
    const p = ctx.data.profile;
    clear(this.bar);
    this.bar.append(
      select('Thread', threadOptions(ctx), String(s.thread), (v) => ctx.update({ thread: Number(v), highlight: null })),
      select('Rank by', [['bytes', 'est. bytes'], ['count', 'instances']] as const, s.siteMetric, (v) => ctx.update({ siteMetric: v })),
      this.filter,
    );
    if (this.filter.value !== s.siteFilter) this.filter.value = s.siteFilter;
    const tree = ctx.data.tree({ thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: false });
    if (!this.cache || this.cache.tree !== tree || this.cache.metric !== s.siteMetric) {
      this.cache = { tree, metric: s.siteMetric, rows: siteTable({ tree, types: p.types, sites: p.sites, methods: p.methods }, s.siteMetric) };
    }
    const rows = filterRows(this.cache.rows, s.siteFilter, p.methods);
    const folded = s.myCode || s.collapseRecursion ? ' Calling traces follow the flame tree\'s "only my code" / "collapse recursion" settings.' : '';
    this.info.textContent = `${num(rows.length)} of ${num(this.cache.rows.length)} (context, site, type) rows, ranked by ${s.siteMetric === 'bytes' ? 'estimated bytes' : 'instances (objects and arrays)'}. Click a row to highlight its context in the flame tree; double-click or Shift+Enter to show it there.${folded}`;
    const methods = p.methods;
    const num0 = (f: (r: SiteRow) => number) => (a: SiteRow, b: SiteRow) => f(a) - f(b);
    const str0 = (f: (r: SiteRow) => string) => (a: SiteRow, b: SiteRow) => (f(a) < f(b) ? -1 : f(a) > f(b) ? 1 : 0);
    const siteName = (r: SiteRow): string => (r.method ? `${shortClass(r.method.class)}.${r.method.name}${r.site?.line !== undefined ? `:${r.site.line}` : ''}` : '?');
    const cols: Array<Column<SiteRow>> = [
      { key: 'rank', label: 'rank', numeric: true, cell: (r) => String(r.rank), compare: num0((r) => r.rank) },
      { key: 'self', label: 'self %', numeric: true, cell: (r) => percent(r.selfShare), compare: num0((r) => r.selfShare) },
      { key: 'accum', label: 'accum. %', numeric: true, cell: (r) => percent(r.accumShare), compare: num0((r) => r.accumShare) },
      { key: 'count', label: 'instances', numeric: true, cell: (r) => num(r.count), compare: num0((r) => r.count) },
      { key: 'bytes', label: 'est. bytes', numeric: true, cell: (r) => bytes(r.bytes), title: (r) => `${num(r.bytes)} bytes`, compare: num0((r) => r.bytes) },
      { key: 'type', label: 'type', clip: true, cell: (r) => r.type?.name ?? '?', compare: str0((r) => r.type?.name ?? '') },
      {
        key: 'site', label: 'site', clip: true, compare: str0(siteName),
        title: (r) => (r.method ? `${r.method.class}.${r.method.name}${r.method.desc} — ${r.method.file ?? '?'}:${r.site?.line ?? '?'} (${r.site?.kind}, bci ${r.site?.bci})` : ''),
        cell: (r) => {
          // JDK work done for a line of the program reads "Main.parse:40 › String.split › Arrays.copyOfRange:3822",
          // and the link goes to the program's line (the one that asked for it), not into the JDK
          const b = el('button', { type: 'button', class: 'link' }, siteWhere(r, methods));
          const context = r.callLine !== undefined ? r.trace[r.trace.length - 1] : undefined;
          b.addEventListener('click', (e) => {
            e.stopPropagation();
            if (context !== undefined) ctx.open(context, r.callLine);
            else if (r.method) ctx.open(r.method.id, r.site?.line);
          });
          return el('span', {}, b, el('span', { class: 'muted' }, ` ${r.site?.kind ?? ''}`));
        },
      },
      { key: 'trace', label: 'calling trace', wide: true, cell: (r) => traceText(r.trace, methods), title: (r) => fullTrace(r.trace, methods) },
    ];
    renderTable(this.body, rows, cols, {
      caption: 'Allocation sites', sort: s.siteSort,
      onSort: (key) => ctx.update({ siteSort: { key, desc: s.siteSort.key === key ? !s.siteSort.desc : key !== 'rank' && key !== 'type' && key !== 'site' } }),
      onActivate: (r) => ctx.update({ highlight: r.trace }),
      onOpen: (r) => ctx.update({ highlight: r.trace, selected: r.trace, zoom: [], inverted: false, view: 'flame', ...allocationsPatch(ctx) }),
      isSelected: (r) => samePath(s.highlight, r.trace),
    });
  }
}
