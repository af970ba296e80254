import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { frameTree, VIEW_METRICS } from '../../core/views/frames';
import { loadProfile } from '../../core/profile/load';
import { mergeThreads } from '../../core/profile/mct';
import { isMyCode } from '../../core/profile/names';
import { collapseRecursion, foldFrames, invert, mergeAll } from '../../core/views/transform';
import { MctNode, Profile } from '../../core/profile/types';
import { dataFile, method, objType, profileOf, site } from './helpers';

const L = (n = 1): [number, number, number, number, number] => [1, 1, n, 0, 16 * n];

/** main → down → down → down → helper → down, each down allocating one Level; helper is a library frame. */
function recursive(): Profile {
  const tree: MctNode = { c: [{ m: 1, calls: 1, c: [{ m: 2, calls: 1, a: [L()], c: [{ m: 2, calls: 1, a: [L()], c: [{
    m: 2, calls: 1, a: [L()], c: [{ m: 3, calls: 1, c: [{ m: 2, calls: 1, a: [L()] }] }],
  }] }] }] }] };
  return profileOf({
    types: [objType(1, 'rec.Level', 16)],
    methods: [method(1, 'rec.Main', 'main'), method(2, 'rec.Main', 'down'), method(3, 'java.util.Helper', 'apply', { profiled: false })],
    sites: [site(1, 2, 1)],
    threads: [{ id: 1, name: 'main', daemon: false, alive: false, root: tree }],
  });
}

function shape(p: Profile, root: MctNode): unknown {
  const walk = (n: MctNode): unknown => {
    const name = n.m === undefined ? 'root' : p.methods.get(n.m)!.name;
    const objs = (n.a ?? []).reduce((s, r) => s + r[2], 0);
    const kids = (n.c ?? []).map(walk);
    return kids.length ? [name, n.calls ?? 0, objs, kids] : [name, n.calls ?? 0, objs];
  };
  return walk(root);
}

function totalsOf(p: Profile, root: MctNode): Record<string, number> {
  const t = frameTree(root, p.methods, p.types);
  return Object.fromEntries(VIEW_METRICS.map((k) => [k, t.total[k][0]]));
}

test('collapse recursion merges direct and indirect recursion into the outermost frame', () => {
  const p = recursive();
  const out = collapseRecursion(p.threads[0].root);
  assert.deepEqual(shape(p, out), ['root', 0, 0, [['main', 1, 0, [['down', 4, 4, [['apply', 1, 0]]]]]]]);
  assert.deepEqual(totalsOf(p, out), totalsOf(p, p.threads[0].root), 'every total is kept');
  const n = (name: string, calls: number, objs: number, ...kids: unknown[]): unknown => (kids.length ? [name, calls, objs, kids] : [name, calls, objs]);
  assert.deepEqual(shape(p, p.threads[0].root), n('root', 0, 0, n('main', 1, 0, n('down', 1, 1, n('down', 1, 1, n('down', 1, 1, n('apply', 1, 0, n('down', 1, 1))))))), 'input unchanged');
});

test('only my code folds library frames into their callers', () => {
  const p = recursive();
  const keep = (m: number): boolean => isMyCode(p.methods.get(m));
  const out = foldFrames(p.threads[0].root, keep);
  const n = (name: string, calls: number, objs: number, ...kids: unknown[]): unknown => (kids.length ? [name, calls, objs, kids] : [name, calls, objs]);
  assert.deepEqual(shape(p, out), n('root', 0, 0, n('main', 1, 0, n('down', 1, 1, n('down', 1, 1, n('down', 1, 1, n('down', 1, 1)))))));
  const before = totalsOf(p, p.threads[0].root);
  const after = totalsOf(p, out);
  assert.equal(after.objects, before.objects);
  assert.equal(after.bytes, before.bytes);
  assert.equal(after.calls, before.calls - 1, 'the folded frame\'s own call is dropped');
});

test('folding merges a library frame\'s allocations and callees with the caller\'s', () => {
  const p = loadProfile(dataFile('sample.heaplens'));
  // drop Outer$Inner.run (id 2): its records go to main, and at top level to the root
  const out = foldFrames(mergeThreads(p), (m) => m !== 2);
  const t = frameTree(out, p.methods, p.types);
  assert.deepEqual([...t.method], [-1, 1, 3, 4]);
  assert.deepEqual([...t.self.objects], [3, 10, 0, 0]);
  assert.deepEqual([...t.self.bytes], [32 + 104, 112 + 168, 0, 88]);
  assert.equal(t.total.bytes[0], 504);
});

test('isMyCode: profiled, outside the JDK, inside the include filter', () => {
  assert.equal(isMyCode(method(1, 'com.acme.A', 'x')), true);
  assert.equal(isMyCode(method(1, 'java.lang.ClassLoader', 'loadClass')), false, 'boundary frames are profiled JDK methods');
  assert.equal(isMyCode(method(1, 'java.lang.invoke.MethodHandleNatives', 'linkCallSite')), false);
  assert.equal(isMyCode(method(1, 'com.acme.A', 'x', { profiled: false })), false);
  assert.equal(isMyCode(method(1, 'org.lib.B', 'y'), ['com.acme.*']), false);
  assert.equal(isMyCode(method(1, 'com.acme.sub.C', 'y'), ['com.acme.*']), true);
  assert.equal(isMyCode(method(1, 'com.acme.sub.C', 'y'), ['com.acme']), false);
});

test('inversion: allocating methods on top, callers below, self values charged along reversed paths', () => {
  const p = loadProfile(dataFile('sample.heaplens'));
  const inv = invert(mergeThreads(p), { withCalls: false });
  const t = frameTree(inv, p.methods, p.types);
  // root (keeps its own Object[]), main, run (under it: main), grid (under it: main)
  const names = [...t.method].map((m) => (m < 0 ? 'root' : p.methods.get(m)!.name));
  assert.deepEqual(names, ['root', 'main', 'run', 'main', 'grid', 'main']);
  assert.deepEqual([...t.total.objects], [13, 7, 6, 3, 0, 0]);
  assert.deepEqual([...t.self.objects], [0, 7, 3, 3, 0, 0]);
  assert.deepEqual([...t.total.bytes], [504, 112, 272, 168, 88, 88]);
  assert.equal(t.self.bytes[0], 32);
});

test('inversion of recursion keeps totals and counts calls', () => {
  const p = recursive();
  const inv = invert(p.threads[0].root);
  const t = frameTree(inv, p.methods, p.types);
  const top = new Map<string, [number, number]>();
  for (let j = 1; j < t.n; j = t.end[j]) top.set(p.methods.get(t.method[j])!.name, [t.total.objects[j], t.total.calls[j]]);
  assert.deepEqual(Object.fromEntries(top), { apply: [0, 1], down: [4, 4], main: [0, 1] });
  assert.deepEqual(totalsOf(p, inv), totalsOf(p, p.threads[0].root));
});

test('mergeAll sums like mergeThreads (same tree up to sibling order)', () => {
  const p = loadProfile(dataFile('sample.heaplens'));
  const a = frameTree(mergeAll(p.threads.map((t) => t.root)), p.methods, p.types);
  const b = frameTree(mergeThreads(p), p.methods, p.types);
  assert.deepEqual([...a.method], [...b.method]);
  for (const k of VIEW_METRICS) assert.deepEqual([...a.self[k]], [...b.self[k]], k);
  assert.deepEqual(a.recs, b.recs);
});
