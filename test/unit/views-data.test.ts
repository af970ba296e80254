import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { arraysByCode, arraysByContext, averageLengthDistribution, bucketOf } from '../../core/views/array-stats';
import { biggestChanges, diffTrees } from '../../core/views/diff';
import { frameTree } from '../../core/views/frames';
import { loadProfile, validateProfile } from '../../core/profile/load';
import { mergeThreads } from '../../core/profile/mct';
import { filterRows, siteTable } from '../../core/views/site-table';
import { speedscope } from '../../core/export/speedscope';
import { ProfileFile } from '../../core/profile/types';
import { dataFile } from './helpers';
import * as fs from 'fs';

const sample = () => loadProfile(dataFile('sample.heaplens'));

test('site table: hprof ranking by instances and by bytes with self and accumulated shares', () => {
  const p = sample();
  const input = { tree: frameTree(mergeThreads(p), p.methods, p.types), types: p.types, sites: p.sites, methods: p.methods };
  const byCount = siteTable(input, 'count');
  assert.deepEqual(byCount.map((r) => [r.rank, r.type!.name, r.count, r.node]), [
    [1, 'java.lang.Integer', 5, 1], [2, 'byte[]', 3, 3], [3, 'java.lang.String', 3, 3], [4, 'java.lang.String', 3, 5],
    [5, 'int[]', 2, 4], [6, 'com.acme.Outer$Inner', 2, 1], [7, 'java.lang.Object[]', 1, 0], [8, 'byte[]', 1, 5], [9, 'int[][]', 1, 4],
  ]);
  assert.equal(byCount[0].selfShare, 5 / 21);
  assert.equal(byCount[1].accumShare, 8 / 21);
  assert.ok(Math.abs(byCount[8].accumShare - 1) < 1e-12);
  assert.deepEqual(byCount[0].trace, [1]);
  assert.equal(byCount[0].method!.name, 'valueOf', 'the JDK method that holds the site');
  assert.equal(byCount[0].site!.line, 1082);
  const byBytes = siteTable(input, 'bytes');
  assert.deepEqual(byBytes.map((r) => [r.type!.name, r.bytes]), [
    ['byte[]', 96], ['java.lang.Integer', 80], ['java.lang.String', 72], ['java.lang.String', 72], ['int[]', 64],
    ['java.lang.Object[]', 32], ['com.acme.Outer$Inner', 32], ['byte[]', 32], ['int[][]', 24],
  ]);
  assert.deepEqual(filterRows(byBytes, 'grid', p.methods).map((r) => r.type!.name), ['int[]', 'int[][]']);
  assert.deepEqual(filterRows(byBytes, 'INTEGER', p.methods).length, 1);
  assert.equal(filterRows(byBytes, 'Inner.run', p.methods).length, 4, 'by site method and by calling trace');
});

test('arrays: per element code, per context, distribution of record average lengths', () => {
  const p = sample();
  const t = frameTree(mergeThreads(p), p.methods, p.types);
  const codes = arraysByCode(t, p.types);
  assert.deepEqual(codes.B, { arrays: 4, elements: 40, bytes: 128 });
  assert.deepEqual(codes.R, { arrays: 2, elements: 5, bytes: 56 });
  assert.deepEqual(codes.I, { arrays: 2, elements: 6, bytes: 64 });
  assert.deepEqual(codes.C, { arrays: 0, elements: 0, bytes: 0 });
  assert.deepEqual(arraysByCode(t, p.types, 4).R, { arrays: 1, elements: 2, bytes: 24 }, 'one context');
  const ctx = arraysByContext(t, p.types);
  assert.deepEqual(ctx.map((r) => [r.code, r.node, r.arrays, r.elements, r.bytes]), [
    ['B', 3, 3, 30, 96], ['I', 4, 2, 6, 64], ['R', 0, 1, 3, 32], ['B', 5, 1, 10, 32], ['R', 4, 1, 2, 24],
  ]);
  assert.deepEqual([bucketOf(0), bucketOf(0.5), bucketOf(1), bucketOf(2), bucketOf(3), bucketOf(4), bucketOf(10)], [0, 0, 1, 2, 2, 3, 4]);
  const dist = averageLengthDistribution(t, p.types);
  assert.deepEqual([...dist.keys()], ['B', 'I', 'R']);
  assert.deepEqual(dist.get('B')!.map((b) => [b.label, b.arrays, b.records]), [['0', 0, 0], ['1', 0, 0], ['2–3', 0, 0], ['4–7', 0, 0], ['8–15', 4, 2]]);
  assert.deepEqual(dist.get('R')!.map((b) => [b.label, b.arrays]), [['0', 0], ['1', 0], ['2–3', 2]]);
});

