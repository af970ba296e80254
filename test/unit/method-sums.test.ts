import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { frameTree } from '../../core/views/frames';
import { methodsIn, selfByMethod } from '../../core/views/method-sums';
import { loadProfile } from '../../core/profile/load';
import { mergeThreads } from '../../core/profile/mct';
import { dataFile } from './helpers';

// the sample's merged tree (frames.test.ts): root, main, <init>, run (under main), grid, run (top level);
// methods [-1, 1, 3, 2, 4, 2], self bytes [32, 112, 0, 168, 88, 104]
function sampleTree() {
  const p = loadProfile(dataFile('sample.heaplens'));
  return frameTree(mergeThreads(p), p.methods, p.types);
}

test('methodsIn: distinct methods in order of first appearance, the root as -1', () => {
  const t = sampleTree();
  assert.deepEqual([...t.method], [-1, 1, 3, 2, 4, 2]);
  assert.deepEqual(methodsIn(t, 0, t.n), [-1, 1, 3, 2, 4]);
  assert.deepEqual(methodsIn(t, 1, t.n), [1, 3, 2, 4]);
  assert.deepEqual(methodsIn(t, 3, 6), [2, 4]);
  assert.deepEqual(methodsIn(t, 2, 2), []);
});

test('selfByMethod: self values of the zoomed subtree per method, 1e-9 per method', () => {
  const t = sampleTree();
  const all = selfByMethod(t, 'bytes', 0);
  assert.deepEqual([...all.keys()], [-1, 1, 3, 2, 4]);
  // run appears twice (under main and at the top): 168 + 104, and 2e-9 for its two nodes
  assert.deepEqual([...all.values()], [32 + 1e-9, 112 + 1e-9, 0 + 1e-9, 168 + 104 + 1e-9, 88 + 1e-9]);
  // zoomed into main (node 1, subtree 1…4): the top-level run is outside
  const main = selfByMethod(t, 'bytes', 1);
  assert.deepEqual([...main.entries()], [[1, 112 + 1e-9], [3, 1e-9], [2, 168 + 1e-9], [4, 88 + 1e-9]]);
  assert.deepEqual([...selfByMethod(t, 'objects', 0).entries()].map(([m, v]) => [m, Math.round(v)]), [[-1, 0], [1, 7], [3, 0], [2, 6], [4, 0]]);
});
