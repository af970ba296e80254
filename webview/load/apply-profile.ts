// The host's `profile` messages turned into the views' data (docs/views.md, "Loading"), one load at a time, the newest
// message waiting meanwhile (a live session sends one a second): a saved file's bytes, fetched by the page and read by
// the load worker (applyFetched); a first tree built where the profile was read, the report's and a panel's first one
// (applyBuilt); or a profile's text, parsed by the load worker when large and on the page's thread when small.
import { ProfileFile } from '../../core/profile/types';
import { BuiltTree, HostMessage } from '../../core/protocol/webview-protocol';
import { joinTrees, ThreadTrees } from '../../core/profile/tree-split';
import { AppContext } from '../context';
import { ProfileData, TreeOptions, treeKey } from '../data';
import { Host } from '../host';
import { UiState } from '../state';
import { nextTask, runInTasks } from '../tasks';
import { mark, timed } from '../timing';
import { FlameTab } from '../views/flame-tab';
import { builtColumns, builtRecords, whenParsed } from './built-tree';
import { EmbeddedTrees } from './embedded-trees';
import { FetchFailed, fetchBytesWithHead, ProfileHead, profileBytesText } from './fetch-profile';
import { sectionData } from './first-paint';
import { LoadWorker } from './loader';
import { LoadProgress } from './progress';
import { unpackTree } from './tree-pack';

/** What of the app a load reads and sets. */
export interface LoadTarget {
  readonly state: UiState;
  data?: ProfileData;
  baseline?: ProfileData;
  readonly flame: FlameTab;
  /** shows `data` (renders it) */
  show(data: ProfileData, live: boolean): void;
  /** a profile file indexed for the views, or undefined (the error line says why) */
  load(file: ProfileFile, title: string): ProfileData | undefined;
  context(): AppContext | undefined;
  render(): void;
}

export class ProfileLoads {
  /** the load worker: undefined until the first profile text, null when this page cannot run one */
  loader?: LoadWorker | null;
  loading?: Promise<void>;
  private pendingProfile?: HostMessage & { type: 'profile' };
  private frame = 0;

  constructor(private readonly app: LoadTarget, private readonly host: Host, private readonly progress: LoadProgress, private readonly error: HTMLElement) {}

