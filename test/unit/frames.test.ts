import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ancestry, breakdownByType, childrenIndices, findPath, frameTree, pathOf } from '../../core/views/frames';
import { loadProfile } from '../../core/profile/load';
import { mergeThreads } from '../../core/profile/mct';
import { Profile } from '../../core/profile/types';
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
