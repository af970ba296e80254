// Callers and callees of one method (speedscope's sandwich): pick a method (from the list, the flame tree, the call
// tree table or the editor's CodeLens) and see every path that led to it above, everything it allocated below.
// Both halves are flame trees of the merged contexts; clicking a frame makes its method the one shown.
import { butterfly, Butterfly, methodsByTotal } from '../../core/views/butterfly';
import { frameTree, FrameTree, METRIC_LABELS, ViewMetric } from '../../core/views/frames';
import { packageOf } from '../../core/profile/names';
import { MctNode, MethodEntry } from '../../core/profile/types';
import { bytes, num, percent } from '../../core/format';
import { packageColor } from '../core/colors';
import { AppContext } from '../context';
import { clear, el, select, toggle } from './dom';
import { ToolbarView } from './toolbar-view';
import { FlameView } from './flame';
import { flameMetric, frameNames, threadOptions } from './flame-tab';
import { frameTooltip } from './tooltip';

interface Half {
  flame: FlameView;
  tree?: FrameTree;
  /** the merged tree the flattened one was built from */
  from?: MctNode;
}

export class ButterflyView extends ToolbarView {
  private readonly picker = el('input', { type: 'search', class: 'search bf-pick', placeholder: 'Method (type to filter, Enter to show)', 'aria-label': 'Method to show', list: 'bf-methods' });
  private readonly list = el('datalist', { id: 'bf-methods' });
  private readonly info = el('div', { class: 'view-info bf-summary' });
  private readonly callersHead = el('h2', {}, 'Callers: the paths that led to it');
  private readonly calleesHead = el('h2', {}, 'Callees: what it allocated, through any path');
  private readonly callers: Half;
  private readonly callees: Half;
  private readonly empty = el('div', { class: 'empty' });
  private ctx?: AppContext;
  private source?: FrameTree;
  private result?: Butterfly;
  private methods: ReadonlyMap<number, MethodEntry> = new Map();
  private listFor?: FrameTree;
  private byLabel = new Map<string, number>();

