import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ancestry, breakdownByType, childrenIndices, findPath, flatten, frameTree, mctInput, pathOf, VIEW_METRICS } from '../../core/views/frames';
import { loadProfile } from '../../core/profile/load';
import { mergeThreads } from '../../core/profile/mct';
import { MctNode, MethodEntry, Profile, TypeEntry } from '../../core/profile/types';
import { hitTest, layout, neighbour } from '../../webview/core/layout';
import { search } from '../../webview/core/search';
import { dataFile } from './helpers';

function sample(): Profile {
  return loadProfile(dataFile('sample.heaplens'));
}

function merged(p: Profile) {
  return frameTree(mergeThreads(p), p.methods, p.types);
}

test('flattening: pre-order, siblings by name, self and total per metric, subtree ends', () => {
  const p = sample();
  const t = merged(p);
  assert.equal(t.n, 6);
  // root, main, <init>, run (under main), grid, run (top level)
  assert.deepEqual([...t.method], [-1, 1, 3, 2, 4, 2]);
  assert.deepEqual([...t.parent], [-1, 0, 1, 1, 1, 0]);
  assert.deepEqual([...t.depth], [0, 1, 2, 2, 2, 1]);
  assert.deepEqual([...t.end], [6, 5, 3, 4, 5, 6]);
  assert.equal(t.maxDepth, 2);
  assert.deepEqual([...t.total.objects], [13, 10, 0, 3, 0, 3]);
  assert.deepEqual([...t.total.bytes], [504, 368, 0, 168, 88, 104]);
  assert.deepEqual([...t.self.bytes], [32, 112, 0, 168, 88, 104]);
  assert.deepEqual([...t.total.arrays], [8, 6, 0, 3, 3, 1]);
  assert.deepEqual([...t.total.elements], [51, 38, 0, 30, 8, 10]);
  assert.deepEqual([...t.total.calls], [9, 6, 2, 2, 1, 3]);
  assert.deepEqual(childrenIndices(t, 1), [2, 3, 4]);
  assert.deepEqual(ancestry(t, 4), [0, 1, 4]);
  assert.deepEqual(pathOf(t, 4), [1, 4]);
  assert.equal(findPath(t, [1, 4]), 4);
  assert.equal(findPath(t, [2]), 5);
  assert.equal(findPath(t, [1, 99]), -1);
  assert.equal(findPath(t, [1, 99], true), 1);
});

test('breakdown by allocated type: self and subtree', () => {
  const p = sample();
  const t = merged(p);
  assert.deepEqual(breakdownByType(t, 1, 'self').map((b) => [p.types.get(b.type)!.name, b.count, b.bytes]), [
    ['java.lang.Integer', 5, 80], ['com.acme.Outer$Inner', 2, 32],
  ]);
  assert.deepEqual(breakdownByType(t, 0, 'total').map((b) => [p.types.get(b.type)!.name, b.count, b.elements, b.bytes]), [
    ['java.lang.String', 6, 0, 144], ['byte[]', 4, 40, 128], ['java.lang.Integer', 5, 0, 80], ['int[]', 2, 6, 64],
    ['com.acme.Outer$Inner', 2, 0, 32], ['java.lang.Object[]', 1, 3, 32], ['int[][]', 1, 2, 24],
  ]);
});

test('icicle layout: widths are shares of the zoomed total, children left to right', () => {
  const t = merged(sample());
  const lay = layout(t, 'bytes', 0);
  assert.equal(lay.scale, 504);
  assert.equal(lay.rows, 3);
  const near = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-12, `${a} ≈ ${b}`);
  near(lay.w[1], 368 / 504);
  near(lay.x[5], 368 / 504);
  near(lay.w[5], 104 / 504);
  near(lay.x[3], 0);
  near(lay.x[4], 168 / 504);
  near(lay.w[4], 88 / 504);
  assert.equal(lay.w[2], 0, 'a frame with nothing of the metric has no width');

  const zoomed = layout(t, 'bytes', 1);
  assert.equal(zoomed.scale, 368);
  assert.equal(zoomed.rows, 2);
  near(zoomed.w[3], 168 / 368);
  near(zoomed.x[4], 168 / 368);
  assert.equal(zoomed.w[5], 0, 'outside the zoomed subtree');

  const calls = layout(t, 'calls', 0);
  near(calls.w[2], 2 / 9);
});

