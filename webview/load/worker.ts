// The load worker (bundled by scripts/build.mjs into the page bundle and started from a Blob URL): parses the profile,
// merges the threads, inverts and flattens, so that the page's thread stays free to draw and answer the user while a
// large profile loads. It keeps the parsed profile; the page asks it for each tree it needs (protocol.ts).
import { ProfileData, TreeOptions, treeKey } from '../data';
import { TreeKind } from '../../core/profile/modes';
import { ProfileFile } from '../../core/profile/types';
import { expandVersion2 } from '../../core/profile/version2';
import { joinTrees, splitTrees, ThreadTrees } from '../../core/profile/tree-split';
import { epochNow, timings } from '../timing';
import { LoadReply, LoadRequest } from './protocol';
import { PackedTree, packRecords, packTree, recordBuffers, transferables } from './tree-pack';
import { parseFlat } from './flat-parse';
import { flatTree } from './flat-tree';
import { profileBytesText } from './fetch-profile';
import { validateProfile } from '../../core/profile/parse';

interface WorkerScope {
  postMessage(m: LoadReply, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent) => void) | null;
}
const scope = self as unknown as WorkerScope;
let data: ProfileData | undefined;
/** when this worker's script began to run (epoch ms): its start-up is a phase of the first load */
let startedAt: number | undefined = epochNow();
/** the first load's phases (epoch ms), posted with its tree: the page puts them on its timeline (timing.ts mark) */
let marks: Record<string, number> = {};

function newMarks(): void {
  marks = startedAt === undefined ? {} : { 'worker-script': startedAt };
  startedAt = undefined;
  marks['worker-received'] = epochNow();
}

/** The profile without call trees: what the page keeps (the trees stay here). */
const light = (file: ProfileFile): ProfileFile => splitTrees(file).light;

function clearTimings(): void {
  for (const k of Object.keys(timings)) delete timings[k];
}

/**
 * Trees built ahead, while the page is busy drawing the first one: the other orientation (bottom-up when the page shows
 * the top-down tree, and back) — the toggle users reach for first, and the costliest tree to build.
 */
const ahead = new Map<string, { tree: PackedTree; timings: Record<string, number> }>();

/** Flattens one tree and hands it over (its buffers move to the page: the worker forgets it). */
function packed(kind: TreeKind, opts: TreeOptions): PackedTree {
  const key = `${kind}|${treeKey(opts, false)}`;
  const done = ahead.get(key);
  if (done) {
    ahead.delete(key);
    Object.assign(timings, done.timings, { builtAhead: 1 });   // the build's own figures, and that it was done ahead
    return done.tree;
  }
  const d = data!;
  d.useTree(kind);
  const tree = packTree(d.tree(opts));
  d.forget(opts);
  return tree;
}

function buildAhead(kind: TreeKind, opts: TreeOptions): void {
  const other = { ...opts, cpu: false, inverted: !opts.inverted };
  const key = `${kind}|${treeKey(other, false)}`;
  if (!data || ahead.has(key)) return;
  clearTimings();
  const tree = packed(kind, other);
  ahead.set(key, { tree, timings: { ...timings } });
}

/** The tree the first paint needs when the fast reader can build it (flat-parse.ts): the exact data, no transform. */
function fastKind(f: { kinds: TreeKind[]; defaultKind: TreeKind }, kind: TreeKind | 'auto', opts: TreeOptions): boolean {
  const k = kind !== 'auto' && f.kinds.includes(kind) ? kind : f.defaultKind;
  return k === 'exact' && !opts.myCode && !opts.collapseRecursion && !opts.inverted && !opts.cpu;
}

/**
 * The first tree straight from the text (flat-parse.ts), posted at once; then the whole text is parsed as before for
 * every other tree the page asks for. False: the text is not one the fast reader knows, or the tree is another one.
 */
function fastFirst(m: Extract<LoadRequest, { type: 'load' }>): boolean {
  const t0 = performance.now();
  let f = parseFlat(m.text);
  timings.readTrees = Math.round((performance.now() - t0) * 10) / 10;
  marks['worker-read'] = epochNow();
  if (!f) return false;
  const kind = m.kind === 'auto' && f.embedded?.tree ? f.embedded.tree : m.kind;
  if (!fastKind(f, kind, m.opts)) return false;
  const t1 = performance.now();
  const tree = flatTree(f, m.opts.thread);
  timings.flatten = Math.round((performance.now() - t1) * 10) / 10;
  timings.sentAt = marks['worker-flattened'] = epochNow();
  scope.postMessage({
    type: 'loaded', seq: m.seq, light: f.light, kinds: f.kinds, defaultKind: f.defaultKind, kind: 'exact', tree,
    baseline: f.embedded?.baseline, reportTree: f.embedded?.tree, timings: { ...timings }, marks,
  }, transferables(tree));
  f = undefined;      // the flat arrays can go before the object graph comes
  // the object graph for the other trees (another thread, inverted, only my code, …): the page has drawn meanwhile
  const parsed = JSON.parse(m.text) as ProfileFile | { profile: ProfileFile };
  checked('format' in parsed ? parsed : parsed.profile, m.raw !== undefined);
  data = new ProfileData('format' in parsed ? parsed : parsed.profile, m.title);
  data.useTree('exact');
  if (m.ahead) setTimeout(() => buildAhead(data!.kind, m.opts), 0);
  return true;
}

