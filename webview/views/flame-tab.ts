// The Flame tree view: thread, metric, inverted / only my code / collapse recursion, search with
// next and previous match, the flame tree itself and the package legend. The metric "CPU samples" shows the
// threads profile's CPU trees (cpu-flame.ts) in the same flame tree, with their own threads and a label.
import { ALLOCATION_METRICS, findPath, FrameTree, METRIC_LABELS, pathOf, ViewMetric } from '../../core/views/frames';
import { cpuLabel } from '../../core/views/cpu-flame';
import { MethodEntry } from '../../core/profile/types';
import { packageOf, shortFrame } from '../../core/profile/names';
import { accountIndexOf } from '../../core/views/accounts';
import { methodsInSteps, selfByMethod } from '../../core/views/method-sums';
import { packagePalette, Theme } from '../core/colors';
import { accountColor } from './accounts';
import { bytes, num, percent } from '../../core/format';
import { search, SearchResult } from '../core/search';
import { AppContext } from '../context';
import { button, clear, el, select, toggle } from './dom';
import { ToolbarView } from './toolbar-view';
import { FlameView } from './flame';
import { frameTooltip } from './tooltip';
import { timed } from '../timing';

/** A frame's short label (`Parser.parse`) and full title (`com.acme.Parser.parse`); the root's is `rootLabel`. */
export function frameNames(tree: FrameTree, methods: ReadonlyMap<number, MethodEntry>, rootLabel: string):
  { label: (i: number) => string; title: (i: number) => string } {
  return {
    label: (i) => {
      const m = methods.get(tree.method[i]);
      return m ? shortFrame(m) : rootLabel;
    },
    title: (i) => {
      const m = methods.get(tree.method[i]);
      return m ? `${m.class}.${m.name}` : rootLabel;
    },
  };
}

export function threadOptions(ctx: AppContext, cpu = false): Array<[string, string]> {
  return [['-1', 'All threads (merged)'], ...ctx.data.threads(cpu).map((t): [string, string] => [String(t.id), t.name])];
}

/** The allocation metrics, and "CPU samples" when `withCpu` (the profile has CPU samples). */
export function metricOptions(withCpu = false): Array<[ViewMetric, string]> {
  const list: ViewMetric[] = withCpu ? [...ALLOCATION_METRICS, 'samples'] : [...ALLOCATION_METRICS];
  return list.map((m) => [m, METRIC_LABELS[m]]);
}

/** Whether the flame tree shows CPU samples: the metric asks for them and the profile has some. */
export function showsCpu(ctx: AppContext): boolean {
  return ctx.state.metric === 'samples' && !!ctx.data.cpu();
}

/** A patch for showing allocation data in the flame tab (a table row's context): leaves CPU samples if chosen. */
export function allocationsPatch(ctx: AppContext): { metric?: ViewMetric } {
  return ctx.state.metric === 'samples' ? { metric: 'allocations' } : {};
}

/** The metric the flame tree sizes frames by (CPU samples asked of a profile without any: objects). */
export function flameMetric(ctx: AppContext): ViewMetric {
  return ctx.state.metric === 'samples' && !ctx.data.cpu() ? 'allocations' : ctx.state.metric;
}

export class FlameTab extends ToolbarView {
  private readonly searchBar = el('div', { class: 'toolbar search-bar' });
  private readonly query = el('input', { type: 'search', class: 'search', placeholder: 'Search frames (text or /regex/)', 'aria-label': 'Search frames' });
  private readonly matchInfo = el('span', { class: 'match-info', 'aria-live': 'polite' });
  private readonly legend = el('div', { class: 'legend', 'aria-label': 'Colours by package' });
  /** says that the frames are CPU samples, not allocations (shown only then) */
  private readonly cpuNote = el('div', { class: 'cpu-note', role: 'note' });
  private readonly flame: FlameView;
  private ctx?: AppContext;
  private tree?: FrameTree;
  /** the methods and metric of the tree shown (the CPU tree has methods of its own, see ProfileData.methods) */
  private methods: ReadonlyMap<number, MethodEntry> = new Map();
  private metric: ViewMetric = 'allocations';
  private found?: { key: string; result: SearchResult };
  private colors = new Map<number, string>();
  private colorTheme?: Theme;
  /** the package colours of the tree shown (packagePalette): built again with the tree or the theme */
  private pkgColor?: { tree: FrameTree; theme: Theme; color: (pkg: string, mine: boolean, variant?: string) => string };
  private lastSelected = '';

