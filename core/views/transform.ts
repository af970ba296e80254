// Tree transforms for the views, MCT in → new MCT out (inputs never modified):
//   invert            bottom-up: the allocating methods at the top, their callers below
//   foldFrames        "only my code": frames that are not kept vanish, their allocations and calls
//                     go to the nearest kept caller, their kept callees move up to it
//   collapseRecursion a frame whose method is already on the path above it merges into that ancestor
// Every transform keeps the allocation totals (objects, arrays, elements, bytes) and CPU samples (a folded
// frame's samples go to its kept caller, as its allocations do); only foldFrames drops calls.
import { addCounts, childrenOf, copyRecord, recordKey, recordsOf, walk } from '../profile/mct';
import { AllocRecord, MctNode } from '../profile/types';

/**
 * Builds a tree where children merge by method id and records by (site, type). Nodes are addressed by
 * a small integer id (the root is 0) so that the indexes are plain numeric maps: trees of 100,000s of
 * nodes build without object-keyed maps and with little garbage.
 */
export class TreeBuilder {
  readonly root: MctNode = {};
  private readonly nodes: MctNode[] = [this.root];
  private readonly parents: number[] = [-1];
  /** per node: its children's ids; past 12 children also a method → id map */
  private readonly kidIds: number[][] = [[]];
  private readonly kidMaps = new Map<number, Map<number, number>>();
  private readonly bigRecs = new Map<number, Map<string, AllocRecord>>();

  node(id: number): MctNode {
    return this.nodes[id];
  }

  parentOf(id: number): number {
    return this.parents[id];
  }

  /** The child of node `parent` for method `m`, created (with 0 calls) when missing; its id. */
  child(parent: number, m: number): number {
    const ids = this.kidIds[parent];
    const map = ids.length > 12 ? this.kidMaps.get(parent) : undefined;
    if (map) {
      const id = map.get(m);
      if (id !== undefined) return id;
    } else {
      for (const id of ids) if (this.nodes[id].m === m) return id;
    }
    const id = this.nodes.length;
    const kid: MctNode = { m, calls: 0 };
    this.nodes.push(kid);
    this.parents.push(parent);
    this.kidIds.push([]);
    ids.push(id);
    (this.nodes[parent].c ??= []).push(kid);
    if (map) map.set(m, id);
    else if (ids.length > 12) this.kidMaps.set(parent, new Map(ids.map((k) => [this.nodes[k].m as number, k])));
    return id;
  }

  addCalls(id: number, calls: number | undefined): void {
    if (calls && id !== 0) {
      const n = this.nodes[id];
      n.calls = (n.calls ?? 0) + calls;
    }
  }

  addSamples(id: number, samples: number | undefined): void {
    if (samples) {
      const n = this.nodes[id];
      n.samples = (n.samples ?? 0) + samples;
    }
  }

  addFolded(id: number, folded: number | undefined): void {
    if (folded) {
      const n = this.nodes[id];
      n.folded = (n.folded ?? 0) + folded;
    }
  }

  addRecords(id: number, recs: readonly AllocRecord[]): void {
    if (recs.length === 0) return;
    const node = this.nodes[id];
    const have = (node.a ??= []);
    for (const rec of recs) {
      let same: AllocRecord | undefined;
      if (have.length <= 16) {
        for (const h of have) if (h[0] === rec[0] && h[1] === rec[1] && recordKey(h) === recordKey(rec)) same = h;
      } else {
        let index = this.bigRecs.get(id);
        if (!index) {
          index = new Map(have.map((h) => [recordKey(h), h]));
          this.bigRecs.set(id, index);
        }
        same = index.get(recordKey(rec));
      }
      if (same) {
        addCounts(same, rec);
      } else {
        const copy = copyRecord(rec);
        have.push(copy);
        this.bigRecs.get(id)?.set(recordKey(rec), copy);
      }
    }
  }

  /** Everything a source node carries except its children. */
  absorb(id: number, from: MctNode): void {
    this.addCalls(id, from.calls);
    this.addFolded(id, from.folded);
    this.addSamples(id, from.samples);
    this.addRecords(id, recordsOf(from));
  }
}

