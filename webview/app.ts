// The application: header (title, tabs, exports), the five views, the state and the host's messages.
import { modeTimeline, TreeKind, treeLabel } from '../core/profile/modes';
import { Profile, ProfileFile } from '../core/profile/types';
import { plusMinus, typeIntervals } from '../core/profile/estimates';
import { bytes, num } from '../core/format';
import { Theme } from './core/colors';
import { mark, timed } from './timing';
import { AppContext, View } from './context';
import { ProfileData, TreePending } from './data';
import { ProfileLoads } from './load/apply-profile';
import { LoadProgress } from './load/progress';
import { Host } from './host';
import { HostMessage, isHostMessage } from '../core/protocol/webview-protocol';
import { restoreState, UiState, ViewName, VIEWS } from './state';
import { AccountsView } from './views/accounts';
import { ArraysView } from './views/arrays';
import { ButterflyView } from './views/butterfly';
import { CallTreeView } from './views/call-tree';
import { HotSpotsView } from './views/hot-spots';
import { MemoryView } from './views/memory';
import { DiffView } from './views/diff';
import { button, clear, el, select } from './views/dom';
import { FlameTab } from './views/flame-tab';
import { LifetimesView } from './views/lifetimes';
import { SitesView } from './views/sites';
import { currentTheme, onThemeChange } from './views/theme';
import { ThreadsView } from './views/threads';
import { HeapView } from './views/heap';
import type { HeapViewData } from '../core/protocol/heap-rows';

