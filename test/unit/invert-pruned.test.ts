// The grouped inversion: exact at minShare 0 (the same tree as transform.invert), and a cut chain keeps its totals.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { invertPruned } from '../../core/views/invert-pruned';
import { invert } from '../../core/views/transform';
import { frameTree, VIEW_METRICS } from '../../core/views/frames';
import { loadProfile } from '../../core/profile/load';
import { mergeThreads } from '../../core/profile/mct';
import { dataFile } from './helpers';
import { fixtureProfile, rowsOf } from './views-fixture';


test('grouped inversion with nothing cut is the inverted tree, node for node', () => {
  for (const p of [fixtureProfile(), loadProfile(dataFile('sample.heaplens')), loadProfile(dataFile('wordindex.heaplens'))]) {
    const root = mergeThreads(p);
    const want = frameTree(invert(root), p.methods, p.types);
    const got = frameTree(invertPruned(root, p.types, 0), p.methods, p.types);
    assert.equal(got.n, want.n);
    assert.deepEqual([...got.method], [...want.method]);
    assert.deepEqual([...got.parent], [...want.parent]);
    for (const k of VIEW_METRICS) assert.deepEqual([...got.self[k]], [...want.self[k]], k);
  }
  const p = fixtureProfile();
  assert.deepEqual(rowsOf(frameTree(invertPruned(mergeThreads(p), p.types, 0), p.methods, p.types), p.methods), [
    'load 4 1000B 0', '  main 4 1000B 3', 'main 2 32B 1', 'parse 17 272B 0', '  load 10 160B 0', '    main 10 160B 5',
    '  main 1 16B 2', '  helper 6 96B 1', 'helper 3 300B 4',
  ]);
});

test('a caller chain under minShare in every metric is cut: its values stay on the frame above', () => {
  const p = fixtureProfile();
  // main → parse holds 1 of 19 objects, 16 of 1,604 bytes, 2 of 16 calls: at most 12.5 %, under 20 %
  const t = frameTree(invertPruned(mergeThreads(p), p.types, 0.2), p.methods, p.types);
  assert.deepEqual(rowsOf(t, p.methods), [
    'load 4 1000B 0', '  main 4 1000B 3', 'main 2 32B 1', 'parse 17 272B 2', '  load 10 160B 0', '    main 10 160B 5',
    '  helper 6 96B 1', 'helper 3 300B 4',
  ]);
  assert.deepEqual([t.total.objects[0], t.total.arrays[0], t.total.bytes[0], t.total.calls[0]], [19, 7, 1604, 16]);
});
