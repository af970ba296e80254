// The profile's first section (core/profile/first-section.ts): which nodes of a hand-made two-thread tree it holds,
// with their self values, totals, the siblings left out before each and the counts too small to draw; the same
// selection the agent's FirstSection.java makes of the same tree (FirstSectionTest); its flame tree
// (core/views/first-frames.ts) lays out the frames exactly where the whole tree's are.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIRST_SECTION_DIVISOR, FIRST_SECTION_WIDEST, firstSection, withFirstSection } from '../../core/profile/first-section';
import { readHead } from '../../core/profile/meta-read';
import { validateProfile } from '../../core/profile/load';
import { ProfileFile } from '../../core/profile/types';
import { checkSection, sectionFrames, sectionMethods } from '../../core/views/first-frames';
import { frameTree, VIEW_METRICS } from '../../core/views/frames';
import { mergeShared } from '../../core/views/merge-shared';
import { trustedProfile } from '../../core/profile/trusted';
import { layout } from '../../webview/core/layout';

const ROOT_DIR = join(__dirname, '..', '..', '..');
const TREE = readFileSync(join(ROOT_DIR, 'test', 'unit', 'data', 'first-section-tree.json'), 'utf8');

test('the divisor: the narrowest frame the painter draws on a 4K-wide canvas', () => {
  assert.equal(FIRST_SECTION_WIDEST, 3840);
  // the painter's constant (flame-paint.ts needs the DOM's types, which this compile has not)
  const paint = readFileSync(join(ROOT_DIR, 'webview', 'views', 'flame-paint.ts'), 'utf8');
  const minWidth = Number(/export const MIN_WIDTH = ([\d.]+);/.exec(paint)![1]);
  assert.equal(minWidth, 0.5);
  assert.equal(FIRST_SECTION_DIVISOR, FIRST_SECTION_WIDEST / minWidth);
});

test('the section of a hand-made two-thread tree at 1/10: the nodes, in the page order, with gaps and left-out counts', () => {
  const s = firstSection(JSON.parse(TREE) as ProfileFile, 10)!;
  assert.equal(s.tree, 'exact');
  assert.deepEqual(s.kinds, ['exact']);
  assert.equal(s.metric, 'allocations');
  assert.equal(s.divisor, 10);
  assert.equal(s.widest, 5);
  // merged, in allocations (objects + arrays; 170 at the root, 17 kept): main (2 calls) → five (1, left out),
  // three (51 → copyOf 1, left out), two (8: left out, though it is 11 of 17 calls: only allocations select)
  // [m, depth, more, self, total, gap]
  assert.deepEqual(s.nodes, [
    [-1, 0, 0, 0, 170, 0],
    [1, 1, 2, 110, 170, 0],
    [3, 2, 1, 50, 51, 1],
  ]);
  assert.equal(s.deepest, 3);
  // [id, class index (in classes below), name, desc, file, line]: the class written once
  assert.deepEqual(s.methods, [[1, 0, 'main', '()V', '', -1], [3, 1, 'three', '()V', 'B.java', 7]]);
  assert.deepEqual(s.classes, [
    ['a.A', 1, 1, 110],
    ['a.B', 1, 3, 59],
    ['java.util.Arrays', 0, 1, 1],
  ]);
  assert.deepEqual(s.threads, [[1, 'main'], [2, 'worker']]);
});

test('the same text as the agent\'s FirstSection.java writes for the same tree (FirstSectionTest reads this file too)', () => {
  const expected = readFileSync(join(ROOT_DIR, 'test', 'unit', 'data', 'first-section-expected.json'), 'utf8').trim();
  assert.equal(JSON.stringify(firstSection(JSON.parse(TREE) as ProfileFile, 10)), expected);
});

test('at the default divisor every node of the small tree is in the section, none left out', () => {
  const s = firstSection(JSON.parse(TREE) as ProfileFile)!;
  assert.deepEqual(s.nodes.map((n) => [n[0], n[1], n[2], n[5]]), [[-1, 0, 0, 0], [1, 1, 0, 0], [5, 2, 0, 0], [3, 2, 0, 0], [4, 3, 0, 0], [2, 2, 0, 0]]);
});

test('the section\'s flame tree lays out its frames where the whole tree\'s are, under its metric', () => {
  const file = JSON.parse(TREE) as ProfileFile;
  const p = trustedProfile(file);
  const whole = frameTree(mergeShared(p.threads.map((t) => t.root)), p.methods, p.types);
  const s = checkSection(JSON.parse(JSON.stringify(firstSection(file, 10))))!;
  assert.ok(s);
  const part = sectionFrames(s);
  assert.equal(part.n, 3);
  for (const metric of VIEW_METRICS.filter((k) => k === s.metric)) {
    const a = layout(whole, metric, 0);
    const b = layout(part, metric, 0);
    assert.equal(b.rows, a.rows, metric);
    for (let i = 0; i < part.n; i++) {
      // the same node of the whole tree: the same method path
      const j = [...Array(whole.n).keys()].find((k) => whole.method[k] === part.method[i] && whole.depth[k] === part.depth[i])!;
      assert.equal(b.x[i], a.x[j], `${metric} x of node ${i}`);
      assert.equal(b.w[i], a.w[j], `${metric} width of node ${i}`);
    }
  }
  assert.deepEqual([...part.section!.more], [0, 2, 1]);
  // the other metrics' values are not in it (the tooltip says they are loading)
  assert.deepEqual([...part.total.bytes], [0, 0, 0]);
  assert.deepEqual([...part.total.allocations], [170, 170, 51]);
});

