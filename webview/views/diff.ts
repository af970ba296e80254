// Diff: a baseline (before) against the profile shown (after) as a differential flame tree — widths are
// before + after, colour is growth (red) or shrinkage (blue) — and tables of the biggest changes.
import { biggestChanges, ContextChange, diffTrees, DiffTree, TypeChange } from '../../extension/model/diff';
import { METRIC_LABELS, pathOf, findPath, ViewMetric } from '../../extension/model/frames';
import { frameTitle, shortFrame } from '../../extension/model/names';
import { diffColor } from '../core/colors';
import { num, percent, signed } from '../../extension/model/format';
import { AppContext, View } from '../context';
import { ProfileData } from '../data';
import { button, clear, el, select } from './dom';
import { FlameView } from './flame';
import { metricOptions } from './flame-tab';
import { Column, renderTable } from './table';

/** The diff compares allocations: CPU samples chosen in the flame tab count as objects here. */
function allocationMetric(m: ViewMetric): ViewMetric {
  return m === 'samples' ? 'objects' : m;
}

export class DiffView implements View {
  readonly root: HTMLElement;
  private readonly bar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Diff options' });
  private readonly info = el('div', { class: 'muted view-info' });
  private readonly legend = el('div', { class: 'legend' });
  private readonly contexts = el('div', { class: 'table-wrap compact' });
  private readonly types = el('div', { class: 'table-wrap compact' });
  private readonly flame: FlameView;
  private cache?: { before: ProfileData; after: ProfileData; thread: number; diff: DiffTree };
  private ctx?: AppContext;

  constructor() {
    this.flame = new FlameView({
      zoom: (i) => this.ctx && this.cache && this.ctx.update({ diffZoom: pathOf(this.cache.diff.tree, i) }),
      select: () => undefined,
      open: (i) => {
        const m = this.cache?.diff.methods.get(this.cache.diff.tree.method[i]);
        if (m && this.ctx) this.ctx.post({ type: 'navigate', frame: { class: m.class, method: m.name, desc: m.desc, file: m.file, line: m.line } });
      },
    });
    this.root = el('section', { class: 'view view-diff', 'aria-label': 'Diff' }, this.bar, this.info, this.flame.root, this.legend,
      el('h2', {}, 'Biggest changes by context (own allocations)'), this.contexts, el('h2', {}, 'Biggest changes by allocated type'), this.types);
  }

  themeChanged(): void {
    this.flame.themeChanged();
  }

  render(ctx: AppContext): void {
    this.ctx = ctx;
    const s = ctx.state;
    clear(this.bar);
    this.bar.append(button(ctx.baseline ? 'Change baseline…' : 'Load baseline…', 'diff', () => ctx.pickBaseline(), 'Choose the profile to compare with (before)'));
    const base = ctx.baseline;
    if (!base) {
      this.info.textContent = 'Compare this profile with another one (or with an earlier snapshot of the session): load a baseline .heaplens file. ' +
        'The baseline is "before", this profile is "after".';
      this.flame.root.hidden = true;
      this.legend.hidden = true;
      clear(this.contexts);
      clear(this.types);
      return;
    }
    this.flame.root.hidden = false;
    this.legend.hidden = false;
    this.bar.append(select('Metric', metricOptions(), allocationMetric(s.metric), (v) => ctx.update({ metric: v })));
    const threadName = s.thread === -1 ? undefined : ctx.data.threadName(s.thread);
    const baseThread = threadName ? base.profile.threads.find((t) => t.name === threadName) : undefined;
    const thread = baseThread ? s.thread : -1;
    if (!this.cache || this.cache.before !== base || this.cache.after !== ctx.data || this.cache.thread !== thread) {
      const side = (d: ProfileData, t: number) => ({ root: d.root(t), methods: d.profile.methods, types: d.profile.types });
      this.cache = { before: base, after: ctx.data, thread, diff: diffTrees(side(base, baseThread ? baseThread.id : -1), side(ctx.data, thread)) };
    }
    const d = this.cache.diff;
    const k = allocationMetric(s.metric);
    const b = d.before.total[k];
    const a = d.after.total[k];
    this.info.textContent = `before: ${base.title} · after: ${ctx.data.title} · ${baseThread ? `thread ${threadName}` : 'all threads'} · ` +
      `${METRIC_LABELS[k]} ${num(b[0])} → ${num(a[0])} (${signed(a[0] - b[0], k)}${b[0] ? `, ${percent((a[0] - b[0]) / b[0])}` : ''})`;
    const label = (i: number): string => {
      const m = d.methods.get(d.tree.method[i]);
      return m ? shortFrame(m) : threadName ?? 'all threads';
    };
    const title = (i: number): string => {
      const m = d.methods.get(d.tree.method[i]);
      return m ? `${m.class}.${m.name}` : label(i);
    };
    const describe = (i: number): string => `${title(i)}: ${num(b[i])} → ${num(a[i])} (${signed(a[i] - b[i], k)})`;
    this.flame.set({
      tree: d.tree, metric: k, zoom: findPath(d.tree, s.diffZoom, true), selected: -1, highlight: -1,
      color: (i) => diffColor(b[i], a[i], ctx.theme), label, title, describe,
      tooltip: (i) => {
        const m = d.methods.get(d.tree.method[i]);
        return el('div', { class: 'tip' }, el('div', { class: 'tip-title' }, label(i)), el('div', { class: 'tip-full' }, m ? frameTitle(m) : ''),
          el('div', {}, `${METRIC_LABELS[k]} (total): ${num(b[i])} → ${num(a[i])}, ${signed(a[i] - b[i], k)}`),
          el('div', {}, `own: ${num(d.before.self[k][i])} → ${num(d.after.self[k][i])}`));
      },
    });
    this.renderLegend(ctx);
    this.renderTables(ctx, d);
  }

