// "All threads" by structural sharing: the same tree as mergeAll, and a subtree only one thread has is not copied.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mergeShared } from '../../core/views/merge-shared';
import { mergeAll } from '../../core/views/transform';
import { frameTree, VIEW_METRICS } from '../../core/views/frames';
import { loadProfile } from '../../core/profile/load';
import { MctNode } from '../../core/profile/types';
import { dataFile } from './helpers';
import { fixtureProfile } from './views-fixture';

test('merged by sharing: node for node the tree mergeAll builds', () => {
  const second: MctNode = { c: [{ m: 1, calls: 2, a: [[1, 1, 5, 0, 80]], c: [{ m: 3, calls: 1, a: [[3, 1, 1, 0, 16]] }] }, { m: 2, calls: 7 }] };
  const two = fixtureProfile();
  two.threads.push({ id: 2, name: 'worker', daemon: true, alive: false, root: second });
  for (const p of [two, loadProfile(dataFile('sample.heaplens')), loadProfile(dataFile('wordindex.heaplens'))]) {
    const roots = p.threads.map((t) => t.root);
    const want = frameTree(mergeAll(roots), p.methods, p.types);
    const got = frameTree(mergeShared(roots), p.methods, p.types);
    assert.equal(got.n, want.n);
    assert.deepEqual([...got.method], [...want.method]);
    assert.deepEqual([...got.parent], [...want.parent]);
    for (const k of VIEW_METRICS) assert.deepEqual([...got.self[k]], [...want.self[k]], k);
  }
  // main (thread 1: 1 call, Item ×2; thread 2: 2 calls, Item ×5) merged: 3 calls, Item ×7 (112 B)
  const merged = mergeShared(two.threads.map((t) => t.root));
  const main = merged.c!.find((c) => c.m === 1)!;
  assert.deepEqual([main.calls, main.a], [3, [[1, 1, 7, 0, 112]]]);
  // helper ran in thread 1 only: the very same object, not a copy; the inputs are untouched
  assert.equal(merged.c!.find((c) => c.m === 4), two.threads[0].root.c!.find((c) => c.m === 4));
  assert.deepEqual(two.threads[0].root.c![0].a, [[1, 1, 2, 0, 32]]);
  assert.equal(merged.c!.find((c) => c.m === 2)!.calls, 7, 'load of thread 2 (7 calls) is a top frame there: its own child of the root');
});