test('a written section comes right after meta, readers of the whole profile ignore it, the head reader finds it', () => {
  const file = JSON.parse(TREE) as ProfileFile;
  const text = JSON.stringify(withFirstSection(file));
  assert.deepEqual(Object.keys(JSON.parse(text)).slice(0, 4), ['format', 'version', 'meta', 'first']);
  const loaded = validateProfile(JSON.parse(text));
  assert.equal(loaded.threads.length, 2);
  const head = readHead(text, true, true);
  assert.ok('meta' in head);
  assert.deepEqual(head.first, JSON.parse(text).first);
  // cut inside the section: more to come; a file without one: no section, read no further than meta
  const cut = text.indexOf('"nodes"') + 10;
  assert.deepEqual(readHead(text.slice(0, cut), false, true), { more: true });
  const old = readHead(TREE, true, true);
  assert.ok('meta' in old && old.first === undefined);
});

test('the section\'s methods read back as the profile\'s entries (class and profiled from the class table)', () => {
  const file = JSON.parse(TREE) as ProfileFile;
  // method 3 has a file, a line and call lines in first-section-tree.json
  const s = checkSection(JSON.parse(JSON.stringify(firstSection(file, 10))))!;
  assert.deepEqual(s.methods[1], [3, 1, 'three', '()V', 'B.java', 7]);
  // the call lines are not in it (the first paint does not show them)
  const { calls: _c, ...three } = file.methods.find((m) => m.id === 3)!;
  assert.deepEqual(sectionMethods(s), [file.methods.find((m) => m.id === 1), three]);
});

test('a damaged section is not used', () => {
  const s = JSON.parse(JSON.stringify(firstSection(JSON.parse(TREE) as ProfileFile, 10))) as Record<string, unknown>;
  assert.ok(checkSection(s));
  assert.equal(checkSection({ ...s, nodes: [[1, 0, 0]] }), undefined);
  assert.equal(checkSection({ ...s, methods: [] }), undefined);               // a node names a method it lacks
  assert.equal(checkSection({ ...s, tree: 'other' }), undefined);
  assert.equal(checkSection({ ...s, metric: 'bytes' }), undefined);
  assert.equal(checkSection({ ...s, methods: [[1, 9, 'main', '()V', '', -1], [3, 1, 'three', '()V', 'B.java', 7]] }), undefined);   // no class 9
  // Round 15's section (five values per node, no metric): the whole file is waited for
  const { metric: _m, ...old } = s;
  assert.equal(checkSection({ ...old, deepest: [3, 2, 2, 3, 3], nodes: [[-1, 0, 0, ...new Array<number>(15).fill(1)]] }), undefined);
});

test('the page paints from the section only the view it draws: flame tree, all threads, top-down, not zoomed, up to 3,840 px', async () => {
  const { sectionData } = await import('../../webview/load/first-paint');
  const { defaultState } = await import('../../webview/state');
  const { TreePending } = await import('../../webview/data');
  const file = JSON.parse(TREE) as ProfileFile;
  const first = JSON.parse(JSON.stringify(withFirstSection(file))).first as unknown;
  const s = defaultState();
  const data = sectionData(file.meta, first, 't', s, 1400)!;
  assert.ok(data.partial);
  const top = { thread: -1, myCode: false, collapseRecursion: false, inverted: false };
  assert.equal(data.tree(top).n, 6);
  assert.equal(data.tree(top).section!.more[0], 0);
  assert.throws(() => data.tree({ ...top, inverted: true }), TreePending);   // the whole profile answers
  assert.deepEqual(data.threads().map((t) => t.name), ['main', 'worker']);
  for (const other of [{ inverted: true }, { thread: 1 }, { zoom: [1] }, { view: 'sites' as const }, { metric: 'samples' as const }, { metric: 'bytes' as const }, { myCode: true }, { data: 'sampled' as const }]) {
    // sampled is not in this profile: the default (exact) is shown, as the whole profile would
    const expect = 'data' in other ? true : false;
    assert.equal(!!sectionData(file.meta, first, 't', { ...s, ...other }, 1400), expect, JSON.stringify(other));
  }
  assert.equal(sectionData(file.meta, first, 't', s, 3841), undefined);      // a wider window draws narrower frames
  assert.equal(sectionData(file.meta, { ...(first as object), nodes: [] }, 't', s, 1400), undefined);
});
