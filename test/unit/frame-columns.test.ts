import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { decodeFrameColumns, decodeFrameRecords, encodeFrameColumns, encodeFrameRecords, recordsAt } from '../../core/views/frame-columns';
import { FrameTree, frameTree } from '../../core/views/frames';
import { loadProfile } from '../../core/profile/load';
import { joinTrees, splitTrees } from '../../core/profile/tree-split';
import { MctNode, MethodEntry, TypeEntry } from '../../core/profile/types';
import { embeddedFirstTree, firstFrameTree } from '../../extension/panels/first-tree';
import { PART_CHARS, reportHtml } from '../../extension/panels/html';
import { parseProfile } from '../../core/profile/parse';
import { assertSameFrameTree, dataFile } from './helpers';

/** The tree `b` decoded equal to `a`, array for array, and its decoded records node for node. */
function assertSameTree(a: FrameTree, b: Omit<FrameTree, 'recs'>, recs?: ReturnType<typeof decodeFrameRecords>): void {
  assertSameFrameTree(a, b, recs && ((i) => recordsAt(recs, i)));
}

test('the sample profile\'s first tree round-trips through its columns and records, array for array', () => {
  const p = loadProfile(dataFile('sample.heaplens'));
  const t = firstFrameTree(p, 'exact');
  const d = decodeFrameColumns(encodeFrameColumns(t));
  // the figures frames.test.ts asserts for the same tree
  assert.deepEqual([...d.method], [-1, 1, 3, 2, 4, 2]);
  assert.deepEqual([...d.parent], [-1, 0, 1, 1, 1, 0]);
  assert.deepEqual([...d.depth], [0, 1, 2, 2, 2, 1]);
  assert.deepEqual([...d.end], [6, 5, 3, 4, 5, 6]);
  assert.deepEqual([...d.total.bytes], [504, 368, 0, 168, 88, 104]);
  assert.deepEqual([...d.self.bytes], [32, 112, 0, 168, 88, 104]);
  assert.deepEqual([...d.total.elements], [51, 38, 0, 30, 8, 10]);
  assert.deepEqual([...d.total.calls], [9, 6, 2, 2, 1, 3]);
  assert.deepEqual([...d.total.allocations], [21, 16, 0, 6, 3, 4]);
  assertSameTree(t, d, decodeFrameRecords(encodeFrameRecords(t)));
});

const methods = new Map<number, MethodEntry>([1, 2, 3, 70000].map((id) => [id, { id, class: `p.C${id}`, name: 'm', desc: '()V', profiled: true }]));
const types = new Map<number, TypeEntry>([
  [1, { id: 1, name: 'p.T', array: false, size: 16 }],
  [2, { id: 2, name: 'int[]', array: true, elementSize: 4, elementCode: 'I' }],
] as Array<[number, TypeEntry]>);

test('every way a column is stored: none, 1, 2, 4 and 8 bytes (fractions, 2^40, a negative line), records of 5, 6 and 7 numbers', () => {
  const root: MctNode = {
    c: [
      { m: 70000, line: 65535, calls: 2 ** 40, a: [[9, 1, 0.25, 0, 4], [9, 2, 3, 70000, 280012, 12]] },
      { m: 1, line: -1, calls: 1, a: [], c: [{ m: 3, calls: 300, a: [[8, 2, 1, 2 ** 33, 7, 5, 2]] }] },
      { m: 2 },
    ],
  };
  const t = frameTree(root, methods, types);
  const cols = encodeFrameColumns(t);
  const d = decodeFrameColumns(cols);
  assert.deepEqual([...d.method], [-1, 1, 3, 2, 70000]);
  assert.deepEqual([...d.parent], [-1, 0, 1, 0, 0]);
  assert.deepEqual([...d.entryLine!], [0, -1, 0, 0, 65535]);
  assert.deepEqual([...d.self.calls], [0, 1, 300, 0, 2 ** 40]);
  assert.deepEqual([...d.total.objects], [0.25, 0, 0, 0, 0.25]);
  assert.deepEqual([...d.total.elements], [70000 + 2 ** 33, 2 ** 33, 2 ** 33, 0, 70000]);
  const recs = decodeFrameRecords(encodeFrameRecords(t));
  // a node without `a` has no records, an empty `a` an empty list
  assert.deepEqual(recordsAt(recs, 1), []);
  assert.equal(recordsAt(recs, 3), undefined);
  assert.deepEqual(recordsAt(recs, 2), [[8, 2, 1, 2 ** 33, 7, 5, 2]]);
  assertSameTree(t, d, recs);
  // the samples column is all zero: stored as nothing
  const noCalls = frameTree({ c: [{ m: 1 }] }, methods, types);
  assert.equal(encodeFrameColumns(noCalls).byteLength, 4 * 12 + 8 + 8);      // header, then methods and parents, 1 byte each padded to 8
});

