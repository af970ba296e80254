// The first render of a large tree done in slices (webview/tasks.ts runs them in tasks of their own): each sliced step
// gives exactly what the one-shot code gives, and a layout made for a wider window draws the same frames.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { FrameTree, frameTree, rollUp, rollUpInSteps, VIEW_METRICS } from '../../core/views/frames';
import { decodeFrameColumns, decodeFrameColumnsInSteps, encodeFrameColumns } from '../../core/views/frame-columns';
import { methodsIn, methodsInSteps } from '../../core/views/method-sums';
import { loadProfile } from '../../core/profile/load';
import { mergeThreads } from '../../core/profile/mct';
import { MctNode, MethodEntry, TypeEntry } from '../../core/profile/types';
import { layout, Layout, layoutInSteps } from '../../webview/core/layout';
import { dataFile } from './helpers';

/** Runs a generator to its end; returns its value and how many times it yielded. */
function drain<T>(steps: Generator<void, T>): { value: T; yields: number } {
  let yields = 0;
  for (;;) {
    const s = steps.next();
    if (s.done) return { value: s.value, yields };
    yields++;
  }
}

/** A seeded tree of `size` nodes: mostly 1–4 children, now and then 20–39; 60 methods, records on half the nodes. */
function randomTree(size: number, seed: number): FrameTree {
  let s = seed;
  const rnd = (k: number) => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) % k);
  const methods = new Map<number, MethodEntry>();
  for (let id = 1; id <= 60; id++) methods.set(id, { id, class: `p${id % 7}.C${id % 25}`, name: 'm', desc: '()V', profiled: true });
  const types = new Map<number, TypeEntry>([[1, { id: 1, name: 'long[]', array: true, size: null }], [2, { id: 2, name: 'p.T', array: false, size: 24 }]] as Array<[number, TypeEntry]>);
  const root: MctNode = { c: [] };
  const open: MctNode[] = [root];
  let made = 0;
  while (made < size) {
    const parent = open[rnd(open.length)];
    const kids = rnd(50) === 0 ? 20 + rnd(20) : 1 + rnd(4);
    for (let k = 0; k < kids; k++, made++) {
      const node: MctNode = { m: 1 + rnd(60), calls: rnd(3), a: rnd(2) ? [[1 + rnd(9), 1 + rnd(2), 1 + rnd(500), rnd(9), 8 * (1 + rnd(2000))]] : undefined };
      (parent.c ??= []).push(node);
      open.push(node);
    }
  }
  return frameTree(root, methods, types);
}

function assertSameLayout(a: Layout, b: Layout, what: string): void {
  assert.equal(a.rows, b.rows, `${what}: rows`);
  assert.equal(a.scale, b.scale, `${what}: scale`);
  assert.equal(a.minWidth, b.minWidth, `${what}: minWidth`);
  assert.deepEqual([...a.x], [...b.x], `${what}: x`);
  assert.deepEqual([...a.w], [...b.w], `${what}: w`);
}

test('layout in slices: the sample tree\'s exact widths and edges, one frame a slice', () => {
  const p = loadProfile(dataFile('sample.heaplens'));
  const t = frameTree(mergeThreads(p), p.methods, p.types);
  // bytes: root 504, main 368, <init> 0, run 168, grid 88 (under main), run 104 (top level)
  const { value: lay, yields } = drain(layoutInSteps(t, 'bytes', 0, undefined, 0, 1));
  assert.equal(yields, 5, 'one yield per frame visited after the zoomed one');
  assert.deepEqual([...lay.w], [1, 368 / 504, 0, 168 / 504, 88 / 504, 104 / 504]);
  assert.deepEqual([...lay.x], [0, 0, 0, 0, 168 / 504, 368 / 504]);
  assert.equal(lay.rows, 3);
  assertSameLayout(lay, layout(t, 'bytes', 0), 'one shot');
});

test('layout in slices equals the one-shot layout array for array (a 30,000-node tree, zoomed and not, with a minimum width)', () => {
  const t = randomTree(30_000, 11);
  const zoomed = t.parent.indexOf(0, 1) >= 0 ? 1 : 0;
  for (const zoom of [0, zoomed]) {
    for (const minWidth of [0, 0.25 / 1400, 0.01]) {
      const whole = layout(t, 'bytes', zoom, undefined, minWidth);
      for (const every of [1, 7, 1000, 20_000]) {
        const { value, yields } = drain(layoutInSteps(t, 'bytes', zoom, undefined, minWidth, every));
        assertSameLayout(value, whole, `zoom ${zoom}, minWidth ${minWidth}, every ${every}`);
        if (every === 1000 && minWidth === 0) assert.ok(yields >= 20, `sliced: ${yields} yields`);
      }
    }
  }
});

