import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { loadProfile } from '../../core/profile/load';
import { countNodes, frameName, mergeThreads, mergeTrees, walk } from '../../core/profile/mct';
import { MctNode } from '../../core/profile/types';
import { dataFile } from './helpers';

test('walk visits in pre-order with the path from the top', () => {
  const p = loadProfile(dataFile('sample.heaplens'));
  const seen: string[] = [];
  walk(p.threads[0].root, (node, path) => {
    seen.push(`${path.length}:${frameName(p, node)}:${path.map((n) => n.m).join('/')}`);
  });
  assert.deepEqual(seen, [
    '0:(root):', '1:com.acme.Main.main:1', '2:com.acme.Outer$Inner.<init>:1/3',
    '2:com.acme.Outer$Inner.run:1/2', '2:com.acme.Util.grid:1/4',
  ]);
  assert.equal(countNodes(p.threads[0].root), 5);
});

test('merging the threads sums calls, records by (site, type) and folded', () => {
  const p = loadProfile(dataFile('sample.heaplens'));
  const before = JSON.stringify(p.threads);
  const all = mergeThreads(p);
  assert.equal(JSON.stringify(p.threads), before, 'inputs unchanged');
  assert.equal(all.m, undefined);
  assert.deepEqual(all.a, [[6, 7, 1, 3, 32]]);
  assert.deepEqual(all.c?.map((n) => [n.m, n.calls]), [[1, 1], [2, 3]]);
  const run = all.c![1];
  assert.deepEqual(run.a, [[4, 1, 3, 0, 72], [5, 2, 1, 10, 32]]);
  assert.equal(run.folded, 1);
  assert.equal(run.c, undefined);
  const main = all.c![0];
  assert.deepEqual(main.c?.map((n) => [n.m, n.calls]), [[3, 2], [2, 2], [4, 1]]);
});

test('merging identical subtrees deeply', () => {
  const t = (calls: number, count: number): MctNode => ({
    c: [{ m: 1, calls, c: [{ m: 2, calls: calls * 2, a: [[9, 8, count, 0, count * 16]] }, { m: 3, calls: 1 }] }],
  });
  const merged = mergeTrees([t(1, 5), t(4, 7), { c: [{ m: 1, calls: 1, c: [{ m: 4, calls: 1 }] }] }]);
  assert.deepEqual(merged, {
    c: [{
      m: 1, calls: 6,
      c: [{ m: 2, calls: 10, a: [[9, 8, 12, 0, 192]] }, { m: 3, calls: 2 }, { m: 4, calls: 1 }],
    }],
  });
});
