// `heaplens diff` model: rows by method (inclusive), site and type, on real fixture profiles and small hand-built ones.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { diffTrees } from '../../core/views/diff';
import { decreases, diffTable, increases } from '../../extension/cli/diff-table';
import { diffJson, diffText, relative, signed } from '../../extension/cli/diff-report';
import { loadProfile } from '../../core/profile/load';
import { mergeThreads } from '../../core/profile/mct';
import { arrType, dataFile, method, objType, profileOf, site } from './helpers';

// test/fixtures/java/budget run on JDK 17, plain and with -Dbudget.variant=copy (Parser.word copies each word once more)
const base = loadProfile(dataFile('budget-base.heaplens'));
const copy = loadProfile(dataFile('budget-copy.heaplens'));
const side = (name: string, p = base) => ({ name, profile: p });

test('diff by method: the copy shows in word, parse and main (inclusive), the most specific first', () => {
  const t = diffTable(base, copy, 'objects', 'method');
  assert.deepEqual([t.totalBefore, t.totalAfter], [2953, 3353]);
  assert.deepEqual(increases(t, 0).map((r) => [r.label, r.before, r.after, r.delta]), [
    ['budget.Parser.word', 400, 800, 400],
    ['budget.Parser.parse', 1044, 1444, 400],
    ['budget.Main.main', 2687, 3087, 400],
  ]);
  assert.deepEqual(decreases(t, 0), []);
  assert.equal(t.unchanged, 4);
  assert.equal(increases(t, 1).length, 1);
  assert.equal(increases(t, 0)[0].relative, 1);
  assert.equal(increases(t, 0)[0].key, 'budget.Parser.word([CII)Ljava/lang/String;');
});

test('diff by type and by site: 400 more Strings at Parser.word:42; elements of the char[] copies', () => {
  const byType = diffTable(base, copy, 'objects', 'type');
  assert.deepEqual(byType.changed.map((r) => [r.label, r.before, r.after]), [['java.lang.String', 805, 1205]]);
  const bySite = diffTable(base, copy, 'objects', 'site');
  const top = increases(bySite, 1)[0];
  assert.deepEqual([top.label, top.type, top.before, top.after, top.relative], ['budget.Parser.word:42', 'java.lang.String', 0, 400, null]);
  // Inside invokedynamic linkage one ConcurrentHashMap node was added to a non-empty bin instead of an empty one:
  // JDK caches keyed by identity hash codes, which differ run to run. Same count, other site.
  const chm = 'java.util.concurrent.ConcurrentHashMap$Node';
  assert.deepEqual(increases(bySite, 0).slice(1).map((r) => [r.label, r.type, r.delta]), [['java.util.concurrent.ConcurrentHashMap.putVal:1047', chm, 1]]);
  assert.deepEqual(decreases(bySite, 0).map((r) => [r.label, r.type, r.delta]), [['java.util.concurrent.ConcurrentHashMap.putVal:1019', chm, -1]]);
  const elements = diffTable(base, copy, 'elements', 'site');
  assert.deepEqual(increases(elements, 0).map((r) => [r.label, r.type, r.delta]), [
    ['java.lang.StringUTF16.compress:161', 'byte[]', 1904], // equal changes: the smaller rows first
    ['java.lang.StringLatin1.toChars:74', 'char[]', 1904],
  ]);
  const arrays = diffTable(base, copy, 'arrays', 'type');
  assert.deepEqual(arrays.changed.map((r) => [r.label, r.delta]), [['char[]', 400], ['byte[]', 400]]);
});

test('diff of a profile with itself changes nothing', () => {
  for (const by of ['method', 'site', 'type'] as const) {
    const t = diffTable(base, base, 'bytes', by);
    assert.equal(t.changed.length, 0, by);
    assert.ok(t.unchanged > 0);
  }
});

test('diff text: header, totals, increases and decreases tables', () => {
  const t = diffTable(base, copy, 'objects', 'method');
  const text = diffText(t, side('base.heaplens'), side('copy.heaplens', copy), 10);
  const lines = text.split('\n');
  assert.equal(lines[0], 'HeapLens diff: objects by method (inclusive, all contexts and threads)');
  assert.match(lines[1], /^before: base\.heaplens \(OpenJDK 64-Bit Server VM 17\.0\.\S+, written \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\)$/);
  assert.equal(lines[3], 'total objects: 2,953 -> 3,353 (+400, +13.5%)');
  assert.deepEqual(lines.slice(5, 11), [
    'Largest increases',
    'change  relative  before  after  method',
    '------  --------  ------  -----  -------------------',
    '  +400   +100.0%     400    800  budget.Parser.word',
    '  +400    +38.3%   1,044  1,444  budget.Parser.parse',
    '  +400    +14.9%   2,687  3,087  budget.Main.main',
  ]);
  assert.deepEqual(lines.slice(12, 14), ['Largest decreases', '(none)']);
  assert.equal(lines[15], '3 methods changed, 4 unchanged.');
  const cut = diffText(t, side('a'), side('b', copy), 1).split('\n');
  assert.equal(cut[5], 'Largest increases (top 1 of 3)');
  const site = diffText(diffTable(base, copy, 'objects', 'site'), side('a'), side('b', copy), 1);
  assert.match(site, /^ {2}\+400 {7}new {7}0 {4}400 {2}budget\.Parser\.word:42 {2}java\.lang\.String$/m);
});