/**
 * Version 2's lines filled in; a fetched file is validated too (docs/format.md), as the host validates what it sends:
 * its bytes reached the page unchecked.
 */
function checked(file: unknown, fetched: boolean): void {
  if (fetched) validateProfile(file);
  else expandVersion2(file);
}

/** The message of an error for the page: a cut or garbled text says so, as the host's loader does (parse.ts). */
function messageOf(err: unknown): string {
  const m = (err as Error).message;
  return err instanceof SyntaxError ? `not a HeapLens profile: the file is truncated or corrupted (invalid JSON: ${m})` : m;
}

scope.onmessage = (e: MessageEvent) => {
  const m = e.data as LoadRequest;
  if (m.type === 'load') newMarks();
  if (m.type === 'load' && m.raw !== undefined) void readAndLoad(m, m.raw);
  else handle(m);
};

/** A saved file's bytes: un-gzipped and decoded here, then loaded as a text is; the text's bytes go to the page after. */
async function readAndLoad(m: Extract<LoadRequest, { type: 'load' }>, raw: Uint8Array): Promise<void> {
  try {
    const t0 = performance.now();
    const got = await profileBytesText(raw, () => (marks['worker-inflated'] = epochNow()));
    marks['worker-decoded'] = epochNow();
    const inflate = Math.round((performance.now() - t0) * 10) / 10;
    handle({ ...m, text: got.text }, { inflate, fileBytes: raw.byteLength });
    scope.postMessage({ type: 'bytes', seq: m.seq, bytes: got.bytes }, [got.bytes.buffer]);
  } catch (err) {
    scope.postMessage({ type: 'error', seq: m.seq, message: messageOf(err) });
  }
}

function handle(m: LoadRequest, fetched?: Record<string, number>): void {
  try {
    if (m.type === 'load') {
      clearTimings();
      if (fetched) Object.assign(timings, fetched);
      timings.receivedAt = performance.timeOrigin + performance.now();
      ahead.clear();
      const progress = (step: string): void => scope.postMessage({ type: 'progress', seq: m.seq, step });
      progress(`Reading ${(m.text.length / 1048576).toFixed(1)} MB of profile data…`);
      if (m.first && fastFirst(m)) return;
      const t0 = performance.now();
      const parsed = JSON.parse(m.text) as ProfileFile | { title: string; profile: ProfileFile; baseline?: { title: string; profile: ProfileFile }; tree?: TreeKind };
      timings.parseJson = Math.round((performance.now() - t0) * 10) / 10;
      const embedded = 'format' in parsed ? undefined : parsed;
      let file = embedded ? embedded.profile : parsed as ProfileFile;
      if (m.trees !== undefined) file = joinTrees(file, JSON.parse(m.trees) as ThreadTrees[]);
      checked(file, m.raw !== undefined);
      data = new ProfileData(file, m.title);
      const kind = m.kind === 'auto' && embedded?.tree ? embedded.tree : m.kind;
      data.useTree(kind);
      if (!m.first) {
        // the page shows the first tree itself (a small profile): build only the other orientation
        data.useTree(kind);
        if (m.ahead) buildAhead(data.kind, m.opts);
        return;
      }
      progress(`Building the call tree of ${data.threads().length} thread${data.threads().length === 1 ? '' : 's'}…`);
      // the first tree goes without its records (the paint needs none): they follow in a message of their own
      const first = data.tree(m.opts);
      const tree = packTree(first, false);
      data.forget(m.opts);
      timings.sentAt = performance.timeOrigin + performance.now();
      marks['worker-flattened'] = timings.sentAt;
      scope.postMessage({
        type: 'loaded', seq: m.seq, light: light(file), kinds: data.kinds, defaultKind: data.defaultKind, kind: data.kind, tree,
        baseline: embedded?.baseline, reportTree: embedded?.tree, timings: { ...timings }, marks,
      }, transferables(tree));
      const recs = packRecords(first);
      scope.postMessage({ type: 'recs', seq: m.seq, recs }, recordBuffers(recs));
      if (m.ahead) setTimeout(() => buildAhead(data!.kind, m.opts), 0);
    } else if (m.type === 'tree') {
      if (!data) throw new Error('no profile loaded');
      clearTimings();
      const tree = packed(m.kind, m.opts);
      scope.postMessage({ type: 'tree', seq: m.seq, id: m.id, kind: m.kind, tree, timings: { ...timings } }, transferables(tree));
    }
  } catch (err) {
    scope.postMessage({ type: 'error', seq: m.seq, id: m.type === 'tree' ? m.id : undefined, message: messageOf(err) });
  }
}
