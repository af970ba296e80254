// The load worker's fast reader (webview/load/flat-parse.ts): the first tree straight from the profile text must be
// the tree the JSON.parse path builds (ProfileData: trusted index, merge-shared, frameTree, tree-pack), array by array.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProfileFile } from '../../core/profile/types';
import { ProfileData } from '../../webview/data';
import { parseFlat } from '../../webview/load/flat-parse';
import { flatTree } from '../../webview/load/flat-tree';
import { PackedTree, packTree } from '../../webview/load/tree-pack';
import { assertSamePackedTree } from './helpers';
import { METHODS, SITES, TYPES } from './views-fixture';

const ROOT_DIR = join(__dirname, '..', '..', '..');

function file(threads: ProfileFile['threads']): ProfileFile {
  return {
    format: 'heaplens-profile', version: 1,
    meta: { agentVersion: 't', mode: 'exact', pid: 1, command: 't', jvmArgs: [], startTime: 0, writeTime: 1, final: true, sequence: 1, options: {} },
    types: TYPES, methods: METHODS, sites: SITES, threads,
  } as unknown as ProfileFile;
}

/**
 * Two threads. main: App.main → (App.load → App.parse, App.parse); worker: App.main → App.parse, Util.helper.
 * App.main is in both (merged: calls and records summed by site and type, lines dropped); the rest in one each.
 */
function twoThreads(): ProfileFile {
  return file([
    {
      id: 1, name: 'main', daemon: false, alive: false, root: {
        c: [{
          m: 1, calls: 1, a: [[1, 1, 2, 0, 32, 7]], c: [
            { m: 3, calls: 2, line: 12, a: [[3, 1, 1, 0, 16, 13, 4]] },
            { m: 2, calls: 3, line: 11, a: [[2, 2, 4, 400, 1000]], c: [{ m: 3, calls: 5, a: [[3, 1, 10, 0, 160]] }] },
          ],
        }],
      },
    },
    {
      id: 2, name: 'worker', daemon: true, alive: false, root: {
        c: [
          { m: 4, calls: 4, line: 3, a: [] },
          { m: 1, calls: 2, line: 5, a: [[1, 1, 3, 0, 48, 8], [3, 1, 1, 0, 16]], c: [{ m: 3, calls: 1, a: [[3, 1, 6, 0, 96]] }] },
        ],
      },
    },
  ]);
}

/** The JSON.parse path's tree, packed as the worker sends it. */
function oldTree(f: ProfileFile, thread: number): PackedTree {
  const d = new ProfileData(JSON.parse(JSON.stringify(f)) as ProfileFile, 't');
  return packTree(d.tree({ thread, myCode: false, collapseRecursion: false, inverted: false }));
}

test('fast reader: two threads merged, exact arrays', () => {
  const f = twoThreads();
  const p = parseFlat(JSON.stringify(f))!;
  assert.ok(p);
  assert.deepEqual(p.kinds, ['exact']);
  assert.equal(p.defaultKind, 'exact');
  assert.deepEqual(p.light.threads, [
    { id: 1, name: 'main', daemon: false, alive: false, root: {} },
    { id: 2, name: 'worker', daemon: true, alive: false, root: {} },
  ]);
  assert.deepEqual(p.light.methods, METHODS);
  const t = flatTree(p, -1);
  // pre-order, siblings by class.method(desc): App.load < App.main < App.parse < Util.helper
  // 0 root, 1 App.main (merged), 2 App.load, 3 App.parse, 4 App.parse (main's), 5 Util.helper
  assert.equal(t.n, 6);
  assert.deepEqual([...t.method], [-1, 1, 2, 3, 3, 4]);
  assert.deepEqual([...t.parent], [-1, 0, 1, 2, 1, 0]);
  assert.deepEqual([...t.depth], [0, 1, 2, 3, 2, 1]);
  assert.deepEqual([...t.end], [6, 5, 4, 4, 5, 6]);
  assert.equal(t.maxDepth, 3);
  // the merged App.main keeps no line; the others keep theirs
  assert.deepEqual([...t.entryLine!], [0, 0, 11, 0, 0, 3]);
  assert.deepEqual([...t.self.calls], [0, 3, 3, 5, 3, 4], 'merged: 1 + 2 and 2 + 1');
  assert.deepEqual([...t.self.objects], [0, 6, 0, 10, 7, 0], 'App.main: 2 + 3 + 1; App.parse under it: 1 + 6 merged');
  assert.deepEqual([...t.self.arrays], [0, 0, 4, 0, 0, 0]);
  assert.deepEqual([...t.self.elements], [0, 0, 400, 0, 0, 0]);
  assert.deepEqual([...t.self.bytes], [0, 96, 1000, 160, 112, 0]);
  assert.deepEqual([...t.total.allocations], [27, 27, 14, 10, 7, 0]);
  assert.deepEqual([...t.total.bytes], [1368, 1368, 1160, 160, 112, 0]);
  // records: merged ones by (site, type) with 5 numbers; a node of one thread keeps its own (line, callee)
  assert.deepEqual([...t.recs!.recStart], [-1, 0, 2, 3, 4, 5, 5]);
  assert.deepEqual([...t.recs!.recLen], [5, 5, 5, 5, 5]);
  assert.deepEqual([...t.recs!.recData.slice(0, 14)], [1, 1, 5, 0, 80, 0, 0, 3, 1, 1, 0, 16, 0, 0]);
  assert.deepEqual([...t.recs!.recData.slice(28, 35)], [3, 1, 7, 0, 112, 0, 0], 'App.parse merged: 1 + 6 objects');
  assertSamePackedTree(t, oldTree(f, -1), 'merged');
});