  constructor() {
    super('butterfly', 'Callers and callees');
    const half = (): Half => {
      const h: Half = {
        flame: new FlameView({
          zoom: (i) => this.pick(h, i),
          select: (i) => this.pick(h, i),
          open: (i) => h.tree && this.ctx && h.tree.method[i] >= 0 && this.ctx.open(h.tree.method[i]),
        }),
      };
      return h;
    };
    this.callers = half();
    this.callees = half();
    this.picker.addEventListener('change', () => this.choose());
    this.picker.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.choose();
    });
    this.root.append(this.list, this.info, this.empty,
      this.callersHead, this.callers.flame.root, this.calleesHead, this.callees.flame.root);
  }

  focus(): void {
    this.picker.focus();
  }

  themeChanged(): void {
    this.callers.flame.themeChanged();
    this.callees.flame.themeChanged();
  }

  private choose(): void {
    const id = this.byLabel.get(this.picker.value.trim());
    if (id !== undefined) this.ctx?.update({ focusMethod: id });
  }

  /** A frame clicked in either half: its method becomes the one shown (the centre frame stays). */
  private pick(h: Half, i: number): void {
    if (!h.tree || !this.ctx || i <= 0) return;
    const m = h.tree.method[i];
    if (m !== this.ctx.state.focusMethod) this.ctx.update({ focusMethod: m });
  }

  render(ctx: AppContext): void {
    this.ctx = ctx;
    const s = ctx.state;
    const metric: ViewMetric = flameMetric(ctx) === 'samples' ? 'allocations' : flameMetric(ctx);
    const tree = ctx.data.tree({ thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: false });
    this.methods = ctx.data.methods();
    this.renderBar(ctx, tree, metric);
    let focus = s.focusMethod;
    const known = focus !== null && this.methods.has(focus);
    if (!known) focus = null;
    this.source = tree;
    const hidden = focus === null;
    for (const e of [this.callersHead, this.callers.flame.root, this.calleesHead, this.callees.flame.root]) e.hidden = hidden;
    this.empty.hidden = !hidden;
    if (focus === null) {
      this.info.textContent = '';
      this.empty.textContent = 'Pick a method above, or press B on a frame in the flame tree or a row of the call tree, or use "Callers and callees" on a method\'s CodeLens in the editor.';
      return;
    }
    if (!this.result || this.result.method !== focus || this.source !== tree) this.result = butterfly(tree, focus);
    const b = this.result;
    const m = this.methods.get(focus)!;
    if (document.activeElement !== this.picker) this.picker.value = this.labelOf(m);
    const rootAllocs = tree.total.objects[0] + tree.total.arrays[0];
    clear(this.info);
    this.info.append(el('strong', {}, `${m.class}.${m.name}`),
      ` — ${num(b.totalAllocations)} allocations (${percent(rootAllocs ? b.totalAllocations / rootAllocs : 0)} of all), ${bytes(b.totalBytes)} through any path; `
      + `${num(b.selfAllocations)} allocations, ${bytes(b.selfBytes)} in its own code; ${num(b.calls)} calls in ${num(b.contexts)} calling context${b.contexts === 1 ? '' : 's'}.`);
    if (b.contexts === 0) {
      this.empty.hidden = false;
      this.empty.textContent = 'This method does not appear in this thread\'s tree (choose "All threads" or another thread).';
      for (const e of [this.callersHead, this.callers.flame.root, this.calleesHead, this.callees.flame.root]) e.hidden = true;
      return;
    }
    this.show(this.callers, b.callers, metric, 'callers of');
    this.show(this.callees, b.callees, metric, 'callees of');
  }

  private show(h: Half, root: MctNode, metric: ViewMetric, what: string): void {
    const ctx = this.ctx!;
    if (!h.tree || h.from !== root) {
      h.tree = frameTree(root, this.methods, ctx.data.profile.types);
      h.from = root;
    }
    const tree = h.tree;
    const methods = this.methods;
    const rootLabel = `${what} ${this.methods.get(this.result!.method)?.name ?? ''}`;
    const { label, title } = frameNames(tree, methods, rootLabel);
    const total = tree.total[metric];
    h.flame.set({
      tree, metric, zoom: tree.n > 1 ? 1 : 0, selected: -1, highlight: -1,
      color: (i) => {
        const m = methods.get(tree.method[i]);
        return m ? packageColor(packageOf(m.class), ctx.data.isMine(m.id), ctx.theme, `${m.class}.${m.name}`) : '#888';
      },
      label, title,
      describe: (i) => `${title(i)}: ${num(total[i])} ${METRIC_LABELS[metric]}`,
      tooltip: (i) => frameTooltip({ tree, methods, types: ctx.data.profile.types, metric, zoom: 1, rootLabel, mine: (m) => ctx.data.isMine(m) }, i),
    });
  }

  private labelOf(m: MethodEntry): string {
    return `${m.class}.${m.name}`;
  }

  private renderBar(ctx: AppContext, tree: FrameTree, metric: ViewMetric): void {
    const s = ctx.state;
    clear(this.bar);
    this.bar.append(
      select('Thread', threadOptions(ctx), String(s.thread), (v) => ctx.update({ thread: Number(v) })),
      el('span', { class: 'muted' }, `sized by ${METRIC_LABELS[metric]} (the flame tree's metric)`),
      toggle('Only my code', s.myCode, (v) => ctx.update({ myCode: v, zoom: [], selected: null }), 'Fold JDK and library frames into their callers'),
      this.picker,
    );
    if (this.listFor !== tree) {
      // the picker's list: methods by what they allocated through any path, largest first (the first 2,000)
      this.listFor = tree;
      this.byLabel.clear();
      const opts: HTMLOptionElement[] = [];
      for (const e of methodsByTotal(tree)) {
        const m = this.methods.get(e.method);
        if (!m) continue;
        const label = this.labelOf(m);
        if (this.byLabel.has(label)) continue;       // overloads: the largest one
        this.byLabel.set(label, e.method);
        if (opts.length < 2000) opts.push(el('option', { value: label }, `${num(e.allocations)} allocations, ${bytes(e.bytes)}`));
      }
      this.list.replaceChildren(...opts);
    }
  }
}