test('a damaged or cut block is a one-line error, not a wrong tree', () => {
  const t = firstFrameTree(loadProfile(dataFile('sample.heaplens')), 'exact');
  const cols = encodeFrameColumns(t);
  assert.throws(() => decodeFrameColumns(cols.subarray(0, cols.byteLength - 8)), /cut short/);
  assert.throws(() => decodeFrameColumns(encodeFrameRecords(t)), /not in a format/);
  const bad = cols.slice();
  new Uint32Array(bad.buffer, 0, 12)[4] = 9;         // the parents' column kind
  assert.throws(() => decodeFrameColumns(bad), /unknown column kind/);
  assert.throws(() => decodeFrameColumns(new Uint8Array(0)), /cut short/);
});

test('a profile split into its call trees and the rest joins back to the same file', () => {
  const p = loadProfile(dataFile('sample.heaplens'));
  const { light, trees } = splitTrees(p.file);
  assert.ok(light.threads.every((t) => Object.keys(t.root).length === 0));
  assert.deepEqual(trees.map((t) => t.root), p.file.threads.map((t) => t.root));
  assert.deepEqual(joinTrees(JSON.parse(JSON.stringify(light)), JSON.parse(JSON.stringify(trees))), JSON.parse(JSON.stringify(p.file)));
  assert.throws(() => joinTrees(light, []), /for 0 threads, the profile has/);
});

/** The text of a report's element `#id` joined with its parts (`.id-part`, in page order), as the page reads it. */
function reportElement(html: string, id: string): string {
  const first = new RegExp(`<script[^>]* id="${id}"[^>]*>(.*?)</script>`, 's').exec(html)![1];
  return first + [...html.matchAll(new RegExp(`<script[^>]* class="${id}-part"[^>]*>(.*?)</script>`, 'gs'))].map((m) => m[1]).join('');
}

test('a long text is written in parts of PART_CHARS characters, which join back to it (base64 cut at multiples of 4)', () => {
  // a profile whose trees and records run past one part: 3,000 threads of 40 nodes
  const threads = Array.from({ length: 3000 }, (_, t) => ({
    id: t + 1, name: `t${t}`, daemon: false, alive: false,
    root: { c: Array.from({ length: 40 }, (_, k) => ({ m: 1 + ((t + k) % 3), calls: k + 1, a: [[1, 6, k + 1, 0, 16 * (k + 1) + t]] })) },
  }));
  const p = loadProfile(dataFile('sample.heaplens'));
  const file = { ...p.file, threads } as typeof p.file;
  const big = parseProfile(JSON.stringify(file));
  const first = embeddedFirstTree(big, 'exact')!;
  const html = reportHtml({ js: '', css: '', codiconCss: '' }, { title: 't', profile: file, tree: 'exact', firstTree: first });
  const trees = reportElement(html, 'heaplens-trees');
  const parts = [...html.matchAll(/class="heaplens-trees-part">(.*?)<\/script>/gs)].map((m) => m[1]);
  assert.ok(parts.length >= 2, `${parts.length} parts after the first`);
  assert.equal(trees.length, (parts.length) * PART_CHARS + parts[parts.length - 1].length);
  assert.ok(parts.slice(0, -1).every((x) => x.length === PART_CHARS));
  assert.deepEqual(joinTrees(JSON.parse(reportElement(html, 'heaplens-data')).profile, JSON.parse(trees)), JSON.parse(JSON.stringify(file)));
  const recs = reportElement(html, 'heaplens-first-records');
  assert.deepEqual(new Uint8Array(Buffer.from(recs, 'base64')), first.records);
  assert.deepEqual(new Uint8Array(Buffer.from(reportElement(html, 'heaplens-first-tree'), 'base64')), first.columns);
});

test('the report embeds the first tree and the profile without its trees; together they hold the whole profile', () => {
  const p = loadProfile(dataFile('sample.heaplens'));
  const first = embeddedFirstTree(p, 'exact')!;
  assert.deepEqual(first.kinds, ['exact']);
  const html = reportHtml({ js: '', css: '', codiconCss: '' }, { title: 'sample.heaplens', profile: p.file, tree: 'exact', firstTree: first });
  const element = (id: string): string => reportElement(html, id);
  const data = JSON.parse(element('heaplens-data')) as { profile: typeof p.file };
  assert.deepEqual(data.profile.threads.map((t) => t.root), p.file.threads.map(() => ({})));
  assert.deepEqual(joinTrees(data.profile, JSON.parse(element('heaplens-trees'))), JSON.parse(JSON.stringify(p.file)));
  assert.match(html, /id="heaplens-first-tree" data-kind="exact" data-kinds="exact" data-default-kind="exact"/);
  const t = firstFrameTree(p, 'exact');
  assertSameTree(t, decodeFrameColumns(new Uint8Array(Buffer.from(element('heaplens-first-tree'), 'base64'))),
    decodeFrameRecords(new Uint8Array(gunzipSync(new Uint8Array(Buffer.from(element('heaplens-first-records'), 'base64'))))));
});
