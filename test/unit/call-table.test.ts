import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { callTableRows, expandedNodes, hottestPath, pathsToReveal } from '../../core/views/call-table';
import { fixtureTree, nameAt } from './views-fixture';

test('call tree table: rows of the expanded nodes with self/total allocations and bytes, share and calls', () => {
  const { profile, tree } = fixtureTree();
  const name = (m: number): string => profile.methods.get(m)?.name ?? '';
  const closed = callTableRows(tree, new Set(), { key: 'totalAllocations', desc: true }, name);
  assert.deepEqual(closed.map((r) => [nameAt(profile, tree, r.node), r.selfAllocations, r.totalAllocations, r.selfBytes, r.totalBytes, r.calls, r.hasChildren]), [
    ['App.main', 2, 17, 32, 1208, 1, true],
    ['Util.helper', 3, 9, 300, 396, 4, true],
  ]);
  assert.equal(closed[0].share, 17 / 26);
  assert.equal(closed[1].bytesShare, 396 / 1604);

  const open = callTableRows(tree, expandedNodes(tree, [[1], [1, 2]]), { key: 'totalAllocations', desc: true }, name);
  assert.deepEqual(open.map((r) => [nameAt(profile, tree, r.node), r.depth, r.totalAllocations, r.expanded]), [
    ['App.main', 1, 17, true], ['App.load', 2, 14, true], ['App.parse', 3, 10, false], ['App.parse', 2, 1, false], ['Util.helper', 1, 9, false],
  ]);
  // ascending self bytes: main (32 B) before helper (300 B); helper open shows its parse (96 B)
  const bySelfBytes = callTableRows(tree, new Set([5]), { key: 'selfBytes', desc: false }, name);
  assert.deepEqual(bySelfBytes.map((r) => [nameAt(profile, tree, r.node), r.selfBytes]), [['App.main', 32], ['Util.helper', 300], ['App.parse', 96]]);
  const byName = callTableRows(tree, new Set(), { key: 'name', desc: true }, name);
  assert.deepEqual(byName.map((r) => nameAt(profile, tree, r.node)), ['App.main', 'Util.helper'], 'main > helper descending');
});

test('call tree table: reveal paths and the hottest path opened at start', () => {
  const { profile, tree } = fixtureTree();
  // node 3 = main → load → parse: main and load must be open
  assert.equal(nameAt(profile, tree, 3), 'App.parse');
  assert.deepEqual(pathsToReveal(tree, 3), [[1], [1, 2]]);
  assert.deepEqual(hottestPath(tree, 'allocations').map((i) => nameAt(profile, tree, i)), ['App.main', 'App.load']);
  // by bytes: main holds 1208 of 1604 B, load 1160 of main's 1208
  assert.deepEqual(hottestPath(tree, 'bytes').map((i) => nameAt(profile, tree, i)), ['App.main', 'App.load']);
  assert.deepEqual(hottestPath(tree, 'allocations', 0.9), [], 'main holds 17/26 < 90 %');
});
