// Immediate dominators by Lengauer–Tarjan ("simple" version: path compression, no balancing), over a graph in
// typed arrays, without recursion (the heap's reference chains are far deeper than the JS stack).

export interface Successors {
  /** nodes 0..count-1 */
  count: number;
  start: Int32Array;
  length: Int32Array;
  targets: Int32Array;
}

export interface DominatorResult {
  /** immediate dominator of each node; -1 for the root and for nodes the root does not reach */
  idom: Int32Array;
  /** nodes in DFS preorder from the root (only reached ones) */
  order: Int32Array;
}

export function dominators(g: Successors, root: number): DominatorResult {
  const N = g.count;
  const { start, length, targets } = g;
  const dfnum = new Int32Array(N).fill(-1);
  const vertex = new Int32Array(N);
  const parent = new Int32Array(N).fill(-1);
  // Iterative DFS in preorder.
  let reached = 0;
  {
    const stack = new Int32Array(N);
    const cursor = new Int32Array(N);
    let sp = 0;
    dfnum[root] = reached;
    vertex[reached++] = root;
    stack[sp++] = root;
    cursor[root] = 0;
    while (sp > 0) {
      const v = stack[sp - 1];
      if (cursor[v] < length[v]) {
        const w = targets[start[v] + cursor[v]++];
        if (dfnum[w] < 0) {
          dfnum[w] = reached;
          vertex[reached++] = w;
          parent[w] = v;
          cursor[w] = 0;
          stack[sp++] = w;
        }
      } else {
        sp--;
      }
    }
  }
  // Predecessors (CSR), reached nodes only.
  const predStart = new Int32Array(N + 1);
  for (let i = 0; i < reached; i++) {
    const v = vertex[i];
    for (let k = start[v], end = start[v] + length[v]; k < end; k++) predStart[targets[k] + 1]++;
  }
  for (let i = 0; i < N; i++) predStart[i + 1] += predStart[i];
  const preds = new Int32Array(predStart[N]);
  {
    const fill = predStart.slice(0, N);
    for (let i = 0; i < reached; i++) {
      const v = vertex[i];
      for (let k = start[v], end = start[v] + length[v]; k < end; k++) preds[fill[targets[k]]++] = v;
    }
  }
  const semi = dfnum.slice();                  // semidominator as a DFS number
  const label = new Int32Array(N);
  for (let i = 0; i < N; i++) label[i] = i;
  const ancestor = new Int32Array(N).fill(-1);
  const idom = new Int32Array(N).fill(-1);
  const bucketHead = new Int32Array(N).fill(-1);
  const bucketNext = new Int32Array(N).fill(-1);
  const chain = new Int32Array(N);

  const evaluate = (v: number): number => {
    if (ancestor[v] < 0) return v;
    // compress: walk up while the ancestor has an ancestor, then fix labels top-down.
    let sp = 0;
    let x = v;
    while (ancestor[ancestor[x]] >= 0) {
      chain[sp++] = x;
      x = ancestor[x];
    }
    while (sp > 0) {
      const y = chain[--sp];
      const a = ancestor[y];
      if (semi[label[a]] < semi[label[y]]) label[y] = label[a];
      ancestor[y] = ancestor[a];
    }
    return label[v];
  };

  for (let i = reached - 1; i >= 1; i--) {
    const w = vertex[i];
    for (let k = predStart[w]; k < predStart[w + 1]; k++) {
      const u = evaluate(preds[k]);
      if (semi[u] < semi[w]) semi[w] = semi[u];
    }
    const s = vertex[semi[w]];
    bucketNext[w] = bucketHead[s];
    bucketHead[s] = w;
    const p = parent[w];
    ancestor[w] = p;
    for (let v = bucketHead[p]; v >= 0; v = bucketNext[v]) {
      const u = evaluate(v);
      idom[v] = semi[u] < semi[v] ? u : p;
    }
    bucketHead[p] = -1;
  }
  for (let i = 1; i < reached; i++) {
    const w = vertex[i];
    if (idom[w] !== vertex[semi[w]]) idom[w] = idom[idom[w]];
  }
  idom[root] = -1;
  return { idom, order: vertex.slice(0, reached) };
}

/** Retained size of every node: its shallow size plus that of every node it dominates. */
export function retainedSizes(dom: DominatorResult, shallow: Float64Array): Float64Array {
  const retained = new Float64Array(shallow.length);
  const { idom, order } = dom;
  for (let i = 0; i < order.length; i++) retained[order[i]] = shallow[order[i]];
  for (let i = order.length - 1; i >= 1; i--) {
    const w = order[i];
    retained[idom[w]] += retained[w];
  }
  return retained;
}

/** Children of each node in the dominator tree (CSR). */
export function dominatorChildren(dom: DominatorResult, count: number): { start: Int32Array; children: Int32Array } {
  const start = new Int32Array(count + 1);
  const { idom, order } = dom;
  for (let i = 1; i < order.length; i++) start[idom[order[i]] + 1]++;
  for (let i = 0; i < count; i++) start[i + 1] += start[i];
  const children = new Int32Array(start[count]);
  const fill = start.slice(0, count);
  for (let i = 1; i < order.length; i++) children[fill[idom[order[i]]]++] = order[i];
  return { start, children };
}