/** Merges trees (e.g. every thread's) into a new one: children by method id, records by (site, type). */
export function mergeAll(roots: readonly MctNode[]): MctNode {
  const b = new TreeBuilder();
  const from: MctNode[] = [];
  const into: number[] = [];
  for (const r of roots) {
    b.addRecords(0, recordsOf(r));
    b.addFolded(0, r.folded);
    b.addSamples(0, r.samples);
    from.push(r);
    into.push(0);
  }
  while (from.length > 0) {
    const f = from.pop()!;
    const at = into.pop()!;
    for (const kid of childrenOf(f)) {
      const id = b.child(at, kid.m as number);
      b.absorb(id, kid);
      from.push(kid);
      into.push(id);
    }
  }
  return b.root;
}

/**
 * "Only my code": keeps the frames for which `keep(methodId)` is true. A dropped frame's records and
 * folded counts go to the nearest kept caller (the root when there is none); its children are placed
 * under that caller, merging with same-method siblings. A dropped frame's own invocation count is not
 * moved (those are the library's calls, not the caller's), so the `calls` total shrinks by exactly the
 * dropped frames' calls; allocation totals stay the same.
 */
export function foldFrames(root: MctNode, keep: (method: number) => boolean): MctNode {
  const b = new TreeBuilder();
  b.addRecords(0, recordsOf(root));
  b.addFolded(0, root.folded);
  b.addSamples(0, root.samples);
  return rebuild(root, b, (kid, at) => {
    const m = kid.m as number;
    let target = at;
    if (keep(m)) {
      target = b.child(at, m);
      b.addCalls(target, kid.calls);
    }
    b.addFolded(target, kid.folded);
    b.addSamples(target, kid.samples);
    b.addRecords(target, recordsOf(kid));
    return target;
  });
}

/**
 * Walks `root`'s tree (depth first, without recursion) and builds `b` from it: `place` puts a node's values into
 * `b` under the node made for its parent (`at`) and returns the node made for it, where its children go.
 */
function rebuild(root: MctNode, b: TreeBuilder, place: (kid: MctNode, at: number) => number): MctNode {
  const from: MctNode[] = [root];
  const into: number[] = [0];
  while (from.length > 0) {
    const f = from.pop()!;
    const at = into.pop()!;
    for (const kid of childrenOf(f)) {
      into.push(place(kid, at));
      from.push(kid);
    }
  }
  return b.root;
}

/**
 * Collapses recursion: a node whose method already occurs on the path above it (direct recursion
 * A→A or indirect A→B→A) is merged into the nearest such ancestor, with its calls, records and children.
 */
export function collapseRecursion(root: MctNode): MctNode {
  const b = new TreeBuilder();
  b.absorb(0, root);
  return rebuild(root, b, (kid, at) => {
    const m = kid.m as number;
    let target = -1;
    for (let a = at; a > 0; a = b.parentOf(a)) {
      if (b.node(a).m === m) {
        target = a;
        break;
      }
    }
    if (target < 0) target = b.child(at, m);
    b.absorb(target, kid);
    return target;
  });
}

/**
 * The inverted (bottom-up) tree: under the root, one node per method that has values of its own (records,
 * and calls when `withCalls`); below it the callers that led there, up to the thread's first frame. Each
 * original context's own values are charged to the last node of its reversed path, so the total of a
 * top-level node is the method's self value summed over all its contexts, and a node's total below is the
 * part that came through that chain of callers.
 */
export function invert(root: MctNode, opts: { withCalls?: boolean } = {}): MctNode {
  const withCalls = opts.withCalls ?? true;
  const b = new TreeBuilder();
  b.addRecords(0, recordsOf(root));
  b.addFolded(0, root.folded);
  b.addSamples(0, root.samples);
  walk(root, (node, path) => {
    if (path.length === 0) return;
    const recs = recordsOf(node);
    const calls = withCalls ? node.calls ?? 0 : 0;
    if (recs.length === 0 && calls === 0 && !node.folded && !node.samples) return;
    let at = 0;
    for (let i = path.length - 1; i >= 0; i--) at = b.child(at, path[i].m as number);
    b.addCalls(at, calls);
    b.addFolded(at, node.folded);
    b.addSamples(at, node.samples);
    b.addRecords(at, recs);
  });
  return b.root;
}