  constructor() {
    super('flame', 'Flame tree');
    this.flame = new FlameView({
      zoom: (i) => this.ctx && this.tree && this.ctx.update({ zoom: pathOf(this.tree, i), selected: pathOf(this.tree, i) }),
      select: (i) => this.ctx && this.tree && this.ctx.update({ selected: pathOf(this.tree, i) }),
      open: (i) => this.ctx && this.tree && this.tree.method[i] >= 0 && this.ctx.open(this.tree.method[i], undefined, this.methods),
      butterfly: (i) => this.ctx && this.tree && this.tree.method[i] >= 0 && !showsCpu(this.ctx) && this.ctx.update({ view: 'butterfly', focusMethod: this.tree.method[i] }),
    });
    this.query.addEventListener('input', () => this.ctx?.update({ query: this.query.value, match: -1 }));
    this.query.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.step(e.shiftKey ? -1 : 1);
      if (e.key === 'Escape') this.ctx?.update({ query: '', match: -1 });
    });
    const prev = button('', 'arrow-up', () => this.step(-1), 'Previous match (Shift+Enter)');
    const next = button('', 'arrow-down', () => this.step(1), 'Next match (Enter)');
    this.searchBar.append(el('span', { class: 'codicon codicon-search', 'aria-hidden': 'true' }), this.query, prev, next, this.matchInfo);
    this.root.append(this.cpuNote, this.searchBar, this.flame.root, this.legend);
  }

  focus(): void {
    this.flame.focus();
  }

  themeChanged(): void {
    this.colors.clear();
    this.flame.themeChanged();
  }

  /** The tree drawn last (the measurement page waits for the one it asked for). */
  get shownTree(): FrameTree | undefined {
    return this.tree;
  }

  /** The flame component (the measurement page drives it directly). */
  get component(): FlameView {
    return this.flame;
  }

  render(ctx: AppContext): void {
    this.ctx = ctx;
    const s = ctx.state;
    if (this.colorTheme !== ctx.theme) {
      this.colors.clear();
      this.colorTheme = ctx.theme;
    }
    const cpu = showsCpu(ctx);
    const metric = flameMetric(ctx);
    this.renderBar(ctx, cpu, metric);
    this.renderCpuNote(ctx, cpu);
    const tree = ctx.data.tree({ thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: s.inverted, cpu });
    if (tree !== this.tree) this.colors.clear();
    this.tree = tree;
    const zoom = findPath(tree, s.zoom, true);
    const selected = s.selected ? findPath(tree, s.selected) : -1;
    // the highlight is an allocation context (from the sites or arrays table): not shown on the CPU tree
    const highlight = s.highlight && !s.inverted && !cpu ? findPath(tree, s.highlight) : -1;
    this.methods = ctx.data.methods(cpu);
    this.metric = metric;
    const methods = this.methods;
    const found = this.searchFor(ctx, tree, zoom);
    if (this.query.value !== s.query) this.query.value = s.query;
    const rootLabel = s.thread === -1 ? 'all threads' : ctx.data.threadName(s.thread, cpu);
    const { label, title } = frameNames(tree, methods, rootLabel);
    const total = tree.total[metric];
    const interval = ctx.data.cpu()?.intervalMillis ?? 0;
    this.flame.set({
      tree, metric, zoom, selected, highlight, hit: found?.hit,
      color: (i) => this.color(ctx, tree, i), label, title,
      figure: (i) => `${metric === 'bytes' ? bytes(total[i]) : num(total[i])} · ${percent(total[0] ? total[i] / total[0] : 0)}`,
      describe: (i) => `${title(i)}: ${num(total[i])} ${METRIC_LABELS[metric]} (${percent(total[0] ? total[i] / total[0] : 0)})`,
      tooltip: (i) => frameTooltip({
        tree, methods, types: ctx.data.profile.types, metric, zoom, rootLabel, mine: (m) => ctx.data.isMine(m),
        cpuIntervalMillis: cpu ? interval : undefined,
      }, i),
    });
    // a selection made in another view (the call tree table): scroll its row into view once
    const selKey = s.selected ? s.selected.join(',') : '';
    if (selKey !== this.lastSelected) {
      this.lastSelected = selKey;
      if (selected >= zoom && selected < tree.end[zoom]) this.flame.reveal(selected);
    }
    this.renderMatchInfo(found, s.match);
    this.scheduleLegend(ctx, tree, zoom);
  }

  private legendTimer?: ReturnType<typeof setTimeout>;
  private legendTree?: FrameTree;

  /**
   * A new tree's legend after its frames are on screen (a task of its own): on a large tree its pass over the zoomed
   * subtree would delay the first paint. The same tree again (search, zoom, metric) gets it at once, as before.
   */
  private scheduleLegend(ctx: AppContext, tree: FrameTree, zoom: number): void {
    if (this.legendTimer !== undefined) clearTimeout(this.legendTimer);
    this.legendTimer = undefined;
    if (tree === this.legendTree) {
      timed('legend', () => this.renderLegend(ctx, tree, zoom));
      return;
    }
    this.legendTimer = setTimeout(() => {
      this.legendTimer = undefined;
      this.legendTree = tree;
      timed('legend', () => this.renderLegend(ctx, tree, zoom));
    }, 0);
  }

  private renderBar(ctx: AppContext, cpu: boolean, metric: ViewMetric): void {
    const s = ctx.state;
    clear(this.bar);
    const threads = threadOptions(ctx, cpu);
    const thread = threads.some(([id]) => id === String(s.thread)) ? String(s.thread) : '-1';
    this.bar.append(
      select('Thread', threads, thread, (v) => ctx.update({ thread: Number(v), zoom: [], selected: null })),
      // frames are method-id paths in both kinds of tree: zoom and selection survive the switch where they exist
      select('Metric', metricOptions(!!ctx.data.cpu()), metric, (v) => ctx.update({ metric: v })),
      toggle('Inverted', s.inverted, (v) => ctx.update({ inverted: v, zoom: [], selected: null }), 'Bottom-up: the allocating methods on top, their callers below (callers holding under 0.01 % of everything stay folded into the frame above)'),
      toggle('Only my code', s.myCode, (v) => ctx.update({ myCode: v, zoom: [], selected: null }), 'Fold JDK and library frames into their callers'),
      toggle('Collapse recursion', s.collapseRecursion, (v) => ctx.update({ collapseRecursion: v, zoom: [], selected: null }), 'Merge recursive calls into the outermost frame'),
      ...(ctx.data.accounts() ? [toggle('Colour by account', s.colorByAccount, (v) => ctx.update({ colorByAccount: v }),
        'Colour frames by memory account (a frame outside every account takes its caller\'s)')] : []),
      button('Reset zoom', 'home', () => ctx.update({ zoom: [] }), 'Zoom out to the root (Home)'),
      button('Open source', 'go-to-file', () => {
        const sel = this.tree && s.selected ? findPath(this.tree, s.selected) : -1;
        if (sel > 0 && this.tree) ctx.open(this.tree.method[sel], undefined, this.methods);
      }, 'Open the selected frame\'s source (O)'),
      ...(cpu ? [] : [button('Callers & callees', 'type-hierarchy', () => {
        const sel = this.tree && s.selected ? findPath(this.tree, s.selected) : -1;
        ctx.update({ view: 'butterfly', ...(sel > 0 && this.tree ? { focusMethod: this.tree.method[sel] } : {}) });
      }, 'Every caller and callee of the selected frame\'s method, all its contexts merged (B)')]),
    );
  }

  private searchFor(ctx: AppContext, tree: FrameTree, zoom: number): SearchResult | undefined {
    const s = ctx.state;
    if (!s.query.trim()) {
      this.found = undefined;
      return undefined;
    }
    const key = `${s.query}|${this.metric}|${zoom}`;
    if (!this.found || this.found.key !== key || this.tree !== tree) {
      this.found = { key, result: search(tree, this.methods, s.query, this.metric, zoom) };
    }
    return this.found.result;
  }

  /** Matches inside the zoomed frame that have a width for the metric, in tree order. */
  private visibleMatches(): number[] {
    const tree = this.tree;
    const ctx = this.ctx;
    if (!tree || !ctx || !this.found) return [];
    const zoom = findPath(tree, ctx.state.zoom, true);
    const total = tree.total[this.metric];
    return this.found.result.matches.filter((i) => i >= zoom && i < tree.end[zoom] && total[i] > 0);
  }

  private step(dir: 1 | -1): void {
    const ctx = this.ctx;
    const tree = this.tree;
    const list = this.visibleMatches();
    if (!ctx || !tree || list.length === 0) return;
    const k = ctx.state.match < 0 ? (dir > 0 ? 0 : list.length - 1) : (ctx.state.match + dir + list.length) % list.length;
    ctx.update({ match: k, selected: pathOf(tree, list[k]) });
    this.flame.reveal(list[k]);
  }

  private renderMatchInfo(found: SearchResult | undefined, match: number): void {
    if (!found) {
      this.matchInfo.textContent = '';
      return;
    }
    const n = this.visibleMatches().length;
    const at = match >= 0 && match < n ? `${match + 1} of ${n}` : `${n} match${n === 1 ? '' : 'es'}`;
    this.matchInfo.textContent = n === 0 ? 'no match' : `${at} · ${percent(found.share)} of the total`;
  }

  private accountFrames?: { tree: FrameTree; account: Int32Array; color: (name: string) => string; names: string[] };

  /** Colour by memory account: a frame's account is its class's, else its caller's (Bouché et al. 2009 principal–agent). */
  private accountColor(ctx: AppContext, tree: FrameTree, i: number): string | undefined {
    const a = ctx.state.colorByAccount ? ctx.data.accounts() : undefined;
    if (!a) return undefined;
    if (this.accountFrames?.tree !== tree) {
      const account = new Int32Array(tree.n);
      for (let k = 0; k < tree.n; k++) {
        const m = this.methods.get(tree.method[k]);
        const own = m ? accountIndexOf(a.names, m.class) : 0;
        const p = tree.parent[k];
        account[k] = own > 0 || ctx.state.inverted || p < 0 || p >= k ? own : account[p];
      }
      this.accountFrames = { tree, account, color: accountColor(a), names: a.names };
    }
    const f = this.accountFrames;
    return f.color(f.names[f.account[i]]);
  }

  private color(ctx: AppContext, tree: FrameTree, i: number): string {
    const byAccount = this.accountColor(ctx, tree, i);
    if (byAccount) return byAccount;
    const m = tree.method[i];
    let c = this.colors.get(m);
    if (c === undefined) {
      const e = this.methods.get(m);
      c = e ? this.paletteFor(ctx, tree)(packageOf(e.class), ctx.data.isMine(m), `${e.class}.${e.name}`) : ctx.theme === 'light' ? '#d0d0d0' : '#4a4a4a';
      this.colors.set(m, c);
    }
    return c;
  }

  private paletteFor(ctx: AppContext, tree: FrameTree): (pkg: string, mine: boolean, variant?: string) => string {
    if (this.pkgColor?.tree !== tree || this.pkgColor.theme !== ctx.theme) {
      const steps = this.paletteSteps(ctx, tree, Infinity);
      while (!steps.next().done) { /* at once */ }
    }
    return this.pkgColor!.color;
  }

  /** The package colours of the tree's methods, in slices of about `every` nodes. */
  private *paletteSteps(ctx: AppContext, tree: FrameTree, every: number): Generator<void> {
    if (tree.section) {
      // a first section's tree: the packages of the whole tree's classes, as the whole tree gives them
      const pkgs = tree.section.classes.map((c) => ({ pkg: packageOf(c.class), mine: ctx.data.isMineClass(c.class, c.profiled) }));
      this.pkgColor = { tree, theme: ctx.theme, color: packagePalette(pkgs, ctx.theme) };
      return;
    }
    const seen = new Map<number, { pkg: string; mine: boolean }>();
    for (const m of yield* methodsInSteps(tree, 1, tree.n, every)) {
      const e = this.methods.get(m);
      if (e) seen.set(m, { pkg: packageOf(e.class), mine: ctx.data.isMine(m) });
    }
    this.pkgColor = { tree, theme: ctx.theme, color: packagePalette(seen.values(), ctx.theme) };
  }

  /**
   * What the first render of a large allocation tree costs before it draws, in slices (app.ts runs them in tasks of
   * their own): the canvas and its font, the package palette over the tree's methods, the layout of the first view.
   * render() then finds them done and only draws: the same frames, in the same colours.
   */
  *ahead(ctx: AppContext): Generator<void> {
    const s = ctx.state;
    if (s.view !== 'flame' || showsCpu(ctx)) return;
    this.flame.warmUp();
    yield;
    const tree = ctx.data.tree({ thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: s.inverted, cpu: false });
    this.methods = ctx.data.methods(false);
    yield* this.paletteSteps(ctx, tree, 100_000);
    yield;
    yield* this.flame.layOutAhead(tree, flameMetric(ctx), findPath(tree, s.zoom, true));
  }

  private renderCpuNote(ctx: AppContext, cpu: boolean): void {
    const c = ctx.data.cpu();
    this.cpuNote.hidden = !cpu || !c;
    if (!cpu || !c) return;
    const t = ctx.data.file.threadsProfile?.threads.find((x) => x.id === ctx.state.thread && x.samples > 0);
    const chosen = t ? ` "${t.name}": ${num(t.samples)} samples, ${num(Math.round(t.cpuNanos / 1e6))} ms of CPU time.` : '';
    this.cpuNote.textContent = `${cpuLabel(c.intervalMillis, ctx.data.file.threadsProfile?.source)} (${num(c.samples)} samples in ${ctx.data.threads(true).length} threads).${chosen}`;
  }

  private renderLegend(ctx: AppContext, tree: FrameTree, zoom: number): void {
    // per method first (typed, one pass over the zoomed subtree), then per package
    const byPkg = new Map<string, { v: number; mine: boolean; method: number }>();
    if (tree.section && zoom === 0) {
      // a first section's tree: the whole tree's sums per class (as selfByMethod's, 1e-9 per method)
      for (const c of tree.section.classes) {
        const pkg = packageOf(c.class);
        const have = byPkg.get(pkg) ?? { v: 0, mine: false, method: -1 };
        have.v += c.self[this.metric] + c.methods * 1e-9;
        have.mine ||= ctx.data.isMineClass(c.class, c.profiled);
        byPkg.set(pkg, have);
      }
    }
    const byMethod = byPkg.size > 0 ? new Map<number, number>() : selfByMethod(tree, this.metric, zoom);
    for (const [m, v] of byMethod) {
      const e = this.methods.get(m);
      if (!e) continue;
      const pkg = packageOf(e.class);
      // "my code" when any of its methods is (not the first one met: a first section lists classes, not the tree's order)
      const have = byPkg.get(pkg) ?? { v: 0, mine: false, method: e.id };
      have.v += v;
      have.mine ||= ctx.data.isMine(e.id);
      byPkg.set(pkg, have);
    }
    clear(this.legend);
    const top = [...byPkg.entries()].sort((a, b) => b[1].v - a[1].v).slice(0, 12);
    if (top.length === 0) return;                   // nothing drawn (e.g. a run that stayed paused): no empty heading
    this.legend.append(el('span', { class: 'legend-title' }, 'Packages:'));
    for (const [pkg, info] of top) {
      const sw = el('span', { class: 'swatch' });
      sw.style.background = this.paletteFor(ctx, tree)(pkg, info.mine);
      this.legend.append(el('span', { class: 'legend-item', title: info.mine ? 'my code' : 'JDK / library' }, sw, pkg || '(default package)'));
    }
    if (byPkg.size > top.length) this.legend.append(el('span', { class: 'legend-item muted' }, `+${byPkg.size - top.length} more`));
    this.legend.append(el('span', { class: 'legend-note muted' }, ctx.state.query.trim()
      ? 'searching: matches in magenta, every other frame dimmed'
      : 'warm colours: my code · cool colours: JDK and libraries · one hue per package'));
  }
}
