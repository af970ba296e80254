// Diff: a baseline (before) against the profile shown (after) as a differential flame tree — widths are
// before + after, colour is growth (red) or shrinkage (blue) — and tables of the biggest changes.
import { biggestChanges, ContextChange, diffTrees, DiffTree, methodKey, TypeChange } from '../../core/views/diff';
import { biggestRelativeGrowth, DIFF_NORM_LABELS, DIFF_NORMS, DiffNorm, normaliseDiff, NormalisedSides } from '../../core/views/diff-normalise';
import { METRIC_LABELS, pathOf, findPath, ViewMetric } from '../../core/views/frames';
import { frameTitle, shortFrame } from '../../core/profile/names';
import { diffColor } from '../core/colors';
import { num, percent, signed } from '../../core/format';
import { AppContext } from '../context';
import { ProfileData } from '../data';
import { button, clear, el, select } from './dom';
import { FlameView } from './flame';
import { metricOptions } from './flame-tab';
import { Column, renderTable } from './table';
import { ToolbarView } from './toolbar-view';

/** A per-call figure: three significant digits at most (2.23, 41.7, 1,204), never rounded to nothing. */
export function perUnit(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  return a >= 100 ? num(Math.round(v)) : v.toFixed(a >= 10 ? 1 : a >= 1 ? 2 : 3);
}

/** The diff compares allocations: CPU samples chosen in the flame tab count as objects here. */
function allocationMetric(m: ViewMetric): ViewMetric {
  return m === 'samples' ? 'allocations' : m;
}

export class DiffView extends ToolbarView {
  private readonly info = el('div', { class: 'muted view-info' });
  private readonly legend = el('div', { class: 'legend' });
  private readonly contexts = el('div', { class: 'table-wrap compact' });
  private readonly types = el('div', { class: 'table-wrap compact' });
  private readonly contextsHead = el('h2', {}, 'Biggest changes by context (own allocations)');
  private readonly typesHead = el('h2', {}, 'Biggest changes by allocated type');
  private readonly flame: FlameView;
  private cache?: { before: ProfileData; after: ProfileData; thread: number; diff: DiffTree };
  private ctx?: AppContext;