test('hit testing and keyboard neighbours', () => {
  const t = merged(sample());
  const lay = layout(t, 'bytes', 0);
  assert.equal(hitTest(t, lay, 0.5, 0), 0);
  assert.equal(hitTest(t, lay, 0.5, 1), 1);
  assert.equal(hitTest(t, lay, 0.4, 2), 4);
  assert.equal(hitTest(t, lay, 0.9, 1), 5);
  assert.equal(hitTest(t, lay, 0.9, 2), -1);
  assert.equal(neighbour(t, lay, 0, 'down'), 1, 'the widest child');
  assert.equal(neighbour(t, lay, 3, 'right'), 4);
  assert.equal(neighbour(t, lay, 4, 'left'), 3);
  assert.equal(neighbour(t, lay, 3, 'left'), 3, 'the zero-width <init> is skipped');
  assert.equal(neighbour(t, lay, 4, 'up'), 1);
});

test('icicle layout with a minimum width: the subtrees below a narrower frame are left out, rows still counted', () => {
  const t = merged(sample());
  // bytes: root 504, main 368 (0.730), <init> 0, run 168, grid 88 (under main), run 104 (top level, 0.206)
  const cut = layout(t, 'bytes', 0, undefined, 0.75);
  const full = layout(t, 'bytes', 0);
  assert.equal(cut.minWidth, 0.75);
  assert.equal(cut.rows, 3, 'the rows of the left-out frames still count');
  assert.deepEqual([...cut.w], [1, 368 / 504, 0, 0, 0, 104 / 504]);
  assert.deepEqual([...cut.x], [0, 0, 0, 0, 0, 368 / 504]);
  assert.deepEqual([...full.w].map((w, i) => (i >= 2 && i <= 4 ? 0 : w)), [...cut.w]);
  // hit testing and keyboard moves read the totals, so they answer the same as on the whole layout
  for (let row = 0; row < 4; row++) {
    for (let k = 0; k < 50; k++) {
      const fx = k / 50;
      assert.equal(hitTest(t, cut, fx, row), hitTest(t, full, fx, row), `fx ${fx}, row ${row}`);
    }
  }
  assert.equal(hitTest(t, cut, 0.4, 2), 4);
  assert.equal(neighbour(t, cut, 1, 'down'), 3, 'the widest child, not laid out');
  assert.equal(neighbour(t, cut, 3, 'right'), 4);
  assert.equal(neighbour(t, cut, 3, 'left'), 3, 'the zero-width <init> is skipped');
  // a layout reused at a smaller minimum width lays those frames out again
  const again = layout(t, 'bytes', 0, cut, 0);
  assert.deepEqual([...again.w], [...full.w]);
  assert.deepEqual([...again.x], [...full.x]);
});

test('search: matches, matched share without double counting, regular expressions', () => {
  const p = sample();
  const t = merged(p);
  const run = search(t, p.methods, 'inner.RUN', 'bytes');
  assert.deepEqual(run.matches, [3, 5]);
  assert.equal(run.share, (168 + 104) / 504);
  const re = search(t, p.methods, '/Util\\.grid|Inner\\.run/', 'bytes');
  assert.deepEqual(re.matches, [3, 4, 5]);
  assert.equal(re.share, (168 + 88 + 104) / 504);
  const nested = search(t, p.methods, 'com.acme', 'bytes');
  assert.equal(nested.share, (368 + 104) / 504, 'descendants of a match are not counted again');
  const within = search(t, p.methods, 'grid', 'bytes', 1);
  assert.equal(within.share, 88 / 368);
  assert.deepEqual(search(t, p.methods, '   ', 'bytes').matches, []);
});

// frameTree walks the parsed nodes once into arrays that grow, sorts short child lists by insertion, and falls back to
// the ranking over the ids the nodes name when a node's method is not in the table: the same tree as before in all cases
function method(id: number, cls: string, name: string): MethodEntry {
  return { id, class: cls, name, desc: '()V', profiled: true };
}

