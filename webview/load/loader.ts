// The page's side of the load worker: starts it from the bundle's embedded worker source (a Blob URL: the VS Code
// webview and the standalone report both allow `worker-src blob:`), sends it the profile text, and turns its answers
// into ProfileData whose trees the worker builds. Without a Worker (or when the page's policy refuses one) the
// caller parses on its own thread as before.
import { TreeKind } from '../../core/profile/modes';
import { ProfileFile } from '../../core/profile/types';
import { ProfileData, RemoteTrees, TreeOptions, TreePending, treeKey } from '../data';
import { mark, timings } from '../timing';
import { LoadReply, LoadRequest } from './protocol';
import { PackedTree, unpackTree } from './tree-pack';

/** The worker bundle's source, put into the page bundle by scripts/build.mjs ('' in builds without it). */
declare const __HEAPLENS_WORKER__: string;

export interface Loaded {
  data: ProfileData;
  /** the first tree's nodes */
  nodes: number;
  baseline?: { title: string; profile: ProfileFile };
  reportTree?: TreeKind;
}

export interface LoadCallbacks {
  progress(step: string): void;
  /** a tree the views asked for has arrived (render again) */
  arrived(): void;
  /** a tree could not be built */
  failed(message: string): void;
}

export class LoadWorker {
  private seq = 0;
  /** when the load was posted (epoch ms, comparable across threads) */
  private sentAt = 0;
  /** the loaded tree, until its records arrive */
  private firstTree?: PackedTree;
  private nextId = 0;
  private loading?: { seq: number; resolve(l: Loaded): void; reject(e: Error): void; text: string; title: string; opts: TreeOptions };
  /** a fetched file's text as bytes, once the worker has moved them here (the page's own parse decodes them) */
  private fetched?: { seq: number; bytes?: Uint8Array };
  private readonly asked = new Map<number, { data: ProfileData; key: string }>();
  /** keys asked and not answered yet, per data (one request per tree) */
  private readonly inFlight = new WeakMap<ProfileData, Set<string>>();

