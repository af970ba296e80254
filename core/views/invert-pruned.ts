// The inverted (bottom-up) tree built by grouping instead of path by path: level 1 groups every context with values
// of its own by its method, each next level groups a group's contexts by their next caller. A caller group that holds
// less than `minShare` of the root's total in every metric is not opened: its values stay on the frame above (the
// chain of callers is cut there, its totals stay exact). With minShare 0 the result equals transform.invert; with the
// views' 1/10,000 — far below a pixel of the flame tree — a random 100,000-node profile, whose full inversion has
// 2 million nodes, inverts in a fraction of a second.
import { recordsOf } from '../profile/mct';
import { TreeBuilder } from './transform';
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
  // Groups are ranges of one shared buffer of contexts (and, per context, the caller reached so far): splitting a
  // range reorders it in place through a scratch buffer, so no array is allocated per group (that was the cost).
  const count = contexts.length;
  const ctxBuf = Int32Array.from(contexts);
  const curBuf = Int32Array.from(contexts);
  const tmpCtx = new Int32Array(count);
  const tmpCur = new Int32Array(count);
  const key = new Int32Array(count);
  let maxMethod = 0;
  for (let i = 1; i < n; i++) if (method[i] > maxMethod) maxMethod = method[i];
  const slot = new Int32Array(maxMethod + 1).fill(-1);   // a method's group in the range being split
  const todo: number[] = [];                              // (builder node, start, end) triples
  const gMethod: number[] = [];
  const gSize: number[] = [];
  const gWeight: number[] = [];
  const gStart: number[] = [];
  const split = (at: number, s: number, e: number, top: boolean): void => {
    gMethod.length = 0;
    gSize.length = 0;
    gWeight.length = 0;
    for (let k = s; k < e; k++) {
      const next = top ? curBuf[k] : parent[curBuf[k]];
      if (next <= 0) {
        absorb(at, ctxBuf[k]);           // the thread's first frame: the chain ends here
        key[k] = -1;
        continue;
      }
      curBuf[k] = next;
      const m = method[next];
      let g = slot[m];
      if (g < 0) {
        g = slot[m] = gMethod.length;
        gMethod.push(m);
        gSize.push(0);
        gWeight.push(0);
      }
      key[k] = g;
      gSize[g]++;
      gWeight[g] += weight[ctxBuf[k]];
    }
    for (const m of gMethod) slot[m] = -1;
    // kept groups get consecutive ranges from s on; a cut group's contexts stay on this frame
    gStart.length = 0;
    let pos = s;
    for (let g = 0; g < gMethod.length; g++) {
      const keep = top || gWeight[g] >= minShare;
      gStart.push(keep ? pos : -1);
      if (keep) pos += gSize[g];
    }
    const fill = gStart.slice();
    for (let k = s; k < e; k++) {
      const g = key[k];
      if (g < 0) continue;
      if (fill[g] < 0) {
        absorb(at, ctxBuf[k]);           // callers too small to see: the chain is cut here
        continue;
      }
      const to = fill[g]++;
      tmpCtx[to] = ctxBuf[k];
      tmpCur[to] = curBuf[k];
    }
    ctxBuf.set(tmpCtx.subarray(s, pos), s);
    curBuf.set(tmpCur.subarray(s, pos), s);
    for (let g = 0; g < gMethod.length; g++) {
      if (gStart[g] < 0) continue;
      todo.push(b.child(at, gMethod[g]), gStart[g], gStart[g] + gSize[g]);
    }
  };
  split(0, 0, count, true);
  while (todo.length > 0) {
    const e = todo.pop()!;
    const s = todo.pop()!;
    split(todo.pop()!, s, e, false);
  }
  return b.root;
}
