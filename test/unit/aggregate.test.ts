import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { arraysByElementCode, threadTotals, topContexts, totals, totalsByType } from '../../core/views/aggregate';
import { loadProfile } from '../../core/profile/load';
import { frameName } from '../../core/profile/mct';
import { ElementCode, Profile } from '../../core/profile/types';
import { arrType, dataFile, method, profileOf, site } from './helpers';

function codes(p: Profile): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  for (const [code, s] of Object.entries(arraysByElementCode(p))) if (s.arrays || s.elements) out[code] = [s.arrays, s.elements];
  return out;
}

/** One multianewarray site whose records are the given [type, arrays, elements] dimension levels. */
function multi(base: string, code: ElementCode, levels: Array<[string, number, number]>): Profile {
  const names = [...new Set(levels.map((l) => l[0]))];
  const types = names.map((n, i) => arrType(i + 1, n, n.endsWith('[][]') || !['int', 'byte'].includes(base) ? 'R' : code, 4));
  return profileOf({
    types,
    methods: [method(1, 'Main', 'main')],
    sites: [site(1, 1, 1, 'multianewarray')],
    threads: [{ id: 1, name: 'main', daemon: false, alive: false, root: { c: [{
      m: 1, calls: 1, a: levels.map(([n, arrays, elements]) => [1, names.indexOf(n) + 1, arrays, elements, 16 * arrays + 4 * elements]),
    }] } }],
  });
}

test('Binder 2006 Figure 3: new int[2][3][5] gives R 3/8 and I 6/30', () => {
  const p = multi('int', 'I', [['int[][][]', 1, 2], ['int[][]', 2, 6], ['int[]', 6, 30]]);
  assert.deepEqual(codes(p), { I: [6, 30], R: [3, 8] });
});

test('Binder 2006 Figure 3: the other rows', () => {
  assert.deepEqual(codes(multi('int', 'I', [['int[][][]', 1, 2], ['int[][]', 2, 6], ['int[]', 6, 0]])), { I: [6, 0], R: [3, 8] });
  assert.deepEqual(codes(multi('int', 'I', [['int[][][]', 1, 2], ['int[][]', 2, 0], ['int[]', 0, 0]])), { R: [3, 2] });
  assert.deepEqual(codes(multi('int', 'I', [['int[][][]', 1, 0], ['int[][]', 0, 0], ['int[]', 0, 0]])), { R: [1, 0] });
  const obj = multi('java.lang.Object', 'R', [['java.lang.Object[][][]', 1, 2], ['java.lang.Object[][]', 2, 6], ['java.lang.Object[]', 6, 30]]);
  assert.deepEqual(codes(obj), { R: [9, 38] });
  const obj0 = multi('java.lang.Object', 'R', [['java.lang.Object[][][]', 1, 2], ['java.lang.Object[][]', 2, 6], ['java.lang.Object[]', 6, 0]]);
  assert.deepEqual(codes(obj0), { R: [9, 8] });
});

test('totals, per type and per thread', () => {
  const p = loadProfile(dataFile('sample.heaplens'));
  assert.deepEqual(totals(p), { objects: 13, arrays: 8, elements: 51, bytes: 504 });
  const byType = totalsByType(p).map((t) => [t.type.name, t.count, t.elements, t.bytes]);
  assert.deepEqual(byType, [
    ['java.lang.String', 6, 0, 144], ['byte[]', 4, 40, 128], ['java.lang.Integer', 5, 0, 80], ['int[]', 2, 6, 64],
    ['com.acme.Outer$Inner', 2, 0, 32], ['java.lang.Object[]', 1, 3, 32], ['int[][]', 1, 2, 24],
  ]);
  assert.deepEqual(threadTotals(p).map((t) => [t.thread.name, t.totals]), [
    ['main', { objects: 10, arrays: 7, elements: 41, bytes: 400 }],
    ['worker-1', { objects: 1, arrays: 1, elements: 10, bytes: 56 }],
    ['worker-2', { objects: 2, arrays: 0, elements: 0, bytes: 48 }],
  ]);
  const a = arraysByElementCode(p);
  assert.deepEqual(a.B, { arrays: 4, elements: 40, bytes: 128 });
  assert.deepEqual(a.R, { arrays: 2, elements: 5, bytes: 56 });
  assert.deepEqual(a.I, { arrays: 2, elements: 6, bytes: 64 });
  assert.deepEqual(a.J, { arrays: 0, elements: 0, bytes: 0 });
});

test('top contexts by self and inclusive values on the all-threads tree', () => {
  const p = loadProfile(dataFile('sample.heaplens'));
  const show = (metric: 'objects' | 'bytes', by: 'self' | 'inclusive'): string[] =>
    topContexts(p, { metric, by, limit: 10 }).map((c) => `${c.path.map((n) => frameName(p, n)).join('>')} ${c.self}/${c.inclusive}`);
  assert.deepEqual(show('objects', 'self'), [
    'com.acme.Main.main 7/10', 'com.acme.Main.main>com.acme.Outer$Inner.run 3/3', 'com.acme.Outer$Inner.run 3/3',
  ]);
  assert.deepEqual(show('bytes', 'inclusive'), [
    'com.acme.Main.main 112/368', 'com.acme.Main.main>com.acme.Outer$Inner.run 168/168', 'com.acme.Outer$Inner.run 104/104',
    'com.acme.Main.main>com.acme.Util.grid 88/88',
  ]);
  assert.equal(topContexts(p, { metric: 'bytes', by: 'self', limit: 1 })[0].self, 168);
});