export class App {
  state: UiState;
  data?: ProfileData;
  baseline?: ProfileData;
  live = false;
  readonly flame = new FlameTab();
  readonly heapView = new HeapView();
  heap?: HeapViewData;
  private readonly views: Record<ViewName, View> = {
    flame: this.flame, calltree: new CallTreeView(), butterfly: new ButterflyView(), hotspots: new HotSpotsView(), memory: new MemoryView(), sites: new SitesView(), arrays: new ArraysView(), threads: new ThreadsView(), diff: new DiffView(),
    heap: { root: this.heapView.root, render: () => this.renderHeap() },
    accounts: new AccountsView(),
    lifetimes: new LifetimesView(),
  };
  private readonly title = el('h1', { class: 'title' }, 'HeapLens');
  private readonly meta = el('div', { class: 'meta muted' });
  /** Which mode's data the views show, and the choice when the profile holds more than one. */
  private readonly dataLine = el('div', { class: 'data-line' });
  private readonly status = el('span', { class: 'status', 'aria-live': 'polite' });
  private readonly tabs = el('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Views' });
  private readonly actions = el('div', { class: 'actions' });
  private readonly main = el('main', { class: 'content' });
  private readonly error = el('div', { class: 'error', role: 'alert' });
  private readonly progress = new LoadProgress();
  private theme: Theme = currentTheme();
  /** the host's profile messages, loaded one at a time */
  readonly loads: ProfileLoads;

  constructor(private readonly host: Host, mount: HTMLElement) {
    this.state = restoreState(host.getState());
    this.loads = new ProfileLoads(this, host, this.progress, this.error);
    const header = el('header', { class: 'header' },
      el('div', { class: 'header-row' }, this.title, this.status, this.actions), this.meta, this.dataLine, this.tabs);
    this.error.hidden = true;
    mount.replaceChildren(header, this.progress.root, this.error, this.main);
    for (const v of VIEWS) {
      const b = el('button', { type: 'button', role: 'tab', class: 'tab', id: `tab-${v.id}`, title: `${v.label} (${v.key})` }, v.label);
      b.addEventListener('click', () => this.update({ view: v.id }));
      b.addEventListener('keydown', (e) => this.tabKey(e, v.id));
      this.tabs.append(b);
    }
    for (const v of Object.values(this.views)) this.main.append(v.root);
    document.addEventListener('keydown', (e) => this.globalKey(e));
    onThemeChange(() => {
      this.theme = currentTheme();
      for (const v of Object.values(this.views)) v.themeChanged?.();
      this.render();
    });
    host.onMessage((msg) => {
      if (isHostMessage(msg)) this.receive(msg);
    });
  }

  receive(msg: HostMessage): void {
    if (msg.type === 'profile') this.loads.receive(msg);
    else if (msg.type === 'baseline') {
      this.baseline = this.load(msg.profile, msg.title) ?? this.baseline;
      this.update({ view: 'diff', diffZoom: [] });
    } else if (msg.type === 'heap') {
      this.heap = msg.heap;
      if (msg.reveal) this.update({ view: 'heap' });
      else this.render();
    } else if (msg.type === 'showMethod') {
      this.pendingMethod = msg.frame;
      this.applyMethod();
    } else if (msg.type === 'status') {
      this.status.textContent = msg.text;
      if (msg.live !== undefined) this.live = msg.live;
      this.renderHeader();
    }
  }

  show(data: ProfileData, live: boolean): void {
    this.data = data;
    this.live = live;
    timed('render', () => this.render());
    mark('rendered');
    this.applyMethod();
  }

  /** Whether the last profile was loaded by the worker (false: parsed on the page's thread). */
  get usesWorker(): boolean {
    return !!this.loads.loader && !!this.data && !this.data.helper;
  }

  /** Resolves when the profile is shown and no tree is being built (the measurement page waits for it). */
  async settled(): Promise<void> {
    for (;;) {
      if (this.loads.loading) await this.loads.loading;
      if (!this.loads.loader?.pendingTrees) return;
      await new Promise((r) => setTimeout(r, 1));
    }
  }

  private pendingMethod?: { class: string; method: string; desc: string };

  /** The editor asked for one method's callers and callees: find it by signature once the profile is here. */
  private applyMethod(): void {
    const f = this.pendingMethod;
    if (!f || !this.data) return;
    this.pendingMethod = undefined;
    const m = [...this.data.profile.methods.values()].find((e) => e.class === f.class && e.name === f.method && e.desc === f.desc);
    if (m) this.update({ view: 'butterfly', focusMethod: m.id });
    else {
      this.error.textContent = `${f.class}.${f.method} does not appear in this profile.`;
      this.error.hidden = false;
    }
  }

  load(file: ProfileFile, title: string): ProfileData | undefined {
    try {
      const d = new ProfileData(file, title);
      this.error.hidden = true;
      return d;
    } catch (e) {
      this.error.textContent = `Cannot show ${title}: ${(e as Error).message}`;
      this.error.hidden = false;
      return undefined;
    }
  }

  update(patch: Partial<UiState>): void {
    const viewChanged = patch.view !== undefined && patch.view !== this.state.view;
    this.state = { ...this.state, ...patch };
    this.host.setState(this.state);
    this.render();
    if (viewChanged) this.views[this.state.view].focus?.();
  }

  context(): AppContext | undefined {
    if (!this.data) return undefined;
    return {
      data: this.data, baseline: this.baseline, state: this.state, theme: this.theme, hostKind: this.host.kind, live: this.live,
      update: (p) => this.update(p),
      post: (m) => this.host.post(m),
      open: (method, line, methods) => {
        const m = (methods ?? this.data!.profile.methods).get(method);
        if (m) this.host.post({ type: 'navigate', frame: { class: m.class, method: m.name, desc: m.desc, file: m.file, line: line ?? m.line } });
      },
      pickBaseline: () => this.host.post({ type: 'pickBaseline' }),
    };
  }

  render(): void {
    this.data?.useTree(this.state.data);
    this.baseline?.useTree(this.state.data);
    this.renderHeader();
    const ctx = this.context();
    for (const v of VIEWS) {
      const active = v.id === this.state.view;
      this.views[v.id].root.hidden = !active;
      const tab = this.tabs.querySelector(`#tab-${v.id}`)!;
      tab.setAttribute('aria-selected', String(active));
      tab.setAttribute('tabindex', active ? '0' : '-1');
    }
    if (this.state.view === 'heap') {
      this.renderHeap();          // a heap dump needs no profile
      return;
    }
    if (!ctx) {
      this.views[this.state.view].root.hidden = true;
      return;
    }
    if (ctx.data.partial && this.state.view === 'flame') this.progress.hide();
    if (ctx.data.partial && this.state.view !== 'flame') {
      // a first section's data: only the flame tree is in it
      this.views[this.state.view].root.hidden = true;
      this.progress.show('Loading the whole profile…');
      return;
    }
    try {
      this.views[this.state.view].render(ctx);
    } catch (e) {
      // a tree the worker is still building: drawn again when it arrives (LoadWorker's `arrived`)
      if (!(e instanceof TreePending)) throw e;
      this.progress.show('Building the tree…');
    }
  }

  private renderHeap(): void {
    this.heapView.render(this.heap, (m) => this.host.post(m), this.host.kind === 'vscode');
  }

  private renderHeader(): void {
    const d = this.data;
    this.title.textContent = d ? `HeapLens — ${d.title}` : this.heap ? `HeapLens — ${this.heap.title}` : 'HeapLens';
    if (d) {
      const m = d.file.meta;
      const jvm = m.jvm ? `${m.jvm.name ?? ''} ${m.jvm.version ?? ''}`.trim() : '';
      this.meta.textContent = [m.command, jvm, m.final ? 'final' : this.live ? 'live' : 'not final (periodic write)',
        new Date(m.writeTime).toLocaleString(), 'byte figures are estimates'].filter(Boolean).join(' · ');
      this.renderDataLine(d.kind, d.kinds, modeTimeline(d.profile));
    } else {
      // no profile (a first section taken down: the file is not a whole profile)
      this.meta.textContent = '';
      clear(this.dataLine);
    }
    this.status.classList.toggle('live', this.live);
    if (this.live && !this.status.textContent) this.status.textContent = 'live';
    clear(this.actions);
    const post = this.host.post.bind(this.host);
    if (!d) return;                 // a heap dump alone: nothing to export
    // the exports follow the flame tab's metric: CPU samples export the CPU stacks
    const m = this.state.metric;
    const metric = m === 'calls' || (m === 'samples' && !d.cpu()) ? 'allocations' : m;
    const what = metric === 'samples' ? 'CPU samples' : metric;
    this.actions.append(
      button('Collapsed', 'export', () => post({ type: 'export', format: 'collapsed', metric, tree: d?.kind }), `Export collapsed stacks (${what})`),
      button('Speedscope', 'export', () => post({ type: 'export', format: 'speedscope', metric, tree: d?.kind }), `Export speedscope JSON (${what})`),
      // pprof holds allocations and bytes together (allocation data only: CPU samples stay in the other exports)
      button('pprof', 'export', () => post({ type: 'export', format: 'pprof', metric: 'bytes', tree: d?.kind }),
        'Export gzipped pprof (allocations and bytes) for go tool pprof, Pyroscope, Parca or Grafana'),
    );
    if (this.host.kind === 'vscode' && this.live) {
      this.actions.append(button('Snapshot', 'device-camera', () => post({ type: 'snapshot' }), 'Save a snapshot of the live profile'));
      this.actions.append(button('Heap Dump', 'database', () => post({ type: 'heapDump' }), 'Take a heap dump (live objects) and show it in the Heap view'));
    }
  }

  private renderDataLine(kind: TreeKind, kinds: TreeKind[], timeline: string): void {
    clear(this.dataLine);
    this.dataLine.classList.toggle('estimate', kind === 'sampled' || kind === 'traces');
    this.dataLine.title = 'Every view shows this data. A profile holds one tree per mode it ran in (see the mode timeline above).';
    if (kinds.length > 1) {
      const jfr = this.data?.file.meta.imported?.from === 'jfr';      // an imported recording: its own words for its two trees
      const names: Record<TreeKind, string> = {
        exact: 'Exact: calling contexts', sites: 'Sites: exact per site',
        traces: jfr ? 'JFR: old-object samples' : 'Sites: sampled traces', sampled: jfr ? 'JFR: allocation estimates' : 'Sampled: estimates',
      };
      this.dataLine.append(select('Data', kinds.map((k) => [k, names[k]] as [TreeKind, string]), kind, (v) => this.update({ data: v, zoom: [], selected: null })));
    }
    // the accounts and lifetime modes record no call tree: say where their data is instead of naming an empty tree
    const lifetime = this.data?.file.meta.mode === 'lifetime';
    const label = lifetime ? 'object lifetimes of the tracked objects (lifetime mode: see the Lifetimes tab)'
      : kinds.length === 0 && this.data?.accounts() ? 'no call tree (accounts mode): memory accounts in the Accounts view' : treeLabel(kind, this.data?.profile);
    // the flame tab's "CPU samples" metric shows the threads profile instead: say so where the data is named
    const cpu = this.state.view === 'flame' && this.state.metric === 'samples' && this.data?.cpu();
    this.dataLine.classList.toggle('cpu', !!cpu);
    this.dataLine.append(el('span', { class: 'data-label' }, cpu ? `Data: CPU samples of the threads profile (the other views: ${label})` : `Data: ${label}`),
      el('span', { class: 'muted mode-timeline' }, `Modes: ${timeline}`));
    if (kind === 'sampled' && !cpu && this.data) this.appendIntervals(this.data.profile);
  }

  /** sampler=jvmti or jfr: the interval the agent states for each type's estimate (largest types first). */
  private appendIntervals(profile: Profile): void {
    const rows = typeIntervals(profile);
    if (!rows.length) return;
    const shown = rows.slice(0, 20);
    const list = el('ol', { class: 'interval-list' }, ...shown.map((t) => el('li', {},
      `${t.name}: ${num(t.count)} ${plusMinus(t.count, t.countSd)}, ${bytes(t.bytes)} ${plusMinus(t.bytes, t.bytesSd)}`)));
    this.dataLine.append(el('details', { class: 'intervals' },
      el('summary', {}, `Estimate intervals (95 %) of the ${shown.length} largest of ${rows.length} types`), list,
      el('div', { class: 'muted' }, profile.file.meta.sampler === 'jfr'
        ? 'Each estimate ± 1.96 standard deviations, as the agent states them for the whole run. They hold when the program allocates in an order unrelated to TLAB boundaries (docs/modes.md, "sampler=jfr").'
        : 'Each estimate ± 1.96 standard deviations, as the agent states them for the whole run: HotSpot picks the sampled allocations at random, each with a chance that depends only on its size (docs/modes.md, "sampler=jvmti").')));
  }

  private tabKey(e: KeyboardEvent, id: ViewName): void {
    const k = VIEWS.findIndex((v) => v.id === id);
    const to = e.key === 'ArrowRight' ? VIEWS[(k + 1) % VIEWS.length] : e.key === 'ArrowLeft' ? VIEWS[(k - 1 + VIEWS.length) % VIEWS.length] : undefined;
    if (!to) return;
    e.preventDefault();
    this.update({ view: to.id });
    (this.tabs.querySelector(`#tab-${to.id}`) as HTMLElement).focus();
  }

  private globalKey(e: KeyboardEvent): void {
    const t = e.target as HTMLElement;
    if (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA' || e.ctrlKey || e.metaKey || e.altKey) return;
    const v = VIEWS.find((x) => x.key === e.key);
    if (v) {
      this.update({ view: v.id });
      e.preventDefault();
    } else if (e.key === '/' && this.state.view === 'flame') {
      (this.main.querySelector('.view-flame input.search') as HTMLInputElement | null)?.focus();
      e.preventDefault();
    }
  }
}