  /** A `profile` message: live updates can arrive faster than the page paints; the newest is kept, one load a frame. */
  receive(msg: HostMessage & { type: 'profile' }): void {
    if (!this.app.data) mark('message');
    this.pendingProfile = msg;
    // the first profile has nothing to wait for: waiting for the next frame only delays the first paint (a new
    // panel's first frame can take long to come)
    if (!this.app.data && !this.loading && !this.frame) void this.applyProfile();
    else if (!this.frame) this.frame = requestAnimationFrame(() => this.applyProfile());
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
    const large = msg.json !== undefined && msg.json.length >= ProfileLoads.WORKER_FROM;
    const worker = large ? this.worker() : undefined;
    if (msg.json !== undefined && worker && large) {
      const s = this.app.state;
      if (!this.app.data) this.progress.show('Loading the profile…');
      const json = msg.json;
      this.loading = worker.load(json, msg.title, s.data, { thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: s.inverted }, !msg.live)
        .then((l) => {
          this.loading = undefined;
          this.progress.hide();
          if (l.baseline) this.app.baseline = this.app.load(l.baseline.profile, l.baseline.title) ?? this.app.baseline;
          this.app.show(l.data, msg.live);
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
      if (!this.app.data) setTimeout(() => this.app.flame.component.warmUp(), 0);
      return this.loading;
    }
    let file = msg.profile;
    if (msg.json !== undefined) {
      const parsed = timed('parseJson', () => JSON.parse(msg.json!) as ProfileFile | { profile: ProfileFile; baseline?: { title: string; profile: ProfileFile } });
      if ('format' in parsed) file = parsed;
      else {
        file = parsed.profile;
        if (parsed.baseline) this.app.baseline = this.app.load(parsed.baseline.profile, parsed.baseline.title) ?? this.app.baseline;
      }
    }
    const data = file && this.app.load(file, msg.title);
    if (data) {
      this.app.show(data, msg.live);
      // the worker builds the inverted tree meanwhile (the costliest to build; saved profiles only), once this paint
      // is out: copying the text to it is not the first paint's business
      // (the worker itself starts then too: its start competes with this thread's parse on a busy machine)
      const json = msg.json;
      if (json !== undefined && !msg.live) {
        setTimeout(() => {
          const s = this.app.state;
          const w = this.app.data === data ? this.worker() : undefined;
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
    const s = this.app.state;
    const opts: TreeOptions = { thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: s.inverted };
    if (!this.app.data) this.progress.show('Loading the profile…');
    const worker = this.worker();
    mark('fetch-start');
    // the first page of a file: painted from its first section as soon as that has arrived (docs/format.md "first")
    const first = !this.app.data && worker ? (h: ProfileHead) => this.paintSection(h, msg) : () => undefined;
    const loaded = fetchBytesWithHead(url, first).then((raw) => {
      mark('fetched');
      if (worker) {
        return worker.load('', msg.title, s.data, opts, !msg.live, raw).then(async (l) => {
          // a large tree's render set-up (canvas, package palette, first layout) in tasks of their own, as applyBuilt's
          const swap = !!this.app.data?.partial;       // the whole tree replaces a first section's
          if (l.nodes >= ProfileLoads.SLICE_FROM_NODES && (!this.app.data || swap)) await this.renderAhead(l.data);
          this.progress.hide();
          this.error.hidden = true;
          this.app.show(l.data, msg.live);
          if (swap) mark('whole-shown');
        });
      }
      // no worker: the text is applied here as the host's message would have been
      return profileBytesText(raw).then((got) => {
        this.progress.hide();
        this.pendingProfile ??= { ...msg, url: undefined, json: got.text };
      });
    });
    if (worker && !this.app.data) setTimeout(() => this.app.flame.component.warmUp(), 0);
    this.loading = loaded.catch((e: Error) => {
      this.progress.hide();
      if (e instanceof FetchFailed) {
        // a file the webview cannot reach (a remote file system): the host sends it as a message
        console.warn(`HeapLens: ${e.message}; asking the host for the file`);
        this.host.post({ type: 'fetchFailed', message: e.message });
        return;
      }
      if (this.app.data?.partial) {
        // the first section was drawn, the whole file is not a profile (cut, garbled): the picture goes, the line says why
        this.app.data = undefined;
        this.app.render();
      }
      this.error.textContent = `Cannot show ${msg.title}: ${e.message}`;
      this.error.hidden = false;
    }).then(() => this.loadEnded());
    return this.loading;
  }

  /**
   * The head of a fetched file has arrived: when its first section draws the view the page shows first, that is
   * painted now, the whole profile replacing it when loaded (the same frames: no jump). The progress line is hidden
   * meanwhile, as it is when the whole tree is drawn, so the canvas does not move at the swap.
   */
  private paintSection(head: ProfileHead, msg: HostMessage & { type: 'profile' }): void {
    mark('head');
    if (this.app.data || head.first === undefined) return;
    const width = Math.max(window.innerWidth || 0, document.documentElement.clientWidth || 0);
    let data: ProfileData | undefined;
    try {
      data = sectionData(head.meta, head.first, msg.title, this.app.state, width);
    } catch (e) {
      console.warn(`HeapLens: the profile's first section was not used (${(e as Error).message})`);
    }
    if (!data) return;
    this.progress.hide();
    this.app.show(data, msg.live);
    mark('section-shown');
  }

  /**
   * A profile whose first tree was built where it was read (the report's and a VS Code panel's first one,
   * extension/panels/first-tree.ts): the page reads the profile without its call trees, decodes the tree and paints;
   * the call trees are parsed afterwards by the load worker (or here, without one) for every other tree, and the first
   * tree's records are decoded after the paint.
   */
  private async applyBuilt(json: string, built: BuiltTree, title: string, live: boolean): Promise<void> {
    // a large tree is decoded and painted in tasks of their own, so that the page is not frozen for their sum
    const large = built.columns.byteLength >= ProfileLoads.SPLIT_FROM;
    const s = this.app.state;
    const shown = s.data !== 'auto' && built.kinds.includes(s.data) ? s.data : built.defaultKind;
    if (s.thread !== -1 || s.myCode || s.collapseRecursion || s.inverted || shown !== built.kind) {
      // another tree than the built one (a report's #thread=, #inverted=1, …; a panel's kept options): the whole profile
      // parsed here, once the page has the trees, so that the page is drawn when it has loaded (report-html e2e)
      await new Promise<void>((r) => whenParsed(r));
      const whole = JSON.parse(json) as { profile: ProfileFile; baseline?: { title: string; profile: ProfileFile } };
      if (whole.baseline) this.app.baseline = this.app.load(whole.baseline.profile, whole.baseline.title) ?? this.app.baseline;
      const data = this.app.load(joinTrees(whole.profile, JSON.parse(built.trees) as ThreadTrees[]), title);
      if (data) this.app.show(data, live);
      return;
    }
    const opts: TreeOptions = { thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: s.inverted };
    const embedded = timed('parseJson', () => JSON.parse(json) as { profile: ProfileFile; baseline?: { title: string; profile: ProfileFile } });
    const trees = new EmbeddedTrees(json, built, title, () => this.worker(), () => this.app.render());
    const data = new ProfileData(embedded.profile, title, trees, built.kind);
    if (embedded.baseline) this.app.baseline = this.app.load(embedded.baseline.profile, embedded.baseline.title) ?? this.app.baseline;
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
      await this.renderAhead(data);
      this.progress.hide();
    }
    this.app.show(data, live);
    // after the paint: the records (tooltips' types, the tables), and the call trees to the worker, which builds the
    // inverted tree ahead (not for a live session's: its next update replaces this profile within a second)
    whenParsed(() => {
      builtRecords(built.records).then((recs) => {
        packed.recs = recs;
        trees.recordsArrived();
        if (this.app.state.view !== 'flame' && this.app.data === data) this.app.render();
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

  /** The first paint's set-up that the paint's own task would do, in tasks of ~30 ms (Round 11): the page is not frozen. */
  private async renderAhead(data: ProfileData): Promise<void> {
    await nextTask();
    this.app.data = data;
    const ctx = this.app.context();
    try {
      if (ctx) await runInTasks(this.app.flame.ahead(ctx), 'renderAhead');
    } catch {
      // the paint's own task does it (and reports what fails)
    }
  }

  /** A fetched file's first tree from this many nodes on is set up for its paint in tasks (renderAhead). */
  static readonly SLICE_FROM_NODES = 400_000;

  /** Built trees from this size on (bytes of columns; ~2 MB for the 100,000-node bench tree, ~20 MB for 1M) are decoded
   *  and painted in separate tasks. */
  static readonly SPLIT_FROM = 8 * 1024 * 1024;

  /** Profile texts from this size on are parsed by the load worker (the 100,000-node bench profile is 8.6 MB, 1M 64 MB). */
  static readonly WORKER_FROM = 24 * 1024 * 1024;

  /** The load worker, started on first use (null: this page cannot run one). */
  worker(): LoadWorker | undefined {
    if (this.loader === undefined) {
      this.loader = timed('startWorker', () => LoadWorker.start({
        // not over a first section's paint: the line would move the canvas down, and up again at the swap
        progress: (step) => {
          if (!this.app.data?.partial) this.progress.show(step);
        },
        arrived: () => {
          if (!this.loader?.pendingTrees) this.progress.hide();
          this.app.render();
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
}
