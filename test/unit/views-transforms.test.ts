// Butterfly split, class → site → context grouping and the normalised diff on the hand-made profile of views-fixture.ts.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { butterfly, methodsByTotal, outermostNodes } from '../../core/views/butterfly';
import { backTraces, hotSpots } from '../../core/views/hot-spots';
import { diffTrees } from '../../core/views/diff';
import { biggestRelativeGrowth, callsOf, normaliseDiff } from '../../core/views/diff-normalise';
import { frameTree } from '../../core/views/frames';
import { mergeThreads } from '../../core/profile/mct';
import { MctNode } from '../../core/profile/types';
import { fixtureProfile, fixtureTree, mainRoot, nameAt, rowsOf } from './views-fixture';

/** A copy of the tree with calls × `calls` and allocations (count, elements, bytes) × `allocs`. */
function scaled(n: MctNode, calls: number, allocs: number): MctNode {
  return {
    ...n,
    ...(n.calls === undefined ? {} : { calls: n.calls * calls }),
    ...(n.a ? { a: n.a.map(([site, type, count, elements, bytes, ...rest]) => [site, type, count * allocs, elements * allocs, bytes * allocs, ...rest]) } : {}),
    ...(n.c ? { c: n.c.map((k) => scaled(k, calls, allocs)) } : {}),
  };
}


test('butterfly: parse split by caller above and callee below, with its totals over every context', () => {
  const { profile, tree } = fixtureTree();
  const b = butterfly(tree, 3);
  assert.deepEqual([b.contexts, b.outermost, b.selfAllocations, b.selfBytes, b.totalAllocations, b.totalBytes, b.calls], [3, 3, 17, 272, 17, 272, 8]);
  assert.deepEqual(outermostNodes(tree, 3).map((i) => nameAt(profile, tree, tree.parent[i])), ['App.load', 'App.main', 'Util.helper']);
  const callers = frameTree(b.callers, profile.methods, profile.types);
  assert.deepEqual(rowsOf(callers, profile.methods), [
    'parse 17 272B 0',
    '  load 10 160B 0',
    '    main 10 160B 5',
    '  main 1 16B 2',
    '  helper 6 96B 1',
  ]);
  const callees = frameTree(b.callees, profile.methods, profile.types);
  assert.deepEqual(rowsOf(callees, profile.methods), ['parse 17 272B 8'], 'parse calls nothing');
});

test('butterfly: main\'s callees merged, and recursion counted once', () => {
  const { profile, tree } = fixtureTree();
  const b = butterfly(tree, 1);
  assert.deepEqual(rowsOf(frameTree(b.callees, profile.methods, profile.types), profile.methods), [
    'main 17 1208B 1', '  load 14 1160B 3', '    parse 10 160B 5', '  parse 1 16B 2',
  ]);
  assert.deepEqual(rowsOf(frameTree(b.callers, profile.methods, profile.types), profile.methods), ['main 17 1208B 1'], 'main has no caller');
  // main → main → parse: the inner main is below the outer one, its allocations count once
  const rec: MctNode = { c: [{ m: 1, calls: 1, a: [[1, 1, 1, 0, 16]], c: [{ m: 1, calls: 2, a: [[1, 1, 2, 0, 32]], c: [{ m: 3, calls: 4, a: [[3, 1, 3, 0, 48]] }] }] }] };
  const r = fixtureTree(rec);
  const rb = butterfly(r.tree, 1);
  assert.deepEqual([rb.contexts, rb.outermost, rb.selfAllocations, rb.totalAllocations, rb.totalBytes, rb.calls], [2, 1, 3, 6, 96, 3]);
  assert.deepEqual(rowsOf(frameTree(rb.callees, r.profile.methods, r.profile.types), r.profile.methods), [
    'main 6 96B 1', '  main 5 80B 2', '    parse 3 48B 4',
  ]);
});

test('butterfly: methods listed for the picker by total over outermost contexts', () => {
  const { profile, tree } = fixtureTree();
  assert.deepEqual(methodsByTotal(tree).map((e) => [profile.methods.get(e.method)!.name, e.allocations, e.bytes]), [
    ['main', 17, 1208], ['parse', 17, 272], ['load', 14, 1160], ['helper', 9, 396],
  ]);
});

test('the views\' default metric: allocations = objects + arrays, per frame and in total', () => {
  const { tree } = fixtureTree();
  // 19 com.acme.Item objects and 7 byte[] arrays in the fixture
  assert.deepEqual([tree.total.allocations[0], tree.total.objects[0], tree.total.arrays[0]], [26, 19, 7]);
  for (let i = 0; i < tree.n; i++) assert.equal(tree.self.allocations[i], tree.self.objects[i] + tree.self.arrays[i]);
});