test('diff JSON: totals, rows with relative null for new rows, counts', () => {
  const j = diffJson(diffTable(copy, base, 'objects', 'site'), side('copy', copy), side('base'), 0) as {
    format: string; before: { total: number; file: string }; after: { total: number }; delta: number;
    increases: unknown[]; decreases: Array<Record<string, unknown>>; changed: number;
  };
  assert.equal(j.format, 'heaplens-diff');
  assert.deepEqual([j.before.file, j.before.total, j.after.total, j.delta], ['copy', 3353, 2953, -400]);
  assert.equal(j.increases.length, 1, 'the ConcurrentHashMap node of the other bin');
  assert.deepEqual(j.decreases[0], {
    key: 'budget.Parser.word:42 java.lang.String', label: 'budget.Parser.word:42', type: 'java.lang.String',
    before: 400, after: 0, delta: -400, relative: -1,
  });
  assert.equal(j.changed, 3);
});

test('formatting of changes', () => {
  assert.deepEqual([signed(1234), signed(-5), signed(0)], ['+1,234', '-5', '0']);
  assert.equal(relative({ relative: null, before: 0, after: 3 }), 'new');
  assert.equal(relative({ relative: -1, before: 3, after: 0 }), '-100.0%');
  assert.equal(relative({ relative: 0.00012, before: 10000, after: 10001 }), '+0.012%');
});

// A hand-built pair: recursion (a -> a), an overloaded method name, and a method that only exists before.
function pair() {
  const types = [objType(1, 'com.acme.Thing', 16), arrType(2, 'int[]', 'I', 4)];
  const methods = [
    method(1, 'com.acme.Main', 'main'), method(2, 'com.acme.Rec', 'a'),
    method(3, 'com.acme.Over', 'f', { desc: '(I)V' }), method(4, 'com.acme.Over', 'f', { desc: '(J)V' }),
    method(5, 'com.acme.Old', 'gone'),
  ];
  const sites = [site(1, 2, 1), site(2, 3, 1), site(3, 4, 2), site(4, 5, 1)];
  const profile = (n: number, withOld: boolean) => profileOf({
    types, methods, sites,
    threads: [{
      id: 1, name: 'main', daemon: false, alive: false, root: {
        c: [{
          m: 1, calls: 1, c: [
            { m: 2, calls: 1, a: [[1, 1, n, 0, 16 * n]], c: [{ m: 2, calls: 1, a: [[1, 1, n, 0, 16 * n]] }] },
            { m: 3, calls: 1, a: [[2, 1, 1, 0, 16]] },
            { m: 4, calls: 1, a: [[3, 2, 1, 10, 56]] },
            ...(withOld ? [{ m: 5, calls: 1, a: [[4, 1, 7, 0, 112]] as Array<[number, number, number, number, number]> }] : []),
          ],
        }],
      },
    }],
  });
  return { before: profile(1, true), after: profile(3, false) };
}

test('by method: recursion counted once, overloads told apart by descriptor, vanished methods as decreases', () => {
  const { before, after } = pair();
  const t = diffTable(before, after, 'objects', 'method');
  assert.deepEqual(increases(t, 0).map((r) => [r.label, r.before, r.after]), [['com.acme.Rec.a', 2, 6]]);
  assert.deepEqual(decreases(t, 0).map((r) => [r.label, r.before, r.after, r.relative]), [
    ['com.acme.Old.gone', 7, 0, -1],
    ['com.acme.Main.main', 10, 7, -0.3],
  ]);
  assert.equal(t.unchanged, 1, 'f(I)V: unchanged (f(J)V allocates no objects, only arrays)');
  const empty = profileOf({ types: [], methods: [], sites: [], threads: [] });
  const labels = diffTable(empty, before, 'bytes', 'method').changed.map((r) => r.label).sort();
  assert.deepEqual(labels, ['com.acme.Main.main', 'com.acme.Old.gone', 'com.acme.Over.f(I)V', 'com.acme.Over.f(J)V', 'com.acme.Rec.a']);
  assert.equal(diffTable(before, after, 'elements', 'method').changed.length, 0);
});

test('diffTrees without sites (the webview) leaves DiffTree.sites empty', () => {
  const d = diffTrees({ root: mergeThreads(base), methods: base.methods, types: base.types },
    { root: mergeThreads(copy), methods: copy.methods, types: copy.types });
  assert.deepEqual(d.sites, []);
  assert.equal(d.types.find((t) => t.name === 'java.lang.String')?.after.objects, 1205);
});
