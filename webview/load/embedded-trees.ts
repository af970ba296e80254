// Where the trees of a profile shown from a built first tree (the report's, app.ts applyBuilt) come from: its call
// trees travel apart as JSON text (tree-split.ts); the load worker parses them after the first paint and builds every
// other tree, or, on a page that cannot run a worker, this thread does.
import { TreeKind } from '../../core/profile/modes';
import { joinTrees, ThreadTrees } from '../../core/profile/tree-split';
import { ProfileFile } from '../../core/profile/types';
import { BuiltTree } from '../../core/protocol/webview-protocol';
import { ProfileData, RemoteTrees, TreeOptions } from '../data';
import { LoadWorker } from './loader';
import { whenParsed } from './built-tree';

type Request = (data: ProfileData, kind: TreeKind, key: string, o: TreeOptions) => void;

export class EmbeddedTrees implements RemoteTrees {
  readonly kinds: TreeKind[];
  readonly defaultKind: TreeKind;
  /** the worker's request, once it has the texts; null: no worker, built here */
  private held?: Request | null;
  private full?: ProfileFile;
  private local?: ProfileData;
  private readonly building = new Set<string>();

  /** `json`: the embedded data with the profile's trees left out; `arrived`: a tree built here is ready (draw again) */
  constructor(private readonly json: string, private readonly built: BuiltTree, private readonly title: string,
    private readonly worker: () => LoadWorker | undefined, private readonly arrived: () => void) {
    this.kinds = built.kinds;
    this.defaultKind = built.defaultKind;
  }

  /** Gives the worker the texts (once): it parses them and, when `ahead`, builds the other orientation of `opts`. */
  hand(data: ProfileData, opts: TreeOptions, ahead = true): void {
    if (this.held !== undefined) return;
    const w = this.worker();
    this.held = w ? w.hold(this.json, this.built.trees, data, opts, ahead) : null;
  }

  request(data: ProfileData, kind: TreeKind, key: string, o: TreeOptions): void {
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