/** flame-paint.ts's MIN_WIDTH (a DOM module, not compiled for these tests): a frame narrower in CSS pixels is not drawn. */
const MIN_WIDTH = 0.5;

/** The frames the painter draws (flame-paint.ts: a frame under MIN_WIDTH is skipped with its subtree), with their edges. */
function drawn(t: FrameTree, lay: Layout, width: number): string[] {
  const out: string[] = [];
  for (let i = lay.zoom; i < t.end[lay.zoom];) {
    if (lay.w[i] * width < MIN_WIDTH) {
      i = t.end[i];
      continue;
    }
    out.push(`${i} ${lay.x[i]} ${lay.w[i]}`);
    i++;
  }
  return out;
}

test('a layout made ahead for a wider window draws the same frames, at the same edges, on a narrower canvas', () => {
  const t = randomTree(30_000, 5);
  for (const width of [1372, 800]) {
    const own = layout(t, 'bytes', 0, undefined, MIN_WIDTH / 2 / width);
    const ahead = layout(t, 'bytes', 0, undefined, MIN_WIDTH / 2 / 1400);
    const a = drawn(t, own, width);
    assert.ok(a.length > 300, `${a.length} frames drawn`);
    assert.deepEqual(drawn(t, ahead, width), a, `width ${width}`);
    assert.equal(ahead.rows, own.rows);
  }
});

test('methodsIn in slices: the same methods in the same order, whatever the slice', () => {
  const t = randomTree(30_000, 3);
  const whole = methodsIn(t, 1, t.n);
  assert.equal(whole.length, 60);
  for (const every of [1, 13, 4096, 1e9]) {
    const { value, yields } = drain(methodsInSteps(t, 1, t.n, every));
    assert.deepEqual(value, whole, `every ${every}`);
    assert.equal(yields, Math.ceil((t.n - 1) / every) - 1, `every ${every}: a yield between slices`);
  }
  const p = loadProfile(dataFile('sample.heaplens'));
  const s = frameTree(mergeThreads(p), p.methods, p.types);
  assert.deepEqual(drain(methodsInSteps(s, 0, s.n, 2)).value, [-1, 1, 3, 2, 4]);
});

test('rollUp in slices and the columns decoded in slices equal the one-shot code array for array', () => {
  const t = randomTree(30_000, 9);
  const fresh = (): Pick<FrameTree, 'n' | 'parent' | 'end' | 'self' | 'total'> => ({
    n: t.n, parent: t.parent, end: Int32Array.from({ length: t.n }, (_, i) => i + 1), self: t.self,
    total: Object.fromEntries(VIEW_METRICS.map((k) => [k, new Float64Array(t.n)])) as FrameTree['total'],
  });
  const once = fresh();
  rollUp(once);
  for (const every of [1, 977, 1e9]) {
    const sliced = fresh();
    drain(rollUpInSteps(sliced, every));
    assert.deepEqual([...sliced.end], [...t.end], `every ${every}: ends`);
    for (const k of VIEW_METRICS) assert.deepEqual([...sliced.total[k]], [...once.total[k]], `every ${every}: total ${k}`);
  }
  for (const k of VIEW_METRICS) assert.deepEqual([...once.total[k]], [...t.total[k]], `frameTree's total ${k}`);
  const cols = encodeFrameColumns(t);
  const whole = decodeFrameColumns(cols);
  for (const every of [1000, 7]) {
    const { value: d, yields } = drain(decodeFrameColumnsInSteps(cols, every));
    assert.ok(yields > t.n / every, `every ${every}: ${yields} yields`);
    assert.equal(d.maxDepth, whole.maxDepth);
    for (const k of ['method', 'parent', 'depth', 'end'] as const) assert.deepEqual([...d[k]], [...whole[k]], `${k}, every ${every}`);
    for (const k of VIEW_METRICS) {
      assert.deepEqual([...d.self[k]], [...whole.self[k]], `self ${k}, every ${every}`);
      assert.deepEqual([...d.total[k]], [...t.total[k]], `total ${k}, every ${every}`);
    }
  }
});