  constructor() {
    super('diff', 'Diff');
    this.flame = new FlameView({
      zoom: (i) => this.ctx && this.cache && this.ctx.update({ diffZoom: pathOf(this.cache.diff.tree, i) }),
      select: () => undefined,
      open: (i) => {
        const m = this.cache?.diff.methods.get(this.cache.diff.tree.method[i]);
        if (m && this.ctx) this.ctx.post({ type: 'navigate', frame: { class: m.class, method: m.name, desc: m.desc, file: m.file, line: m.line } });
      },
    });
    this.root.append(this.info, this.flame.root, this.legend,
      this.contextsHead, this.contexts, this.typesHead, this.types);
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
      // no baseline: no heading over an empty table
      for (const e of [this.flame.root, this.legend, this.contextsHead, this.typesHead]) e.hidden = true;
      clear(this.contexts);
      clear(this.types);
      return;
    }
    for (const e of [this.flame.root, this.legend, this.contextsHead, this.typesHead]) e.hidden = false;
    this.bar.append(select('Metric', metricOptions(), allocationMetric(s.metric), (v) => ctx.update({ metric: v })),
      select('Compare', DIFF_NORMS.map((n): [DiffNorm, string] => [n, DIFF_NORM_LABELS[n]]), s.diffNorm, (v) => ctx.update({ diffNorm: v })));
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
    const unit = s.diffNorm === 'perCall' ? this.unitPicker(ctx, d) : undefined;
    const unitName = unit !== undefined ? d.methods.get(unit)!.class.replace(/^.*\./, '') + '.' + d.methods.get(unit)!.name : undefined;
    const norm = normaliseDiff(d, k, s.diffNorm, unit, unitName);
    // the colour says "grew more than the rest": shares of each run's total unless per call is chosen
    const shade = s.diffNorm === 'perCall' && unit !== undefined ? norm : normaliseDiff(d, k, 'percent');
    const shown = (side: 'b' | 'a', i: number): string => {
      const raw = side === 'b' ? b[i] : a[i];
      if (s.diffNorm === 'absolute' || norm.unit === '') return num(raw);
      const v = side === 'b' ? norm.before[i] : norm.after[i];
      return `${s.diffNorm === 'percent' ? `${v.toFixed(v >= 10 ? 1 : 2)} %` : perUnit(v)} (${num(raw)})`;
    };
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
    const describe = (i: number): string => `${title(i)}: ${shown('b', i)} → ${shown('a', i)}${norm.unit ? ` ${norm.unit}` : ''}`;
    this.flame.set({
      tree: d.tree, metric: k, zoom: findPath(d.tree, s.diffZoom, true), selected: -1, highlight: -1,
      color: (i) => diffColor(shade.before[i], shade.after[i], ctx.theme), label, title, describe,
      figure: (i) => `${shown('b', i)} → ${shown('a', i)}`,
      tooltip: (i) => {
        const m = d.methods.get(d.tree.method[i]);
        return el('div', { class: 'tip' }, el('div', { class: 'tip-title' }, label(i)), el('div', { class: 'tip-full' }, m ? frameTitle(m) : ''),
          el('div', {}, `${METRIC_LABELS[k]} (total): ${num(b[i])} → ${num(a[i])}, ${signed(a[i] - b[i], k)}`),
          el('div', {}, `share of each run: ${percent(b[0] ? b[i] / b[0] : 0)} → ${percent(a[0] ? a[i] / a[0] : 0)}`),
          ...(norm.unit && s.diffNorm === 'perCall' ? [el('div', {}, `${norm.unit}: ${perUnit(norm.before[i])} → ${perUnit(norm.after[i])}`)] : []),
          el('div', {}, `own: ${num(d.before.self[k][i])} → ${num(d.after.self[k][i])}`));
      },
    });
    this.renderLegend(ctx, s.diffNorm === 'perCall' && unit !== undefined ? `per call of ${unitName}` : 'share of each run\'s total');
    this.renderTables(ctx, d, s.diffNorm === 'absolute' ? undefined : norm);
  }

  /** The per-call unit: a method run on both sides, chosen from those called most (the first by default). */
  private unitPicker(ctx: AppContext, d: DiffTree): number | undefined {
    const calls = new Map<number, number>();
    const before = new Map<number, number>();
    for (let i = 1; i < d.tree.n; i++) {
      const m = d.tree.method[i];
      calls.set(m, (calls.get(m) ?? 0) + d.after.self.calls[i]);
      before.set(m, (before.get(m) ?? 0) + d.before.self.calls[i]);
    }
    const list = [...calls.entries()].filter(([m, c]) => c > 0 && (before.get(m) ?? 0) > 0)
      .sort((x, y) => y[1] - x[1]).slice(0, 60);
    if (list.length === 0) {
      this.info.textContent = 'No method ran in both profiles: nothing to count calls of.';
      return undefined;
    }
    const opts = list.map(([m, c]): [string, string] => {
      const e = d.methods.get(m)!;
      return [methodKey(e), `${e.class.replace(/^.*\./, '')}.${e.name} (${num(c)} calls after)`];
    });
    const wanted = ctx.state.diffUnit && opts.some(([key]) => key === ctx.state.diffUnit) ? ctx.state.diffUnit : opts[0][0];
    this.bar.append(select('Per call of', opts, wanted, (v) => ctx.update({ diffUnit: v })));
    return list.find(([m]) => methodKey(d.methods.get(m)!) === wanted)![0];
  }

  private renderLegend(ctx: AppContext, basis: string): void {
    clear(this.legend);
    const sw = (before: number, after: number, text: string): HTMLElement => {
      const s = el('span', { class: 'swatch' });
      s.style.background = diffColor(before, after, ctx.theme);
      return el('span', { class: 'legend-item' }, s, text);
    };
    this.legend.append(el('span', { class: 'legend-title' }, `Colour (${basis}):`), sw(1, 0, 'gone / shrank a lot'), sw(2, 1, 'shrank more than the rest'),
      sw(1, 1, 'changed as the rest'), sw(1, 2, 'grew more than the rest'), sw(0, 1, 'new / grew a lot'),
      el('span', { class: 'legend-note muted' }, 'width: before + after, so frames that vanished stay visible'));
  }

  private renderTables(ctx: AppContext, d: DiffTree, norm?: NormalisedSides): void {
    const k = allocationMetric(ctx.state.metric);
    const pathText = (i: number): string => pathOf(d.tree, i).map((m) => {
      const e = d.methods.get(m);
      return e ? shortFrame(e) : '?';
    }).join(' › ');
    // the table cell: the innermost frames, where contexts differ (the whole path is the cell's title)
    const tailText = (i: number): string => {
      const parts = pathText(i).split(' › ');
      return parts.length > 4 ? `… › ${parts.slice(-4).join(' › ')}` : parts.join(' › ');
    };
    const ctxCols: Array<Column<ContextChange>> = [
      { key: 'ctx', label: 'context', wide: true, cell: (r) => tailText(r.node), title: (r) => pathText(r.node) },
      { key: 'b', label: 'before', numeric: true, cell: (r) => num(r.before) },
      { key: 'a', label: 'after', numeric: true, cell: (r) => num(r.after) },
      { key: 'd', label: 'change', numeric: true, cell: (r) => el('span', { class: r.delta > 0 ? 'grow' : 'shrink' }, signed(r.delta, k)) },
    ];
    this.contextsHead.textContent = norm ? `Biggest changes by context (total, ${norm.unit})` : 'Biggest changes by context (own allocations)';
    if (norm) {
      // normalised: the frames whose share (or per-call figure) changed most, with the raw figures beside
      type Row = { node: number; before: number; after: number; change: number };
      const fmt = (v: number): string => (norm.unit === '% of total' ? `${v.toFixed(2)} %` : perUnit(v));
      const cols: Array<Column<Row>> = [
        { key: 'ctx', label: 'context (total)', wide: true, cell: (r) => tailText(r.node), title: (r) => pathText(r.node) },
        { key: 'b', label: `before, ${norm.unit}`, numeric: true, cell: (r) => fmt(r.before), title: (r) => `${num(d.before.total[k][r.node])} ${METRIC_LABELS[k]}` },
        { key: 'a', label: `after, ${norm.unit}`, numeric: true, cell: (r) => fmt(r.after), title: (r) => `${num(d.after.total[k][r.node])} ${METRIC_LABELS[k]}` },
        { key: 'd', label: 'change', numeric: true, cell: (r) => el('span', { class: r.change > 0 ? 'grow' : 'shrink' }, `${r.change > 0 ? '+' : ''}${fmt(r.change)}`) },
        { key: 'raw', label: 'absolute', numeric: true, cell: (r) => `${num(d.before.total[k][r.node])} → ${num(d.after.total[k][r.node])}` },
      ];
      renderTable(this.contexts, biggestRelativeGrowth(d, norm, 30), cols, {
        caption: 'Biggest changes by context, normalised',
        onActivate: (r) => ctx.update({ diffZoom: pathOf(d.tree, d.tree.parent[r.node]) }),
      });
    } else renderTable(this.contexts, biggestChanges(d, k, 30), ctxCols, {
      caption: 'Biggest changes by context',
      onActivate: (r) => ctx.update({ diffZoom: pathOf(d.tree, d.tree.parent[r.node]) }),
    });
    const metricOf = (t: TypeChange, side: 'before' | 'after'): number => t[side][k === 'calls' ? 'allocations' : k];
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