test('fast reader: one thread as it is (its records with lines and callees, its lines)', () => {
  const f = twoThreads();
  const p = parseFlat(JSON.stringify(f))!;
  const t = flatTree(p, 1);
  assert.deepEqual([...t.method], [-1, 1, 2, 3, 3]);
  assert.deepEqual([...t.entryLine!], [0, 0, 11, 0, 12]);
  assert.deepEqual([...t.recs!.recLen], [6, 5, 5, 7]);
  assert.deepEqual([...t.recs!.recData.slice(21, 28)], [3, 1, 1, 0, 16, 13, 4]);
  for (const thread of [1, 2, 99]) assertSamePackedTree(flatTree(p, thread), oldTree(f, thread), `thread ${thread}`);
  // an empty record list stays apart from none: Util.helper (a: []) in the worker thread
  const w = flatTree(p, 2);
  assert.deepEqual([...w.method], [-1, 1, 3, 4]);
  assert.deepEqual([...w.recs!.recStart], [-1, 0, 2, 3, 3]);
});

test('fast reader: the demo profile, compact and indented, gives the JSON.parse path\'s arrays', () => {
  const text = readFileSync(join(ROOT_DIR, 'test', 'unit', 'data', 'wordindex.heaplens'), 'utf8');
  const f = JSON.parse(text) as ProfileFile;
  for (const t of [text, JSON.stringify(f, null, 2)]) {
    const p = parseFlat(t)!;
    assert.ok(p, 'read');
    assert.deepEqual(p.light, { ...f, threads: f.threads.map((x) => ({ id: x.id, name: x.name, daemon: x.daemon, alive: x.alive, root: {} })) });
    assertSamePackedTree(flatTree(p, -1), oldTree(f, -1), 'all threads');
    for (const th of f.threads) assertSamePackedTree(flatTree(p, th.id), oldTree(f, th.id), `thread ${th.id}`);
  }
});

test('fast reader: the report\'s embedded data, its baseline and first tree; the kinds of a sampled profile', () => {
  const f = twoThreads();
  const embedded = { title: 'run.heaplens', profile: f, baseline: { title: 'old.heaplens', profile: f }, tree: 'exact' };
  const p = parseFlat(JSON.stringify(embedded))!;
  assert.equal(p.embedded?.title, 'run.heaplens');
  assert.equal(p.embedded?.tree, 'exact');
  assert.deepEqual(p.embedded?.baseline, JSON.parse(JSON.stringify(embedded.baseline)));
  assertSamePackedTree(flatTree(p, -1), oldTree(f, -1), 'embedded');
  const sampled = file([{ id: 1, name: 'main', daemon: false, alive: false, root: {}, sampled: { c: [{ m: 1, calls: 0, a: [[1, 1, 50, 0, 800]] }] } }]);
  const s = parseFlat(JSON.stringify(sampled))!;
  assert.deepEqual(s.kinds, ['sampled']);
  assert.equal(s.defaultKind, 'sampled');
  assert.equal(flatTree(s, -1).n, 1, 'the exact tree is empty');
});

test('fast reader: shapes it does not know give way to JSON.parse (undefined)', () => {
  const f = twoThreads();
  const withNull = JSON.stringify(f).replace('[1,1,2,0,32,7]', '[1,1,null,0,32,7]');
  assert.equal(parseFlat(withNull), undefined, 'a null count');
  const noMethod = JSON.stringify(f).replace('"m":4,', '');
  assert.equal(parseFlat(noMethod), undefined, 'a node without a method');
  assert.equal(parseFlat('{"format":"heaplens-profile","threads":[{"id":1}]}'), undefined, 'a thread without a root');
  assert.equal(parseFlat('{"format":'), undefined, 'cut short');
  // fractions and exponents are numbers too (sampled estimates)
  const frac = JSON.stringify(f).replace('[2,2,4,400,1000]', '[2,2,4.5,4e2,1.0E3]');
  const q = parseFlat(frac)!;
  assert.equal(flatTree(q, 1).self.arrays[2], 4.5);
  assert.equal(flatTree(q, 1).self.bytes[2], 1000);
});
