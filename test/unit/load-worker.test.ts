// The load worker's pieces that run without a browser: the tree packing (what crosses from the worker to the page)
// and ProfileData on a worker-held profile (trees asked for, TreePending until they arrive).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { frameTree, VIEW_METRICS } from '../../core/views/frames';
import { mergeThreads } from '../../core/profile/mct';
import { ProfileFile } from '../../core/profile/types';
import { ProfileData, TreeOptions, TreePending } from '../../webview/data';
import { packRecords, packTree, transferables, unpackTree } from '../../webview/load/tree-pack';
import { fixtureProfile, mainRoot } from './views-fixture';

/** The fixture with call lines on two records (6 and 7 numbers) and one node without records. */
function rootWithLines() {
  const root = mainRoot();
  root.c![0].a = [[1, 1, 2, 0, 32, 11], [1, 1, 1, 0, 16, 12, 4]];
  delete root.c![1].c![0].a;
  return root;
}

test('tree packing: every array and every record survives the trip (lines and callees, nodes without records)', () => {
  const p = fixtureProfile(rootWithLines());
  const original = frameTree(mergeThreads(p), p.methods, p.types);
  const copy = frameTree(mergeThreads(p), p.methods, p.types);
  const packed = packTree(copy);
  assert.equal(packed.recs!.recStart.length, original.n + 1);
  assert.deepEqual([...packed.recs!.recStart], [-1, 0, 2, 3, 4, 5, -7, 6], 'node 6 (Util.helper → App.parse) has no records');
  assert.deepEqual([...packed.recs!.recLen], [6, 7, 5, 5, 5, 5], 'record lengths kept');
  const back = unpackTree(packed);
  assert.equal(back.n, 7);
  assert.equal(back.maxDepth, original.maxDepth);
  for (const k of ['method', 'parent', 'depth', 'end', 'entryLine'] as const) assert.deepEqual([...back[k]!], [...original[k]!], k);
  for (const m of VIEW_METRICS) {
    assert.deepEqual([...back.self[m]], [...original.self[m]], `self ${m}`);
    assert.deepEqual([...back.total[m]], [...original.total[m]], `total ${m}`);
  }
  for (let i = 0; i < original.n; i++) assert.deepEqual(back.recs[i], original.recs[i], `records of node ${i}`);
  assert.deepEqual(back.recs[1], [[1, 1, 2, 0, 32, 11], [1, 1, 1, 0, 16, 12, 4]]);
  assert.equal(back.recs[6], undefined);
  assert.equal(back.recs[7], undefined, 'past the end');
  assert.equal(back.recs.length, 7);
  assert.equal(back.total.allocations[0], 21, 'main 2 + 1, load 4, parse 10, parse 1, helper 3 (helper → parse removed)');
  // every buffer goes by transfer, each once
  const buffers = transferables(packed);
  assert.equal(new Set(buffers).size, buffers.length);
  assert.equal(buffers.length, 8 + 2 * VIEW_METRICS.length);
});

test('tree packing without records: the tree reads none until they arrive, then all', () => {
  const p = fixtureProfile(rootWithLines());
  const original = frameTree(mergeThreads(p), p.methods, p.types);
  const copy = frameTree(mergeThreads(p), p.methods, p.types);
  const packed = packTree(copy, false);
  assert.equal(packed.recs, undefined);
  assert.equal(transferables(packed).length, 5 + 2 * VIEW_METRICS.length);
  const back = unpackTree(packed);
  assert.equal(back.recs[1], undefined, 'not arrived yet');
  packed.recs = packRecords(copy);
  for (let i = 0; i < original.n; i++) assert.deepEqual(back.recs[i], original.recs[i], `records of node ${i}`);
  assert.deepEqual(back.recs[2], [[2, 2, 4, 400, 1000]]);
});

test('a worker-held profile: tree() asks once and throws TreePending until the tree arrives; other kinds are dropped', () => {
  const full = fixtureProfile().file;
  const light: ProfileFile = { ...full, threads: full.threads.map((t) => ({ ...t, root: {} })) };
  const asked: Array<{ kind: string; key: string; o: TreeOptions }> = [];
  let parsed = 0;
  const data = new ProfileData(light, 'fixture', {
    kinds: ['exact'], defaultKind: 'exact',
    request: (_d, kind, key, o) => asked.push({ kind, key, o }),
    fullFile: () => {
      parsed++;
      return full;
    },
  });
  const o: TreeOptions = { thread: -1, myCode: false, collapseRecursion: false, inverted: true };
  assert.throws(() => data.tree(o), TreePending);
  assert.equal(data.has(o), false);
  assert.deepEqual(asked.map((a) => [a.kind, a.key, a.o.inverted]), [['exact', 'false|-1|false|false|true', true]]);
  const local = new ProfileData(full, 'fixture');
  data.accept('sites', asked[0].key, local.tree(o));
  assert.throws(() => data.tree(o), TreePending, 'a tree of another kind is not kept');
  data.accept('exact', asked[0].key, local.tree(o));
  assert.equal(data.tree(o).n, local.tree(o).n);
  assert.equal(data.tree(o).total.allocations[0], 26, 'main 2, load 4, parse 10 + 1 + 6, helper 3');
  // the Diff view's nodes: the file is parsed here once
  assert.equal(data.root(-1).c?.length, 2);
  assert.equal(data.root(1).c?.length, 2);
  assert.equal(parsed, 1);
  assert.deepEqual(data.kinds, ['exact']);
});
