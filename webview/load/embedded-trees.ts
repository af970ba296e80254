// Where the trees of a profile shown from a built first tree (the report's, apply-profile.ts applyBuilt) come from: its call
// trees travel apart as JSON text (tree-split.ts); the load worker parses them after the first paint and builds every
// other tree, or, on a page that cannot run a worker, this thread does.
import { TreeKind } from '../../core/profile/modes';
import { joinTrees, ThreadTrees } from '../../core/profile/tree-split';
import { ProfileFile } from '../../core/profile/types';
import { BuiltTree } from '../../core/protocol/webview-protocol';
import { ProfileData, RemoteTrees, TreeOptions, treeKey } from '../data';
import { LoadWorker } from './loader';
import { whenParsed } from './built-tree';
import { hasFoldedCalls, INVERT_HERE_BELOW, invertBuilt, invertsBuilt } from './invert-built';
import { PackedTree } from './tree-pack';
import { FrameTree } from '../../core/views/frames';

type Request = (data: ProfileData, kind: TreeKind, key: string, o: TreeOptions) => void;

export class EmbeddedTrees implements RemoteTrees {
  readonly kinds: TreeKind[];
  readonly defaultKind: TreeKind;
  /** the worker's request, once it has the texts; null: no worker, built here */
  private held?: Request | null;
  private full?: ProfileFile;
  private local?: ProfileData;
  private readonly building = new Set<string>();
  /** the built top-down tree, once the page has it (setTop): the inverted one is made from it here */
  private top?: { tree: FrameTree; packed: PackedTree };
  /** inversions asked for before the top tree's records arrived (they say which nodes are contexts) */
  private waiting: Array<() => void> = [];
  private elsewhere?: boolean;
  /** the inverted tree to make here as soon as the records are in (hand: a saved profile's, not a live session's) */
  private ahead?: { data: ProfileData; o: TreeOptions };

  /** `json`: the embedded data with the profile's trees left out; `arrived`: a tree built here is ready (draw again) */
  constructor(private readonly json: string, private readonly built: BuiltTree, private readonly title: string,
    private readonly worker: () => LoadWorker | undefined, private readonly arrived: () => void) {
    this.kinds = built.kinds;
    this.defaultKind = built.defaultKind;
  }

  /** The built top-down tree as the page unpacked it (its records follow: recordsArrived). */
  setTop(packed: PackedTree, tree: FrameTree): void {
    this.top = { tree, packed };
  }

  /** The top tree's records are in its `packed.recs`: inversions waiting for them go on. */
  recordsArrived(): void {
    const w = this.waiting;
    this.waiting = [];
    for (const f of w) f();
    const a = this.ahead;
    this.ahead = undefined;
    // ahead of a click, after the paint, in tasks of ~30 ms
    if (a && w.length === 0) this.invertHere(a.data, a.data.kind, treeKey(a.o, false), a.o);
  }

  /**
   * Whether this page inverts the built tree itself for `o` (invert-built.ts) instead of asking the worker. Whether a
   * node has folded calls is known once the page is parsed (a report's call trees follow its script).
   */
  private invertsHere(kind: TreeKind, o: TreeOptions): boolean {
    if (this.elsewhere || !this.top || !invertsBuilt(o) || kind !== this.built.kind || this.top.tree.n >= INVERT_HERE_BELOW) return false;
    if (document.readyState !== 'loading') this.elsewhere ??= hasFoldedCalls(this.built.trees);
    return !this.elsewhere;
  }

  /** Gives the worker the texts (once): it parses them and, when `ahead`, builds the other orientation of `opts`. */
  hand(data: ProfileData, opts: TreeOptions, ahead = true): void {
    if (this.held !== undefined) return;
    const w = this.worker();
    // the other orientation is not built ahead when this page inverts the built tree itself
    const other = { ...opts, inverted: !opts.inverted };
    const here = this.invertsHere(data.kind, other);
    if (here && ahead) {
      this.ahead = { data, o: other };
      if (this.top?.packed.recs) this.recordsArrived();      // they came first (a large tree is handed a task later)
    }
    this.held = w ? w.hold(this.json, this.built.trees, data, opts, ahead && !here) : null;
  }

  /** The inverted tree made here from the built one, in a task of its own once the records are in; false: not here. */
  private invertHere(data: ProfileData, kind: TreeKind, key: string, o: TreeOptions): boolean {
    const top = this.top;
    if (!top || !this.invertsHere(kind, o)) return false;
    if (this.building.has(`${kind}|${key}`)) return true;
    this.building.add(`${kind}|${key}`);
    const run = (): void => {
      setTimeout(async () => {
        this.elsewhere ??= hasFoldedCalls(this.built.trees);      // the records arrive once the page is parsed
        const tree = this.elsewhere ? undefined : await invertBuilt(top.tree, top.packed.recs!, data.methods());
        this.building.delete(`${kind}|${key}`);      // asked for again meanwhile: it waited for this one
        if (tree) {
          data.accept(kind, key, tree);
          this.arrived();
        } else {
          this.elsewhere = true;       // a method the table lacks: the worker (or this thread) inverts the parsed nodes
          this.request(data, kind, key, o);
        }
      }, 0);
    };
    if (top.packed.recs) run();
    else this.waiting.push(run);
    return true;
  }

  request(data: ProfileData, kind: TreeKind, key: string, o: TreeOptions): void {
    if (this.invertHere(data, kind, key, o)) return;
    // the trees follow the page's script in a report: asked for before the page is parsed, they are handed once it is
    if (document.readyState === 'loading') {
      whenParsed(() => this.request(data, kind, key, o));
      return;
    }
    // asked for before the paint's own hand-over: the tree asked for first, nothing ahead of it
    this.hand(data, o, false);
    if (this.held) {
      this.held(data, kind, key, o);
      return;
    }
    if (this.building.has(`${kind}|${key}`)) return;
    this.building.add(`${kind}|${key}`);
    // no worker: built on this thread, in a task of its own (the caller is drawing and shows progress meanwhile)
    setTimeout(() => {
      this.building.delete(`${kind}|${key}`);
      this.local ??= new ProfileData(this.fullFile(), this.title);
      this.local.useTree(kind);
      data.accept(kind, key, this.local.tree(o));
      this.arrived();
    }, 0);
  }

  fullFile(): ProfileFile {
    this.full ??= joinTrees((JSON.parse(this.json) as { profile: ProfileFile }).profile, JSON.parse(this.built.trees) as ThreadTrees[]);
    return this.full;
  }
}
