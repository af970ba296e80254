// Lengauer–Tarjan over typed arrays: the paper's example graph, and random graphs against the dataflow definition.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { dominators, retainedSizes, dominatorChildren } from '../../extension/heap/dominators';

function graph(count: number, edges: [number, number][]) {
  const lists: number[][] = Array.from({ length: count }, () => []);
  for (const [a, b] of edges) lists[a].push(b);
  const start = new Int32Array(count);
  const length = new Int32Array(count);
  const targets: number[] = [];
  lists.forEach((l, v) => {
    start[v] = targets.length;
    length[v] = l.length;
    targets.push(...l);
  });
  return { count, start, length, targets: Int32Array.from(targets) };
}

test('Lengauer–Tarjan: the example graph of their 1979 paper (Figure 1)', () => {
  const names = 'RABCDEFGHIJKL'.split('');
  const id = (c: string) => names.indexOf(c);
  const e = 'RA RB RC AD BA BD BE CF CG DL EH FI GI GJ HE HK IK JI KI KR LH'.split(' ').map((s) => [id(s[0]), id(s[1])] as [number, number]);
  const { idom } = dominators(graph(names.length, e), 0);
  const got = names.slice(1).map((n) => `${n}:${names[idom[id(n)]]}`).join(' ');
  assert.equal(got, 'A:R B:R C:R D:R E:R F:C G:C H:R I:R J:G K:R L:D');
  assert.equal(idom[0], -1);
});

test('unreachable nodes get no dominator; retained sizes sum the dominated subtree', () => {
  // 0 → 1 → 2, 0 → 3 → 2 (2 is shared: dominated by 0), 1 → 4, node 5 unreachable.
  const g = graph(6, [[0, 1], [1, 2], [0, 3], [3, 2], [1, 4]]);
  const dom = dominators(g, 0);
  assert.deepEqual(Array.from(dom.idom), [-1, 0, 0, 0, 1, -1]);
  const retained = retainedSizes(dom, Float64Array.from([0, 10, 100, 1000, 10000, 7]));
  assert.deepEqual(Array.from(retained), [11110, 10010, 100, 1000, 10000, 0]);
  const tree = dominatorChildren(dom, 6);
  assert.deepEqual(Array.from(tree.children.subarray(tree.start[0], tree.start[1])).sort(), [1, 2, 3]);
});

test('a deep chain (no recursion limit): 200000 nodes in a line', () => {
  const n = 200000;
  const e: [number, number][] = [];
  for (let i = 0; i + 1 < n; i++) e.push([i, i + 1]);
  const { idom } = dominators(graph(n, e), 0);
  assert.equal(idom[n - 1], n - 2);
  assert.equal(idom[1], 0);
});

/** Dominator sets by the iterative dataflow definition: Dom(v) = {v} ∪ ⋂ Dom(preds). */
function bruteIdom(count: number, edges: [number, number][], root: number): number[] {
  const preds: number[][] = Array.from({ length: count }, () => []);
  for (const [a, b] of edges) preds[b].push(a);
  const reach = new Set([root]);
  for (let changed = true; changed;) {
    changed = false;
    for (const [a, b] of edges) if (reach.has(a) && !reach.has(b)) { reach.add(b); changed = true; }
  }
  const all = new Set(reach);
  const dom = new Map<number, Set<number>>();
  for (const v of reach) dom.set(v, v === root ? new Set([root]) : new Set(all));
  for (let changed = true; changed;) {
    changed = false;
    for (const v of reach) {
      if (v === root) continue;
      let inter: Set<number> | undefined;
      for (const p of preds[v]) {
        if (!reach.has(p)) continue;
        const d = dom.get(p)!;
        inter = inter ? new Set([...inter].filter((x) => d.has(x))) : new Set(d);
      }
      const next = new Set(inter ?? []);
      next.add(v);
      if (next.size !== dom.get(v)!.size) { dom.set(v, next); changed = true; }
    }
  }
  // idom: the strict dominator dominated by every other strict dominator (the one with the largest set).
  return Array.from({ length: count }, (_, v) => {
    if (!reach.has(v) || v === root) return -1;
    const strict = [...dom.get(v)!].filter((d) => d !== v);
    return strict.reduce((best, d) => (dom.get(d)!.size > dom.get(best)!.size ? d : best));
  });
}

test('random graphs: the same immediate dominators as the dataflow definition', () => {
  let seed = 12345;
  const rand = (k: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % k; };
  for (let round = 0; round < 200; round++) {
    const count = 2 + rand(30);
    const edges: [number, number][] = [];
    const m = rand(count * 3);
    for (let i = 0; i < m; i++) edges.push([rand(count), rand(count)]);
    const got = Array.from(dominators(graph(count, edges), 0).idom);
    assert.deepEqual(got, bruteIdom(count, edges, 0), `round ${round}: ${JSON.stringify(edges)}`);
  }
});