  private constructor(private readonly worker: Worker, private readonly cb: LoadCallbacks) {
    worker.onmessage = (e: MessageEvent) => this.receive(e.data as LoadReply);
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      const l = this.loading;
      this.loading = undefined;
      l?.reject(new Error(e.message || 'the load worker failed'));
    };
  }

  /** A worker, or undefined when this page cannot start one. */
  static start(cb: LoadCallbacks): LoadWorker | undefined {
    try {
      const src = typeof __HEAPLENS_WORKER__ === 'string' ? __HEAPLENS_WORKER__ : '';
      if (!src || typeof Worker !== 'function' || typeof Blob !== 'function') return undefined;
      const url = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
      const worker = new LoadWorker(new Worker(url, { name: 'heaplens-load' }), cb);
      mark('worker-created');
      return worker;
    } catch {
      return undefined;            // a Content-Security-Policy without worker-src blob:, or no Blob URLs
    }
  }

  get busy(): boolean {
    return !!this.loading;
  }

  /**
   * Parses `text` (a profile file or the report's embedded data) in the worker and builds the first tree; or, with
   * `raw`, a saved file's bytes as fetched (moved to the worker, not copied), which it un-gzips and reads
   * (fetch-profile.ts).
   */
  load(text: string, title: string, kind: TreeKind | 'auto', opts: TreeOptions, ahead = true, raw?: Uint8Array): Promise<Loaded> {
    const seq = ++this.seq;
    this.asked.clear();
    this.fetched = raw !== undefined ? { seq } : undefined;
    return new Promise((resolve, reject) => {
      this.loading = { seq, resolve, reject, text, title, opts };
      const msg: LoadRequest = { type: 'load', seq, text, raw, title, kind, opts: { ...opts, cpu: false }, ahead, first: true };
      const t0 = performance.now();
      this.worker.postMessage(msg, raw ? [raw.buffer] : []);
      timings.postText = Math.round((performance.now() - t0) * 10) / 10;
      mark('posted');
      this.sentAt = performance.timeOrigin + t0;
    });
  }

  /**
   * A profile small enough to parse on the page's thread (the page shows it at once): the worker parses a copy too and
   * builds the other orientation's tree ahead; `data` asks for it (TreeHelper) instead of building it on the page.
   */
  prepare(text: string, data: ProfileData, opts: TreeOptions): void {
    const seq = ++this.seq;
    this.asked.clear();
    const other: TreeOptions = { ...opts, cpu: false, inverted: !opts.inverted };
    const offered = `${data.kind}|${treeKey(other, false)}`;
    data.helper = {
      offers: (kind, key) => seq === this.seq && `${kind}|${key}` === offered,
      request: (d, kind, key, o) => this.request(d, kind, key, o),
    };
    const msg: LoadRequest = { type: 'load', seq, text, title: data.title, kind: data.kind, opts: { ...opts, cpu: false }, ahead: true, first: false };
    this.worker.postMessage(msg);
  }

  /**
   * A profile the page shows from a tree built elsewhere (embedded-trees.ts): the worker parses `text` (the profile
   * without its call trees) and `trees`, builds the other orientation of `opts` ahead (when `ahead`), and answers the
   * returned request.
   */
  hold(text: string, trees: string, data: ProfileData, opts: TreeOptions, ahead = true): (d: ProfileData, kind: TreeKind, key: string, o: TreeOptions) => void {
    const seq = ++this.seq;
    this.asked.clear();
    const msg: LoadRequest = { type: 'load', seq, text, trees, title: data.title, kind: data.kind, opts: { ...opts, cpu: false }, ahead, first: false };
    this.worker.postMessage(msg);
    return (d, kind, key, o) => {
      if (seq === this.seq) this.request(d, kind, key, o);
    };
  }

  private receive(m: LoadReply): void {
    // for the UI tests and the curious: the worker runs in this page (its policy allowed it)
    document.body.dataset.loadWorker = 'running';
    if (m.seq !== this.seq) return;                      // a newer profile replaced it
    if (m.type === 'progress') {
      // a load ahead of need (prepare) runs behind a view already drawn: its steps are news only once a view waits
      if (this.loading || this.asked.size > 0) this.cb.progress(m.step);
    } else if (m.type === 'loaded') {
      const l = this.loading;
      this.loading = undefined;
      if (!l) return;
      for (const [name, at] of Object.entries(m.marks ?? {})) mark(name, at);
      mark('loaded');
      Object.assign(timings, m.timings);
      // the trip: posted → the worker had the text; the worker posted the tree → it was here
      const now = performance.timeOrigin + performance.now();
      if (m.timings.receivedAt) timings.toWorker = Math.round(m.timings.receivedAt - this.sentAt);
      if (m.timings.sentAt) timings.toPage = Math.round(now - m.timings.sentAt);
      delete timings.receivedAt;
      delete timings.sentAt;
      let full: ProfileFile | undefined;
      const text = l.text;
      const remote: RemoteTrees = {
        kinds: m.kinds,
        defaultKind: m.defaultKind,
        request: (d, kind, key, o) => this.request(d, kind, key, o),
        fullFile: () => {
          if (!full) {
            const f = this.fetched?.seq === l.seq ? this.fetched : undefined;
            // the fetched file's bytes arrive after the first tree (the page draws again then: `arrived`)
            if (f && !f.bytes) throw new TreePending();
            const p = JSON.parse(f ? new TextDecoder('utf-8').decode(f.bytes) : text) as ProfileFile | { profile: ProfileFile };
            full = 'format' in p ? p : p.profile;
          }
          return full;
        },
      };
      const data = new ProfileData(m.light, l.title, remote, m.kind);
      const t0 = performance.now();
      this.firstTree = m.tree;
      data.accept(m.kind, treeKey(l.opts, false), unpackTree(m.tree));
      timings.unpack = Math.round((performance.now() - t0) * 10) / 10;
      mark('unpacked');
      l.resolve({ data, nodes: m.tree.n, baseline: m.baseline, reportTree: m.reportTree });
    } else if (m.type === 'recs') {
      if (this.firstTree) this.firstTree.recs = m.recs;     // read by the tree's `recs` from now on
      this.firstTree = undefined;
    } else if (m.type === 'tree') {
      const a = this.asked.get(m.id);
      this.asked.delete(m.id);
      if (!a) return;
      this.inFlight.get(a.data)?.delete(a.key);
      Object.assign(timings, m.timings);
      a.data.accept(m.kind, a.key, unpackTree(m.tree));
      this.cb.arrived();
    } else if (m.type === 'bytes') {
      if (this.fetched?.seq === m.seq) {
        this.fetched.bytes = m.bytes;
        this.cb.arrived();
      }
    } else if (m.type === 'error') {
      if (m.id === undefined) {
        const l = this.loading;
        this.loading = undefined;
        if (l) l.reject(new Error(m.message));
        // the whole file, checked after its first tree was shown, is not a valid profile
        else this.cb.failed(m.message);
      } else {
        const a = this.asked.get(m.id);
        this.asked.delete(m.id);
        if (a) this.inFlight.get(a.data)?.delete(a.key);
        this.cb.failed(m.message);
      }
    }
  }

  private request(data: ProfileData, kind: TreeKind, key: string, opts: TreeOptions): void {
    let keys = this.inFlight.get(data);
    if (!keys) this.inFlight.set(data, (keys = new Set()));
    if (keys.has(key)) return;
    keys.add(key);
    const id = ++this.nextId;
    this.asked.set(id, { data, key });
    this.cb.progress('Building the tree…');
    const msg: LoadRequest = { type: 'tree', seq: this.seq, id, kind, opts };
    this.worker.postMessage(msg);
  }

  /** Whether a tree is being built. */
  get pendingTrees(): number {
    return this.asked.size;
  }
}
