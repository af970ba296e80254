// Callers and callees of one method (speedscope's sandwich, a butterfly view): every context the method ran in,
// merged. Callers: a tree rooted at the method whose branches are the paths that led to it, each sized by what
// the method allocated (itself and below) through that path. Callees: the method's subtrees merged, so the
// figures are everything it allocated through any path. Recursion counts once: only the outermost occurrence
// on a path contributes, so nothing is counted twice.
import { FrameTree } from './frames';
import { TreeBuilder } from './transform';
import { AllocRecord, MctNode } from '../profile/types';
import { addCounts } from '../profile/mct';

export interface Butterfly {
  method: number;
  /** contexts the method ran in, and the outermost ones (not below another call of the same method) */
  contexts: number;
  outermost: number;
  /** own allocations summed over every context; totals over the outermost ones */
  selfAllocations: number;
  selfBytes: number;
  totalAllocations: number;
  totalBytes: number;
  calls: number;
  /** root → method → its callers, outwards (the thread's first frame deepest) */
  callers: MctNode;
  /** root → method → its callees, merged across contexts */
  callees: MctNode;
}

/** The outermost nodes of `method`, in tree order: no ancestor runs the same method. */
export function outermostNodes(tree: FrameTree, method: number): number[] {
  const out: number[] = [];
  for (let i = 1; i < tree.n;) {
    if (tree.method[i] === method) {
      out.push(i);
      i = tree.end[i];
    } else {
      i++;
    }
  }
  return out;
}

/** The subtree's allocation records summed per type (site 0): what a caller chain's node is charged. */
function subtreeByType(tree: FrameTree, i: number): AllocRecord[] {
  const byType = new Map<number, AllocRecord>();
  for (let j = i; j < tree.end[i]; j++) {
    const recs = tree.recs[j];
    if (!recs) continue;
    for (const r of recs) {
      const have = byType.get(r[1]);
      if (have) {
        addCounts(have, r);
      } else {
        byType.set(r[1], [0, r[1], r[2], r[3], r[4]]);
      }
    }
  }
  return [...byType.values()];
}

export function butterfly(tree: FrameTree, method: number): Butterfly {
  let contexts = 0;
  let selfAllocations = 0;
  let selfBytes = 0;
  let calls = 0;
  for (let i = 1; i < tree.n; i++) {
    if (tree.method[i] !== method) continue;
    contexts++;
    selfAllocations += tree.self.objects[i] + tree.self.arrays[i];
    selfBytes += tree.self.bytes[i];
    calls += tree.self.calls[i];
  }
  const outer = outermostNodes(tree, method);
  let totalAllocations = 0;
  let totalBytes = 0;
  const callers = new TreeBuilder();
  const callees = new TreeBuilder();
  const calleeTop = outer.length > 0 ? callees.child(0, method) : -1;
  const callerTop = outer.length > 0 ? callers.child(0, method) : -1;
  const ids = new Int32Array(tree.n);
  for (const i of outer) {
    totalAllocations += tree.total.objects[i] + tree.total.arrays[i];
    totalBytes += tree.total.bytes[i];
    // callees: the subtree, merged under the one top node
    ids[i] = calleeTop;
    callees.addCalls(calleeTop, tree.self.calls[i]);
    if (tree.recs[i]) callees.addRecords(calleeTop, tree.recs[i]!);
    for (let j = i + 1; j < tree.end[i]; j++) {
      const id = callees.child(ids[tree.parent[j]], tree.method[j]);
      ids[j] = id;
      callees.addCalls(id, tree.self.calls[j]);
      if (tree.recs[j]) callees.addRecords(id, tree.recs[j]!);
    }
    // callers: the path to the thread's first frame, reversed; the subtree's figures charged at its far end
    let at = callerTop;
    for (let p = tree.parent[i]; p > 0; p = tree.parent[p]) at = callers.child(at, tree.method[p]);
    callers.addCalls(at, tree.self.calls[i]);
    callers.addRecords(at, subtreeByType(tree, i));
  }
  return {
    method, contexts, outermost: outer.length, selfAllocations, selfBytes, totalAllocations, totalBytes, calls,
    callers: callers.root, callees: callees.root,
  };
}

/** Methods that appear in the tree with their total allocations (outermost contexts), largest first: the picker's list. */
export function methodsByTotal(tree: FrameTree): Array<{ method: number; allocations: number; bytes: number }> {
  const seen = new Map<number, { method: number; allocations: number; bytes: number }>();
  // a method's outermost contexts: track how many times each method is on the current path
  const onPath = new Map<number, number>();
  const stack: number[] = [];
  for (let i = 1; i < tree.n; i++) {
    while (stack.length > 0 && tree.end[stack[stack.length - 1]] <= i) {
      const j = stack.pop()!;
      onPath.set(tree.method[j], onPath.get(tree.method[j])! - 1);
    }
    const m = tree.method[i];
    const depth = onPath.get(m) ?? 0;
    if (depth === 0) {
      let e = seen.get(m);
      if (!e) seen.set(m, (e = { method: m, allocations: 0, bytes: 0 }));
      e.allocations += tree.total.objects[i] + tree.total.arrays[i];
      e.bytes += tree.total.bytes[i];
    }
    onPath.set(m, depth + 1);
    stack.push(i);
  }
  return [...seen.values()].sort((a, b) => b.allocations - a.allocations || b.bytes - a.bytes || a.method - b.method);
}
