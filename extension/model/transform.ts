// Tree transforms for the views, MCT in → new MCT out (inputs never modified):
//   invert            bottom-up: the allocating methods at the top, their callers below
//   foldFrames        "only my code": frames that are not kept vanish, their allocations and calls
//                     go to the nearest kept caller, their kept callees move up to it
//   collapseRecursion a frame whose method is already on the path above it merges into that ancestor
// Every transform keeps the allocation totals (objects, arrays, elements, bytes); only foldFrames drops calls.
import { childrenOf, recordsOf, walk } from './mct';
import { AllocRecord, MctNode } from './types';

/** Builds a tree where children merge by method id and records by (site, type). */
export class TreeBuilder {
  readonly root: MctNode = {};
  private readonly kids = new Map<MctNode, Map<number, MctNode>>();
  private readonly recIndex = new Map<MctNode, Map<number, AllocRecord>>();
  private readonly parents = new Map<MctNode, MctNode>();

  /** The child of `parent` for method `m`, created (with 0 calls) when missing. */
  child(parent: MctNode, m: number): MctNode {
    let kids = this.kids.get(parent);
    if (!kids) this.kids.set(parent, (kids = new Map()));
    let kid = kids.get(m);
    if (!kid) {
      kid = { m, calls: 0 };
      kids.set(m, kid);
      (parent.c ??= []).push(kid);
      this.parents.set(kid, parent);
    }
    return kid;
  }

  parentOf(node: MctNode): MctNode | undefined {
    return this.parents.get(node);
  }

  addCalls(node: MctNode, calls: number | undefined): void {
    if (calls && node !== this.root) node.calls = (node.calls ?? 0) + calls;
  }

  addFolded(node: MctNode, folded: number | undefined): void {
    if (folded) node.folded = (node.folded ?? 0) + folded;
  }

  addRecords(node: MctNode, recs: readonly AllocRecord[]): void {
    if (recs.length === 0) return;
    let index = this.recIndex.get(node);
    if (!index) this.recIndex.set(node, (index = new Map()));
    for (const rec of recs) {
      // site and type ids are small non-negative integers: one number keys the pair
      const key = rec[0] * 0x100000 + rec[1];
      const have = index.get(key);
      if (have) {
        have[2] += rec[2];
        have[3] += rec[3];
        have[4] += rec[4];
      } else {
        const copy: AllocRecord = [rec[0], rec[1], rec[2], rec[3], rec[4]];
        index.set(key, copy);
        (node.a ??= []).push(copy);
      }
    }
  }

  /** Everything a source node carries except its children. */
  absorb(into: MctNode, from: MctNode): void {
    this.addCalls(into, from.calls);
    this.addFolded(into, from.folded);
    this.addRecords(into, recordsOf(from));
  }
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
  b.addRecords(b.root, recordsOf(root));
  b.addFolded(b.root, root.folded);
  const stack: Array<{ from: MctNode; into: MctNode }> = [{ from: root, into: b.root }];
  while (stack.length > 0) {
    const { from, into } = stack.pop()!;
    for (const kid of childrenOf(from)) {
      const m = kid.m as number;
      let target = into;
      if (keep(m)) {
        target = b.child(into, m);
        b.addCalls(target, kid.calls);
      }
      b.addFolded(target, kid.folded);
      b.addRecords(target, recordsOf(kid));
      stack.push({ from: kid, into: target });
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
  b.absorb(b.root, root);
  const stack: Array<{ from: MctNode; into: MctNode }> = [{ from: root, into: b.root }];
  while (stack.length > 0) {
    const { from, into } = stack.pop()!;
    for (const kid of childrenOf(from)) {
      const m = kid.m as number;
      let target: MctNode | undefined;
      for (let a: MctNode | undefined = into; a && a !== b.root; a = b.parentOf(a)) {
        if (a.m === m) {
          target = a;
          break;
        }
      }
      target ??= b.child(into, m);
      b.absorb(target, kid);
      stack.push({ from: kid, into: target });
    }
  }
  return b.root;
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
  b.addRecords(b.root, recordsOf(root));
  b.addFolded(b.root, root.folded);
  walk(root, (node, path) => {
    if (path.length === 0) return;
    const recs = recordsOf(node);
    const calls = withCalls ? node.calls ?? 0 : 0;
    if (recs.length === 0 && calls === 0 && !node.folded) return;
    let at = b.root;
    for (let i = path.length - 1; i >= 0; i--) at = b.child(at, path[i].m as number);
    b.addCalls(at, calls);
    b.addFolded(at, node.folded);
    b.addRecords(at, recs);
  });
  return b.root;
}
