// The inversion on a flattened tree (invert-frames.ts) gives frameTree(invertPruned(root)) array for array: on hand-made
// profiles, at several minShares, and on a generated 100,000-node profile of four threads.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { invertFrames } from '../../core/views/invert-frames';
import { invertPruned, VIEW_MIN_SHARE } from '../../core/views/invert-pruned';
import { invert } from '../../core/views/transform';
import { frameTree, FrameTree, methodRanks } from '../../core/views/frames';
import { mergeShared } from '../../core/views/merge-shared';
import { loadProfile } from '../../core/profile/load';
import { AllocRecord, MctNode, MethodEntry, Profile, TypeEntry } from '../../core/profile/types';
import { recordKey } from '../../core/profile/mct';
import { arrType, assertSameFrameTree, dataFile, method, objType } from './helpers';
import { fixtureProfile } from './views-fixture';

function inverted(root: MctNode, methods: ReadonlyMap<number, MethodEntry>, types: ReadonlyMap<number, TypeEntry>, minShare: number): { want: FrameTree; got: FrameTree } {
  const top = frameTree(root, methods, types);
  const got = invertFrames(top, methodRanks(methods), (i) => (top.recs[i]?.length ?? 0) > 0, minShare);
  assert.ok(got, 'every method has a rank');
  return { want: frameTree(invertPruned(root, types, minShare), methods, types), got };
}

/** Records compared as sets: their order in a frame follows the order its contexts were absorbed in. */
const sorted = (recs: readonly AllocRecord[] | undefined): string[] | undefined =>
  recs && recs.map((r) => `${recordKey(r)}=${r.slice(2, 5).join(',')}`).sort();

function assertSameInversion(want: FrameTree, got: FrameTree): void {
  assertSameFrameTree(want, got, (i) => sorted(got.recs[i]));
  // (assertSameFrameTree compares got's records with want's as they are: sort want's too)
}

function check(p: Profile, shares: number[]): void {
  const root = mergeShared(p.threads.map((t) => t.root));
  for (const s of shares) {
    const { want, got } = inverted(root, p.methods, p.types, s);
    const wantSorted = { ...want, recs: Array.from({ length: want.n }, (_, i) => sorted(want.recs[i])) } as unknown as FrameTree;
    assertSameInversion(wantSorted, got);
  }
}

test('the inversion of a flattened tree is invertPruned\'s, on the hand-made profiles, at several minShares', () => {
  for (const p of [fixtureProfile(), loadProfile(dataFile('sample.heaplens')), loadProfile(dataFile('wordindex.heaplens'))]) {
    check(p, [0, VIEW_MIN_SHARE, 0.01, 0.2, 1]);
  }
});

test('with nothing cut it is the full inversion (transform.invert)', () => {
  const p = fixtureProfile();
  const root = mergeShared(p.threads.map((t) => t.root));
  const top = frameTree(root, p.methods, p.types);
  const got = invertFrames(top, methodRanks(p.methods), (i) => (top.recs[i]?.length ?? 0) > 0, 0)!;
  const want = frameTree(invert(root), p.methods, p.types);
  assert.deepEqual([...got.method], [...want.method]);
  assert.deepEqual([...got.parent], [...want.parent]);
  assert.deepEqual([...got.total.bytes], [...want.total.bytes]);
});

test('a context with an empty record list is none; one with records of no count is one; root records and samples stay on the root', () => {
  const methods = new Map([1, 2, 3].map((id) => [id, method(id, 'a.B', `m${id}`)]));
  const types = new Map<number, TypeEntry>([[1, objType(1, 'a.T', 16)], [2, arrType(2, 'int[]', 'I', 4)]]);
  const root: MctNode = {
    a: [[1, 1, 2, 0, 32], [1, 1, 1, 0, 16]], samples: 3,
    c: [
      { m: 1, a: [], c: [{ m: 2, a: [[1, 2, 0, 0, 0]] }, { m: 3, samples: 2, c: [{ m: 2, calls: 7, a: [[2, 2, 3, 9, 60, 12, 1]] }] }] },
      { m: 3, calls: 1, a: [[2, 2, 3, 9, 60, 12, 1], [2, 2, 1, 1, 20, 12, 1]] },
    ],
  };
  for (const s of [0, 0.3]) {
    const { want, got } = inverted(root, methods, types, s);
    assertSameFrameTree(want, got, (i) => got.recs[i]);
  }
});

test('a frame whose method the table lacks: no inversion here (the caller inverts the parsed nodes)', () => {
  const methods = new Map([[1, method(1, 'a.B', 'm1')]]);
  const top = frameTree({ c: [{ m: 1, calls: 1, c: [{ m: 9, calls: 1 }] }] }, methods, new Map());
  assert.equal(invertFrames(top, methodRanks(methods), () => false), undefined);
});

/** A seeded random profile of `n` nodes over four threads (the shape of scripts/measure-views.mjs's). */
function generated(n: number): { roots: MctNode[]; methods: Map<number, MethodEntry>; types: Map<number, TypeEntry> } {
  let s = 42;
  const rnd = (): number => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const pick = (k: number): number => Math.floor(rnd() * k);
  const methods = new Map<number, MethodEntry>();
  for (let i = 1; i <= 3000; i++) methods.set(i, method(i, `com.acme.m${i % 60}.C${i % 97}`, `m${i}`));
  const types = new Map<number, TypeEntry>();
  for (let i = 1; i <= 200; i++) types.set(i, i % 4 === 3 ? arrType(i, `int${i}[]`, 'I', 4) : objType(i, `com.acme.T${i}`, 16 + 8 * (i % 5)));
  const roots: MctNode[] = [0, 1, 2, 3].map(() => ({ c: [] }));
  const open = roots.map((node) => ({ node, depth: 0 }));
  for (let made = 0; made < n - 4; made++) {
    const parent = open[open.length > 64 && rnd() < 0.7 ? open.length - 1 - pick(Math.min(open.length, 400)) : pick(open.length)];
    const node: MctNode = { m: 1 + pick(3000), calls: pick(8) === 0 ? 0 : 1 + pick(50) };
    if (pick(20) === 0) node.samples = 1 + pick(9);
    const recs = pick(4);
    if (recs) node.a = Array.from({ length: recs }, () => {
      const site = 1 + pick(5000);
      const type = types.get(1 + (site % 200))!;
      const count = 1 + pick(1000);
      const elements = type.array ? count * pick(64) : 0;
      return [site, type.id, count, elements, type.array ? count * 16 + elements * 4 : count * (type.size ?? 16)] as AllocRecord;
    });
    (parent.node.c ??= []).push(node);
    if (parent.depth < 40) open.push({ node, depth: parent.depth + 1 });
  }
  return { roots, methods, types };
}

test('a generated 100,000-node profile inverts to invertPruned\'s tree at the views\' minShare', () => {
  const g = generated(100_000);
  const root = mergeShared(g.roots);
  for (const s of [VIEW_MIN_SHARE]) {
    const { want, got } = inverted(root, g.methods, g.types, s);
    assert.ok(got.n > 1000, `${got.n} frames`);
    const wantSorted = { ...want, recs: Array.from({ length: want.n }, (_, i) => sorted(want.recs[i])) } as unknown as FrameTree;
    assertSameInversion(wantSorted, got);
  }
});
