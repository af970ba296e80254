// The application: header (title, tabs, exports), the five views, the state and the host's messages.
import { modeTimeline, TreeKind, treeLabel } from '../core/profile/modes';
import { Profile, ProfileFile } from '../core/profile/types';
import { plusMinus, typeIntervals } from '../core/profile/estimates';
import { bytes, num } from '../core/format';
import { Theme } from './core/colors';
import { timed } from './timing';
import { nextTask, runInTasks } from './tasks';
import { AppContext, View } from './context';
import { ProfileData, TreeOptions, TreePending, treeKey } from './data';
import { LoadWorker } from './load/loader';
import { FetchFailed, fetchBytes, profileBytesText } from './load/fetch-profile';
import { builtColumns, builtRecords, whenParsed } from './load/built-tree';
import { EmbeddedTrees } from './load/embedded-trees';
import { unpackTree } from './load/tree-pack';
import { joinTrees, ThreadTrees } from '../core/profile/tree-split';
import { LoadProgress } from './load/progress';
import { Host } from './host';
import { BuiltTree, HostMessage, isHostMessage } from '../core/protocol/webview-protocol';
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
  /** the load worker: undefined until the first profile text, null when this page cannot run one */
  private loader?: LoadWorker | null;
  private loading?: Promise<void>;
  private theme: Theme = currentTheme();
  private pendingProfile?: HostMessage & { type: 'profile' };
  private frame = 0;

  constructor(private readonly host: Host, mount: HTMLElement) {
    this.state = restoreState(host.getState());
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
    if (msg.type === 'profile') {
      // live updates can arrive faster than we paint: keep the newest, build once per frame
      this.pendingProfile = msg;
      // the first profile has nothing to wait for: waiting for the next frame only delays the first paint (a new
      // panel's first frame can take long to come)
      if (!this.data && !this.loading && !this.frame) void this.applyProfile();
      else if (!this.frame) this.frame = requestAnimationFrame(() => this.applyProfile());
    } else if (msg.type === 'baseline') {
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

  /** One load is over: the newest profile that came meanwhile is applied next. */
  private loadEnded(): Promise<void> | undefined {
    this.loading = undefined;
    return this.pendingProfile ? this.applyProfile() : undefined;
  }

  /**
   * Applies the newest pending profile (also used by the report, which has its data at start). A profile sent as
   * JSON text is parsed and flattened by the load worker while this thread shows progress; one load at a time, the
   * newest profile waiting meanwhile (live updates). Resolves when the profile is shown.
   */
  applyProfile(): Promise<void> {
    this.frame = 0;
    if (this.loading) return this.loading;          // applied when the current load ends
    const msg = this.pendingProfile;
    this.pendingProfile = undefined;
    if (!msg) return Promise.resolve();
    if (msg.built && msg.json !== undefined) {
      this.loading = this.applyBuilt(msg.json, msg.built, msg.title, msg.live).catch((e: Error) => {
        this.progress.hide();
        this.error.textContent = `Cannot show ${msg.title}: ${e.message}`;
        this.error.hidden = false;
      }).then(() => this.loadEnded());
      return this.loading;
    }
    if (msg.url !== undefined) return this.applyFetched(msg, msg.url);
    // small profiles are parsed here (a worker's start and the copy of the text cost more than they save)
    const large = msg.json !== undefined && msg.json.length >= App.WORKER_FROM;
    const worker = large ? this.worker() : undefined;
    if (msg.json !== undefined && worker && large) {
      const s = this.state;
      if (!this.data) this.progress.show('Loading the profile…');
      const json = msg.json;
      this.loading = worker.load(json, msg.title, s.data, { thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: s.inverted }, !msg.live)
        .then((l) => {
          this.loading = undefined;
          this.progress.hide();
          if (l.baseline) this.baseline = this.load(l.baseline.profile, l.baseline.title) ?? this.baseline;
          this.show(l.data, msg.live);
        }, (e: Error) => {
          // the worker could not start or failed: parse here, as pages without a worker do
          this.loading = undefined;
          this.progress.hide();
          this.loader = null;
          console.warn(`HeapLens: the load worker failed (${e.message}); loading on the page's thread`);
          this.pendingProfile ??= msg;
        })
        .then(() => {
          if (this.pendingProfile) return this.applyProfile();
          return undefined;
        });
      // this thread waits for the worker: the paint's set-up that needs no tree (layout, canvas, font) is done now
      if (!this.data) setTimeout(() => this.flame.component.warmUp(), 0);
      return this.loading;
    }
    let file = msg.profile;
    if (msg.json !== undefined) {
      const parsed = timed('parseJson', () => JSON.parse(msg.json!) as ProfileFile | { profile: ProfileFile; baseline?: { title: string; profile: ProfileFile } });
      if ('format' in parsed) file = parsed;
      else {
        file = parsed.profile;
        if (parsed.baseline) this.baseline = this.load(parsed.baseline.profile, parsed.baseline.title) ?? this.baseline;
      }
    }
    const data = file && this.load(file, msg.title);
    if (data) {
      this.show(data, msg.live);
      // the worker builds the inverted tree meanwhile (the costliest to build; saved profiles only), once this paint
      // is out: copying the text to it is not the first paint's business
      // (the worker itself starts then too: its start competes with this thread's parse on a busy machine)
      const json = msg.json;
      if (json !== undefined && !msg.live) {
        setTimeout(() => {
          const s = this.state;
          const w = this.data === data ? this.worker() : undefined;
          w?.prepare(json, data, { thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: s.inverted });
        }, 0);
      }
    }
    return Promise.resolve();
  }

  /**
   * A saved file whose bytes the page fetches (its host sent only their webview URI, controller.ts showFile) and moves to
   * the load worker, which un-gzips and reads them as it reads a large text, so neither the host's thread nor the message
   * channel carries the profile. Without a worker, this thread reads them and parses as for a text. A failed fetch
   * asks the host for the file as a message; a file that is not a valid profile shows one line saying so.
   */
  private applyFetched(msg: HostMessage & { type: 'profile' }, url: string): Promise<void> {
    const s = this.state;
    const opts: TreeOptions = { thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: s.inverted };
    if (!this.data) this.progress.show('Loading the profile…');
    const worker = this.worker();
    const loaded = fetchBytes(url).then((raw) => {
      if (worker) {
        return worker.load('', msg.title, s.data, opts, !msg.live, raw).then((l) => {
          this.progress.hide();
          this.error.hidden = true;
          this.show(l.data, msg.live);
        });
      }
      // no worker: the text is applied here as the host's message would have been
      return profileBytesText(raw).then((got) => {
        this.progress.hide();
        this.pendingProfile ??= { ...msg, url: undefined, json: got.text };
      });
    });
    if (worker && !this.data) setTimeout(() => this.flame.component.warmUp(), 0);
    this.loading = loaded.catch((e: Error) => {
      this.progress.hide();
      if (e instanceof FetchFailed) {
        // a file the webview cannot reach (a remote file system): the host sends it as a message
        console.warn(`HeapLens: ${e.message}; asking the host for the file`);
        this.host.post({ type: 'fetchFailed', message: e.message });
        return;
      }
      this.error.textContent = `Cannot show ${msg.title}: ${e.message}`;
      this.error.hidden = false;
    }).then(() => this.loadEnded());
    return this.loading;
  }

  /**
   * A profile whose first tree was built where it was read (the report's and a VS Code panel's first one,
   * extension/panels/first-tree.ts): the page reads the profile without its call trees, decodes the tree and paints;
   * the call trees are parsed afterwards by the load worker (or here, without one) for every other tree, and the first
   * tree's records are decoded after the paint.
   */
  private async applyBuilt(json: string, built: BuiltTree, title: string, live: boolean): Promise<void> {
    // a large tree is decoded and painted in tasks of their own, so that the page is not frozen for their sum
    const large = built.columns.byteLength >= App.SPLIT_FROM;
    const s = this.state;
    const shown = s.data !== 'auto' && built.kinds.includes(s.data) ? s.data : built.defaultKind;
    if (s.thread !== -1 || s.myCode || s.collapseRecursion || s.inverted || shown !== built.kind) {
      // another tree than the built one (a report's #thread=, #inverted=1, …; a panel's kept options): the whole profile
      // parsed here, once the page has the trees, so that the page is drawn when it has loaded (report-html e2e)
      await new Promise<void>((r) => whenParsed(r));
      const whole = JSON.parse(json) as { profile: ProfileFile; baseline?: { title: string; profile: ProfileFile } };
      if (whole.baseline) this.baseline = this.load(whole.baseline.profile, whole.baseline.title) ?? this.baseline;
      const data = this.load(joinTrees(whole.profile, JSON.parse(built.trees) as ThreadTrees[]), title);
      if (data) this.show(data, live);
      return;
    }
    const opts: TreeOptions = { thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: s.inverted };
    const embedded = timed('parseJson', () => JSON.parse(json) as { profile: ProfileFile; baseline?: { title: string; profile: ProfileFile } });
    const trees = new EmbeddedTrees(json, built, title, () => this.worker(), () => this.render());
    const data = new ProfileData(embedded.profile, title, trees, built.kind);
    if (embedded.baseline) this.baseline = this.load(embedded.baseline.profile, embedded.baseline.title) ?? this.baseline;
    // the page says it is still drawing while it works in slices (hidden before the paint: the canvas keeps its height)
    if (large) this.progress.show('Drawing the flame tree…');
    if (large) await nextTask();
    const packed = await builtColumns(built.columns, large);
    if (large) await nextTask();
    // the tree is of all threads merged, nothing folded, top-down: the views find it under those options
    const top = unpackTree(packed);
    data.accept(built.kind, treeKey({ thread: -1, myCode: false, collapseRecursion: false, inverted: false }, false), top);
    trees.setTop(packed, top);     // the inverted tree is made from it on this page (invert-built.ts)
    if (large) {
      // the render's set-up (canvas, package palette, first layout) in tasks of its own; the paint's task only draws
      await nextTask();
      this.data = data;
      const ctx = this.context();
      if (ctx) await runInTasks(this.flame.ahead(ctx), 'renderAhead');
      this.progress.hide();
    }
    this.show(data, live);
    // after the paint: the records (tooltips' types, the tables), and the call trees to the worker, which builds the
    // inverted tree ahead (not for a live session's: its next update replaces this profile within a second)
    whenParsed(() => {
      builtRecords(built.records).then((recs) => {
        packed.recs = recs;
        trees.recordsArrived();
        if (this.state.view !== 'flame' && this.data === data) this.render();
      }, (e: Error) => {
        this.error.textContent = `Cannot read the allocation records of ${title}: ${e.message}`;
        this.error.hidden = false;
      });
      // the call trees to the worker in a task of their own: at 1M, reading the records' base64 and copying 60 MB of
      // trees to the worker are each a few tens of milliseconds
      if (live) return;
      if (large) void nextTask().then(() => trees.hand(data, opts));
      else trees.hand(data, opts);
    });
  }

  /** Built trees from this size on (bytes of columns; ~2 MB for the 100,000-node bench tree, ~20 MB for 1M) are decoded
   *  and painted in separate tasks. */
  static readonly SPLIT_FROM = 8 * 1024 * 1024;

  /** Profile texts from this size on are parsed by the load worker (the 100,000-node bench profile is 8.6 MB, 1M 64 MB). */
  static readonly WORKER_FROM = 24 * 1024 * 1024;

  private show(data: ProfileData, live: boolean): void {
    this.data = data;
    this.live = live;
    timed('render', () => this.render());
    this.applyMethod();
  }

  /** The load worker, started on first use (null: this page cannot run one). */
  private worker(): LoadWorker | undefined {
    if (this.loader === undefined) {
      this.loader = timed('startWorker', () => LoadWorker.start({
        progress: (step) => this.progress.show(step),
        arrived: () => {
          if (!this.loader?.pendingTrees) this.progress.hide();
          this.render();
        },
        failed: (message) => {
          this.progress.hide();
          this.error.textContent = `Cannot build this view: ${message}`;
          this.error.hidden = false;
        },
      })) ?? null;
    }
    return this.loader ?? undefined;
  }

  /** Whether the last profile was loaded by the worker (false: parsed on the page's thread). */
  get usesWorker(): boolean {
    return !!this.loader && !!this.data && !this.data.helper;
  }

  /** Resolves when the profile is shown and no tree is being built (the measurement page waits for it). */
  async settled(): Promise<void> {
    for (;;) {
      if (this.loading) await this.loading;
      if (!this.loader?.pendingTrees) return;
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

  private load(file: ProfileFile, title: string): ProfileData | undefined {
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

  /** sampler=jfr: the interval the agent states for each type's estimate (largest types first). */
  private appendIntervals(profile: Profile): void {
    const rows = typeIntervals(profile);
    if (!rows.length) return;
    const shown = rows.slice(0, 20);
    const list = el('ol', { class: 'interval-list' }, ...shown.map((t) => el('li', {},
      `${t.name}: ${num(t.count)} ${plusMinus(t.count, t.countSd)}, ${bytes(t.bytes)} ${plusMinus(t.bytes, t.bytesSd)}`)));
    this.dataLine.append(el('details', { class: 'intervals' },
      el('summary', {}, `Estimate intervals (95 %) of the ${shown.length} largest of ${rows.length} types`), list,
      el('div', { class: 'muted' }, 'Each estimate ± 1.96 standard deviations, as the agent states them for the whole run. They hold when the program allocates in an order unrelated to TLAB boundaries (docs/modes.md, "sampler=jfr").')));
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