test('diff: frames matched by signature across files with different ids', () => {
  const a = sample();
  const raw = JSON.parse(fs.readFileSync(dataFile('sample.heaplens'), 'utf8')) as ProfileFile;
  // renumber every method (+100) and double the top-level run's String allocations in the "after" profile
  for (const m of raw.methods) {
    m.id += 100;
    if (m.ctorTarget !== undefined) m.ctorTarget += 100;
  }
  for (const s of raw.sites) s.method += 100;
  const renumber = (n: ProfileFile['threads'][number]['root']): void => {
    if (n.m !== undefined) n.m += 100;
    n.c?.forEach(renumber);
  };
  raw.threads.forEach((t) => renumber(t.root));
  raw.threads[1].root.c![0].a![0] = [4, 1, 2, 0, 48];
  const b = validateProfile(raw);
  const d = diffTrees(
    { root: mergeThreads(a), methods: a.methods, types: a.types },
    { root: mergeThreads(b), methods: b.methods, types: b.types },
  );
  assert.equal(d.tree.n, 6, 'same shape: matched by name');
  assert.equal(d.before.total.objects[0], 13);
  assert.equal(d.after.total.objects[0], 14);
  assert.equal(d.tree.total.objects[0], 27, 'widths: before + after');
  const changes = biggestChanges(d, 'objects', 10);
  assert.equal(changes.length, 1);
  assert.equal(d.methods.get(d.tree.method[changes[0].node])!.name, 'run');
  assert.deepEqual([changes[0].before, changes[0].after, changes[0].delta], [3, 4, 1]);
  assert.equal(d.types[0].name, 'java.lang.String');
  assert.deepEqual([d.types[0].before.bytes, d.types[0].after.bytes], [144, 168]);
  const same = diffTrees({ root: mergeThreads(a), methods: a.methods, types: a.types }, { root: mergeThreads(a), methods: a.methods, types: a.types });
  assert.equal(biggestChanges(same, 'bytes', 10).length, 0);
});

test('speedscope export: one sampled profile per thread, type leaf frames, unit bytes or none', () => {
  const p = sample();
  const s = speedscope(p, { metric: 'bytes' });
  assert.equal(s.$schema, 'https://www.speedscope.app/file-format-schema.json');
  assert.deepEqual(s.profiles.map((x) => [x.name, x.unit, x.endValue, x.samples.length]), [
    ['main (bytes)', 'bytes', 400, 7], ['worker-1 (bytes)', 'bytes', 56, 2], ['worker-2 (bytes)', 'bytes', 48, 1],
  ]);
  const main = s.profiles[0];
  for (const sample of main.samples) for (const f of sample) assert.ok(f >= 0 && f < s.shared.frames.length);
  const grid = main.samples.find((x) => s.shared.frames[x[x.length - 2]]?.name === 'com.acme.Util.grid');
  assert.ok(grid);
  assert.deepEqual(grid!.map((f) => s.shared.frames[f].name), ['com.acme.Main.main', 'com.acme.Util.grid', 'new int[][]']);
  assert.equal(s.shared.frames[grid![0]].file, 'Main.java');
  const objs = speedscope(p, { metric: 'objects' });
  assert.equal(objs.profiles[0].unit, 'none');
  assert.equal(objs.profiles.reduce((x, y) => x + y.endValue, 0), 13);
});

test('views data: the mode tree shown follows the profile and the user\'s choice', async () => {
  const { ProfileData } = await import('../../webview/data');
  const file = JSON.parse(fs.readFileSync(dataFile('sample.heaplens'), 'utf8')) as ProfileFile;
  const rootsOnly = new ProfileData(file, 'sample');
  assert.deepEqual(rootsOnly.kinds, ['exact']);
  assert.equal(rootsOnly.kind, 'exact');
  // the same threads with their call trees moved to the sampled mode's estimates, and one exact record kept
  const sampledFile = JSON.parse(JSON.stringify(file)) as ProfileFile;
  for (const t of sampledFile.threads) {
    (t as { sampled?: unknown }).sampled = t.root;
    t.root = {};
  }
  const onlySampled = new ProfileData(sampledFile, 'sampled');
  assert.deepEqual(onlySampled.kinds, ['sampled']);
  assert.equal(onlySampled.kind, 'sampled', 'a profile with only estimates shows the estimates');
  const estimates = onlySampled.tree({ thread: -1, myCode: false, collapseRecursion: false, inverted: false });
  const exact = rootsOnly.tree({ thread: -1, myCode: false, collapseRecursion: false, inverted: false });
  assert.ok(exact.total.objects[0] > 0);
  assert.equal(estimates.total.objects[0], exact.total.objects[0], 'the estimates tree stands in the root');
  onlySampled.useTree('exact');            // absent: falls back to what the profile has
  assert.equal(onlySampled.kind, 'sampled');
  const both = JSON.parse(JSON.stringify(file)) as ProfileFile;
  for (const t of both.threads) (t as { sampled?: unknown }).sampled = t.root;
  const d = new ProfileData(both, 'both');
  assert.deepEqual(d.kinds, ['exact', 'sampled']);
  assert.equal(d.kind, 'exact');
  d.useTree('sampled');
  assert.equal(d.kind, 'sampled');
  assert.deepEqual(d.profile.threads[0].root, (both.threads[0] as { sampled?: unknown }).sampled);
});