test('hot spots: type → site → contexts, ranked by bytes or by allocations', () => {
  const { profile, tree } = fixtureTree();
  const byBytes = hotSpots(tree, profile.types, profile.sites, 'bytes');
  const flat = (h: typeof byBytes) => h.map((t) => [t.name, t.allocations, t.bytes,
    t.sites.map((s) => [profile.methods.get(s.method!)!.name, s.line, s.allocations, s.bytes, s.contexts.map((c) => [c.node, c.allocations, c.bytes])])]);
  assert.deepEqual(flat(byBytes), [
    ['byte[]', 7, 1300, [['load', 20, 4, 1000, [[2, 4, 1000]]], ['helper', 40, 3, 300, [[5, 3, 300]]]]],
    ['com.acme.Item', 19, 304, [['parse', 30, 17, 272, [[3, 10, 160], [6, 6, 96], [4, 1, 16]]], ['main', 10, 2, 32, [[1, 2, 32]]]]],
  ]);
  const byCount = hotSpots(tree, profile.types, profile.sites, 'allocations');
  assert.deepEqual(byCount.map((t) => t.name), ['com.acme.Item', 'byte[]']);
  // the parse site's three contexts as one back-trace tree: parse, then its callers
  const traces = backTraces(tree, byBytes[1].sites[0].contexts, 'bytes');
  const show = (list: typeof traces, depth = 0): string[] => list.flatMap((n) => [
    `${'  '.repeat(depth)}${profile.methods.get(n.method)!.name} ${n.allocations} ${n.bytes}B [${n.path.join(',')}]`, ...show(n.children, depth + 1)]);
  assert.deepEqual(show(traces), [
    'parse 17 272B [3]',
    '  load 10 160B [3,2]',
    '    main 10 160B [3,2,1]',
    '  helper 6 96B [3,4]',
    '  main 1 16B [3,1]',
  ]);
  // callers carry the line of their call toward the frame above (the nodes' `line`), where the profile records it
  tree.entryLine![3] = 12;   // load called parse from its line 12
  tree.entryLine![2] = 7;    // main called load from its line 7
  const lines = (list: ReturnType<typeof backTraces>, depth = 0): string[] => list.flatMap((n) => [
    `${'  '.repeat(depth)}${profile.methods.get(n.method)!.name}${n.line !== undefined ? `:${n.line}` : ''}`, ...lines(n.children, depth + 1)]);
  assert.deepEqual(lines(backTraces(tree, byBytes[1].sites[0].contexts, 'bytes')), [
    'parse', '  load:12', '    main:7', '  helper', '  main',
  ]);
});

test('normalised diff: a run that did twice the work shows only what grew more than the rest', () => {
  const before = fixtureProfile();
  // the same program doing everything twice, except helper → parse which allocates four times as much
  const root = scaled(mainRoot(), 2, 2);
  const helper = root.c![1];
  helper.c![0] = scaled(helper.c![0], 1, 2);
  const after = fixtureProfile(root);
  const side = (p: typeof before) => ({ root: mergeThreads(p), methods: p.methods, types: p.types });
  const d = diffTrees(side(before), side(after));
  const node = (...names: string[]): number => {
    let at = 0;
    for (const n of names) {
      let next = -1;
      for (let j = at + 1; j < d.tree.end[at]; j = d.tree.end[j]) if (d.methods.get(d.tree.method[j])!.name === n) next = j;
      at = next;
    }
    return at;
  };
  const helperParse = node('helper', 'parse');
  const load = node('main', 'load');
  const abs = normaliseDiff(d, 'objects', 'absolute');
  assert.deepEqual([abs.before[0], abs.after[0], abs.before[helperParse], abs.after[helperParse]], [19, 50, 6, 24]);
  const pct = normaliseDiff(d, 'arrays', 'percent');
  // arrays doubled everywhere (7 → 14): every share is unchanged
  assert.deepEqual([pct.before[load], pct.after[load], pct.divisorBefore, pct.divisorAfter], [(4 * 100) / 7, (8 * 100) / 14, 7, 14]);
  assert.deepEqual(biggestRelativeGrowth(d, pct), []);
  const objPct = normaliseDiff(d, 'objects', 'percent');
  assert.equal(objPct.before[helperParse], (6 * 100) / 19);
  assert.equal(objPct.after[helperParse], (24 * 100) / 50);
  // per call of main (1 call before, 2 after)
  const mainId = d.tree.method[node('main')];
  assert.deepEqual([callsOf(d, 'before', mainId), callsOf(d, 'after', mainId)], [1, 2]);
  const per = normaliseDiff(d, 'objects', 'perCall', mainId, 'App.main');
  assert.equal(per.unit, 'per call of App.main');
  assert.deepEqual([per.before[node('main')], per.after[node('main')], per.before[helperParse], per.after[helperParse]], [13, 13, 6, 12]);
  const grew = biggestRelativeGrowth(d, per);
  // main, load and main → parse hold their per-call figures (13, 10, 1); helper and its parse doubled per call
  assert.deepEqual(grew.map((g) => [g.node, g.before, g.after, g.change]), [[node('helper'), 6, 12, 6], [helperParse, 6, 12, 6]]);
});