test('frameTree: siblings of equal names keep id order; a method the table lacks ranks first, as before', () => {
  // 7 and 3 have the same name (a class loaded twice): ordered by id; 99 is not in the table
  const methods = new Map([method(3, 'a.B', 'run'), method(7, 'a.B', 'run'), method(5, 'a.A', 'go'), method(9, 'z.Z', 'end')].map((m) => [m.id, m]));
  const types = new Map<number, TypeEntry>([[1, { id: 1, name: 'int[]', array: true, size: null }], [2, { id: 2, name: 'a.T', array: false, size: 16 }]]);
  const root: MctNode = {
    c: [
      { m: 9, calls: 1, a: [[1, 2, 4, 0, 64]] },
      { m: 7, calls: 2, line: 12, c: [{ m: 5, calls: 1, a: [[2, 1, 2, 10, 72], [3, 2, 1, 0, 16]] }] },
      { m: 5, calls: 3 },
      { m: 3, calls: 4, a: [[4, 1, 1, 3, 32]] },
    ],
  };
  const t = frameTree(root, methods, types);
  assert.deepEqual([...t.method], [-1, 5, 3, 7, 5, 9]);
  assert.deepEqual([...t.parent], [-1, 0, 0, 0, 3, 0]);
  assert.deepEqual([...t.end], [6, 2, 3, 5, 5, 6]);
  assert.deepEqual([...t.entryLine!], [0, 0, 0, 12, 0, 0]);
  assert.deepEqual([...t.total.allocations], [8, 0, 1, 3, 3, 4]);
  assert.deepEqual([...t.total.arrays], [3, 0, 1, 2, 2, 0]);
  assert.deepEqual([...t.total.elements], [13, 0, 3, 10, 10, 0]);
  assert.deepEqual([...t.total.bytes], [184, 0, 32, 88, 88, 64]);
  assert.deepEqual([...t.total.calls], [11, 3, 4, 3, 1, 1]);
  assert.equal(t.recs[4]!.length, 2);
  assert.equal(t.recs[1], undefined);
  // an unknown method (99): rank 0 as frameTree always gave it, tied with the first name (a.A.go), and a tie is drawn
  // in reverse input order (the walk's stack), as the code before the one-pass walk drew it
  const withUnknown: MctNode = { c: [{ m: 9 }, { m: 99, calls: 5 }, { m: 5 }, { m: 3 }] };
  const u = frameTree(withUnknown, methods, types);
  assert.deepEqual([...u.method], [-1, 5, 99, 3, 9]);
  assert.deepEqual([...u.total.calls], [5, 0, 5, 0, 0]);
});

test('frameTree: a large tree (arrays grown past their first size, child lists short and long) as the generic flatten makes it', () => {
  let s = 7;
  const rnd = (k: number) => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) % k);
  const methods = new Map<number, MethodEntry>();
  // 40 ids over 25 names: some names shared by two ids
  for (let id = 1; id <= 40; id++) methods.set(id, method(id, `p.C${id % 25}`, 'm'));
  const types = new Map<number, TypeEntry>([[1, { id: 1, name: 'long[]', array: true, size: null }], [2, { id: 2, name: 'p.T', array: false, size: 24 }]]);
  const root: MctNode = { c: [] };
  const open: MctNode[] = [root];
  let made = 0;
  while (made < 5000) {
    const parent = open[rnd(open.length)];
    // now and then a parent of 20-39 children (sort()), mostly 1-4 (insertion sort)
    const kids = rnd(50) === 0 ? 20 + rnd(20) : 1 + rnd(4);
    for (let k = 0; k < kids; k++, made++) {
      const node: MctNode = { m: 1 + rnd(40), calls: rnd(3), a: rnd(2) ? [[1 + rnd(9), 1 + rnd(2), 1 + rnd(5), rnd(9), 8 * (1 + rnd(20))]] : undefined };
      (parent.c ??= []).push(node);
      open.push(node);
    }
  }
  const t = frameTree(root, methods, types);
  const ref = flatten(mctInput(root, types), (m) => `${methods.get(m)!.class}.${methods.get(m)!.name}${methods.get(m)!.desc}`);
  assert.equal(t.n, made + 1);
  assert.equal(t.n, ref.n);
  assert.equal(t.maxDepth, ref.maxDepth);
  for (const k of ['method', 'parent', 'depth', 'end'] as const) assert.deepEqual([...t[k]], [...ref[k]], k);
  for (const k of VIEW_METRICS) {
    assert.deepEqual([...t.self[k]], [...ref.self[k]], `self ${k}`);
    assert.deepEqual([...t.total[k]], [...ref.total[k]], `total ${k}`);
  }
  for (let i = 0; i < t.n; i++) assert.equal(t.recs[i], ref.recs[i]);
  assert.equal(t.total.calls[0], ref.total.calls[0]);
});
