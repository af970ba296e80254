// Threads: every thread with its totals (and the merge of all); selecting one shows its own tree.
import { VIEW_METRICS, ViewMetric } from '../../extension/model/frames';
import { bytes, num, percent } from '../core/format';
import { AppContext, View } from '../context';
import { el } from './dom';
import { Column, renderTable } from './table';

interface ThreadRow {
  id: number;
  name: string;
  state: string;
  totals: Record<ViewMetric, number>;
}

export class ThreadsView implements View {
  readonly root: HTMLElement;
  private readonly info = el('div', { class: 'muted view-info' }, 'Select a thread to show its own flame tree (Enter or click).');
  private readonly body = el('div', { class: 'table-wrap' });

  constructor() {
    this.root = el('section', { class: 'view view-threads', 'aria-label': 'Threads' }, this.info, this.body);
  }

  render(ctx: AppContext): void {
    const s = ctx.state;
    const p = ctx.data.profile;
    const totalsOf = (thread: number): Record<ViewMetric, number> => {
      const t = ctx.data.tree({ thread, myCode: false, collapseRecursion: false, inverted: false });
      return Object.fromEntries(VIEW_METRICS.map((k) => [k, t.total[k][0]])) as Record<ViewMetric, number>;
    };
    const rows: ThreadRow[] = [
      { id: -1, name: 'All threads (merged)', state: `${p.threads.length} threads`, totals: totalsOf(-1) },
      ...p.threads.map((t) => ({
        id: t.id, name: t.name, state: `${t.alive ? 'alive' : 'ended'}${t.daemon ? ', daemon' : ''}`, totals: totalsOf(t.id),
      })),
    ];
    const all = rows[0].totals;
    const n = (k: ViewMetric) => (a: ThreadRow, b: ThreadRow) => a.totals[k] - b.totals[k];
    const cols: Array<Column<ThreadRow>> = [
      { key: 'name', label: 'thread', cell: (r) => r.name, compare: (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) },
      { key: 'state', label: 'state', cell: (r) => r.state },
      { key: 'objects', label: 'objects', numeric: true, cell: (r) => num(r.totals.objects), compare: n('objects') },
      { key: 'arrays', label: 'arrays', numeric: true, cell: (r) => num(r.totals.arrays), compare: n('arrays') },
      { key: 'elements', label: 'elements', numeric: true, cell: (r) => num(r.totals.elements), compare: n('elements') },
      { key: 'bytes', label: 'est. bytes', numeric: true, cell: (r) => bytes(r.totals.bytes), title: (r) => `${num(r.totals.bytes)} bytes`, compare: n('bytes') },
      { key: 'share', label: 'share (bytes)', numeric: true, cell: (r) => percent(all.bytes ? r.totals.bytes / all.bytes : 0), compare: n('bytes') },
      { key: 'calls', label: 'calls', numeric: true, cell: (r) => num(r.totals.calls), compare: n('calls') },
    ];
    renderTable(this.body, rows, cols, {
      caption: 'Threads',
      onActivate: (r) => ctx.update({ thread: r.id, zoom: [], selected: null, view: 'flame' }),
      isSelected: (r) => r.id === s.thread,
    });
  }
}
