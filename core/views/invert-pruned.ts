// The inverted (bottom-up) tree built by grouping instead of path by path (caller-groups.ts): level 1 groups every
// context with values of its own by its method, each next level groups a group's contexts by their next caller. A
// caller group that holds less than `minShare` of the root's total in every metric is not opened: its values stay on
// the frame above (the chain of callers is cut there, its totals stay exact). With minShare 0 the result equals
// transform.invert; with the views' 1/10,000 — far below a pixel of the flame tree — a random 100,000-node profile,
// whose full inversion has 2 million nodes, inverts in a fraction of a second.
import { recordsOf } from '../profile/mct';
import { TreeBuilder } from './transform';
import { groupByCallersNow } from './caller-groups';
import { MctNode, TypeEntry } from '../profile/types';

/** A tenth of a pixel of a 1,000-pixel-wide flame tree: what the views use. */
export const VIEW_MIN_SHARE = 1 / 10000;

export function invertPruned(root: MctNode, types: ReadonlyMap<number, TypeEntry>, minShare = VIEW_MIN_SHARE): MctNode {
  let maxType = 0;
  for (const id of types.keys()) if (id > maxType) maxType = id;
  const isArray = new Uint8Array(maxType + 1);
  for (const [id, t] of types) if (t.array) isArray[id] = 1;
  // flatten: pre-order nodes with their parent and method (two stacks: no tuple per node)
  const nodes: MctNode[] = [];
  const parentList: number[] = [];
  const stackNode: MctNode[] = [root];
  const stackParent: number[] = [-1];
  while (stackNode.length > 0) {
    const node = stackNode.pop()!;
    const p = stackParent.pop()!;
    const i = nodes.length;
    nodes.push(node);
    parentList.push(p);
    const kids = node.c;
    if (kids) for (let k = kids.length - 1; k >= 0; k--) {
      stackNode.push(kids[k]);
      stackParent.push(i);
    }
  }
  const n = nodes.length;
  const parent = Int32Array.from(parentList);
  const method = new Int32Array(n);
  // own values per metric (objects, arrays, bytes, calls, samples + folded), for each context's weight: its largest share
  const own = new Float64Array(n * 5);
  const total = new Float64Array(5);
  const contexts: number[] = [];
  for (let i = 1; i < n; i++) {
    const node = nodes[i];
    method[i] = node.m as number;
    const a = node.a;
    const o = i * 5;
    if (a) for (let k = 0; k < a.length; k++) {
      const r = a[k];
      if (r[1] <= maxType && isArray[r[1]]) own[o + 1] += r[2];
      else own[o] += r[2];
      own[o + 2] += r[4];
    }
    own[o + 3] = node.calls ?? 0;
    own[o + 4] = (node.samples ?? 0) + (node.folded ?? 0);
    for (let k = 0; k < 5; k++) total[k] += own[o + k];
    if ((a && a.length > 0) || node.calls || node.folded || node.samples) contexts.push(i);
  }
  const weight = new Float64Array(n);
  for (let i = 1; i < n; i++) {
    let w = 0;
    for (let k = 0; k < 5; k++) {
      const share = total[k] > 0 ? own[i * 5 + k] / total[k] : 0;
      if (share > w) w = share;
    }
    weight[i] = w;
  }
  const b = new TreeBuilder();
  b.addRecords(0, recordsOf(root));
  b.addFolded(0, root.folded);
  b.addSamples(0, root.samples);
  const absorb = (at: number, i: number): void => {
    const node = nodes[i];
    b.addCalls(at, node.calls);
    b.addFolded(at, node.folded);
    b.addSamples(at, node.samples);
    if (node.a) b.addRecords(at, node.a);
  };
  groupByCallersNow(parent, method, weight, contexts, minShare, { absorb, child: (at, m) => b.child(at, m) });
  return b.root;
}
