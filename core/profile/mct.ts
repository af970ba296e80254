// Method call trees (MCTs): walking them and merging per-thread trees into one "all threads" tree.
import { AllocRecord, MctNode, Profile, ThreadEntry } from './types';

export function childrenOf(node: MctNode): MctNode[] {
  return node.c ?? [];
}

export function recordsOf(node: MctNode): AllocRecord[] {
  return node.a ?? [];
}

/** What records merge on: site, type, and the line and callee of the call they happened inside (rec[5], rec[6]). */
export function recordKey(rec: Readonly<AllocRecord>): string {
  return rec.length > 5 ? `${rec[0]}:${rec[1]}:${rec[5]}:${rec[6] ?? ''}` : `${rec[0]}:${rec[1]}`;
}

/** Adds the counts of `from` (count, elements, bytes) to `into`, a record of the same site and type. */
export function addCounts(into: AllocRecord, from: Readonly<AllocRecord>): void {
  into[2] += from[2];
  into[3] += from[3];
  into[4] += from[4];
}

/** A fresh copy of a record, its line and callee included. */
export function copyRecord(rec: Readonly<AllocRecord>): AllocRecord {
  return rec.slice() as AllocRecord;
}

/**
 * Visits every node of a tree in depth-first pre-order, children in file order, without recursion
 * (trees can be `maxDepth` = 4096 levels deep). `path` holds the non-root nodes from the top down to
 * `node` inclusive (empty for the root); it is reused between calls, so copy it to keep it.
 */
export function walk(root: MctNode, visit: (node: MctNode, path: readonly MctNode[]) => void): void {
  const path: MctNode[] = [];
  const stack: Array<{ node: MctNode; depth: number }> = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    path.length = Math.max(0, depth - 1);
    if (depth > 0) path.push(node);
    visit(node, path);
    const kids = childrenOf(node);
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], depth: depth + 1 });
  }
}

/** Number of nodes in a tree, root included. */
export function countNodes(root: MctNode): number {
  let n = 0;
  walk(root, () => n++);
  return n;
}

/**
 * Merges trees into a new tree: children are merged by method id (summing `calls` and `folded`),
 * allocation records by (site, type, line) (summing count, elements, bytes). The inputs are not modified.
 * Children and records keep the order in which they are first seen.
 */
export function mergeTrees(roots: readonly MctNode[]): MctNode {
  const merged: MctNode = {};
  const kidIndex = new Map<MctNode, Map<number, MctNode>>();
  const recIndex = new Map<MctNode, Map<string, AllocRecord>>();
  // Breadth-first, first in first out: children appear in the order first seen (inputs in order, then tree order).
  const queue: Array<{ into: MctNode; from: MctNode }> = roots.map((r) => ({ into: merged, from: r }));
  for (let head = 0; head < queue.length; head++) {
    const { into, from } = queue[head];
    if (from.calls !== undefined) into.calls = (into.calls ?? 0) + from.calls;
    if (from.folded) into.folded = (into.folded ?? 0) + from.folded;
    if (from.line && !into.line) into.line = from.line;
    if (from.samples) into.samples = (into.samples ?? 0) + from.samples;
    for (const rec of recordsOf(from)) {
      let recs = recIndex.get(into);
      if (!recs) recIndex.set(into, (recs = new Map()));
      const key = recordKey(rec);
      const have = recs.get(key);
      if (have) {
        addCounts(have, rec);
      } else {
        const copy = copyRecord(rec);
        recs.set(key, copy);
        (into.a ??= []).push(copy);
      }
    }
    for (const kid of childrenOf(from)) {
      let kids = kidIndex.get(into);
      if (!kids) kidIndex.set(into, (kids = new Map()));
      const m = kid.m as number;
      let target = kids.get(m);
      if (!target) {
        target = { m, calls: 0 };
        kids.set(m, target);
        (into.c ??= []).push(target);
      }
      queue.push({ into: target, from: kid });
    }
  }
  return merged;
}

/** The "all threads" tree of a profile (or of the given threads). */
export function mergeThreads(profile: Profile, threads: readonly ThreadEntry[] = profile.threads): MctNode {
  return mergeTrees(threads.map((t) => t.root));
}

/** `package.Class.method` of a node's method, or `(root)` for a root. */
export function frameName(profile: Profile, node: MctNode): string {
  if (node.m === undefined) return '(root)';
  const m = profile.methods.get(node.m);
  return m ? `${m.class}.${m.name}` : `?${node.m}`;
}