  private renderLegend(ctx: AppContext): void {
    clear(this.legend);
    const sw = (before: number, after: number, text: string): HTMLElement => {
      const s = el('span', { class: 'swatch' });
      s.style.background = diffColor(before, after, ctx.theme);
      return el('span', { class: 'legend-item' }, s, text);
    };
    this.legend.append(el('span', { class: 'legend-title' }, 'Colour:'), sw(1, 0, 'gone / shrunk a lot'), sw(2, 1, 'shrunk'),
      sw(1, 1, 'unchanged'), sw(1, 2, 'grew'), sw(0, 1, 'new / grew a lot'),
      el('span', { class: 'legend-note muted' }, 'width: before + after, so frames that vanished stay visible'));
  }

  private renderTables(ctx: AppContext, d: DiffTree): void {
    const k = allocationMetric(ctx.state.metric);
    const pathText = (i: number): string => pathOf(d.tree, i).map((m) => {
      const e = d.methods.get(m);
      return e ? shortFrame(e) : '?';
    }).join(' › ');
    const ctxCols: Array<Column<ContextChange>> = [
      { key: 'ctx', label: 'context', cell: (r) => pathText(r.node), title: (r) => pathText(r.node) },
      { key: 'b', label: 'before', numeric: true, cell: (r) => num(r.before) },
      { key: 'a', label: 'after', numeric: true, cell: (r) => num(r.after) },
      { key: 'd', label: 'change', numeric: true, cell: (r) => el('span', { class: r.delta > 0 ? 'grow' : 'shrink' }, signed(r.delta, k)) },
    ];
    renderTable(this.contexts, biggestChanges(d, k, 30), ctxCols, {
      caption: 'Biggest changes by context',
      onActivate: (r) => ctx.update({ diffZoom: pathOf(d.tree, d.tree.parent[r.node]) }),
    });
    const metricOf = (t: TypeChange, side: 'before' | 'after'): number => t[side][k === 'calls' ? 'objects' : k];
    const typeRows = d.types.filter((t) => metricOf(t, 'after') !== metricOf(t, 'before'))
      .sort((x, y) => Math.abs(metricOf(y, 'after') - metricOf(y, 'before')) - Math.abs(metricOf(x, 'after') - metricOf(x, 'before')));
    const typeCols: Array<Column<TypeChange>> = [
      { key: 'type', label: 'type', cell: (t) => t.name },
      { key: 'b', label: 'before', numeric: true, cell: (t) => num(metricOf(t, 'before')) },
      { key: 'a', label: 'after', numeric: true, cell: (t) => num(metricOf(t, 'after')) },
      { key: 'd', label: 'change', numeric: true, cell: (t) => { const v = metricOf(t, 'after') - metricOf(t, 'before'); return el('span', { class: v > 0 ? 'grow' : 'shrink' }, signed(v, k)); } },
    ];
    renderTable(this.types, typeRows, typeCols, { caption: 'Biggest changes by type', limit: 20 });
  }
}
