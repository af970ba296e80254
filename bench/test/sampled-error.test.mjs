// node --test bench/test/ : the sampled mode's per-type comparison (bench/lib/sampled-error.mjs) and its bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareTypes, samplerModel, typeTotals } from '../lib/sampled-error.mjs';
import { scanProfile } from '../lib/profile-scan.mjs';
import { rng } from '../lib/rng.mjs';

const near = (a, b, eps = 1e-12) => assert.ok(Math.abs(a - b) <= eps * Math.max(1, Math.abs(b)), `${a} ≠ ${b}`);
// one type's totals from records [count, bytes]
const entry = (...recs) => recs.reduce((e, [c, b]) => {
  e.count += c; e.bytes += b; e.invSize += (c * c) / b;
  e.sizes.set(b / c, (e.sizes.get(b / c) ?? 0) + c);
  return e;
}, { count: 0, elements: 0, bytes: 0, invSize: 0, sizes: new Map() });

test('compareTypes: top types by exact bytes, errors, the model\'s bias and σ, the 3σ verdicts', () => {
  const K = 16384;
  const exact = new Map([
    ['java.lang.String', entry([10000, 240000], [30000, 720000])], // 40,000 objects of 24 bytes: 960,000 bytes
    ['byte[]', entry([1000, 16000], [10, 1048576 * 10])],           // 1000 of 16 bytes, 10 of 1 MiB
    ['a.Small', entry([10, 160])],
  ]);
  const sampled = new Map([
    ['java.lang.String', { count: 44000, bytes: 1056000 }],
    ['byte[]', { count: 1300, bytes: 10400000 }],
    ['a.Other', { count: 7, bytes: 700 }],                     // only sampled: in the totals, not a row
  ]);
  const repeat = new Map([['java.lang.String', { count: 40020, bytes: 960480 }], ['byte[]', { count: 1010, bytes: 10501760 }]]);
  const r = compareTypes({ exact, sampled, repeat, sampleBytes: K, top: 2 });
  assert.deepEqual(r.rows.map((x) => x.type), ['byte[]', 'java.lang.String']);
  const [b, s] = r.rows;
  const B = 16000 + 10485760 + 960000 + 160;
  near(s.share, 960000 / B);
  near(s.countError, 0.1);
  near(s.bytesError, 0.1);
  near(b.bytesError, 10400000 / 10501760 - 1);
  near(b.countError, 1300 / 1010 - 1);
  // the estimator is unbiased whatever the sizes: σ of bytes sqrt(K / B_T)
  assert.equal(b.bytesBias, 0);
  assert.equal(s.bytesBias, 0);
  near(s.bytesSigma, Math.sqrt(K / 960000));
  // String: one size, so its count behaves as its bytes
  near(s.countSigma, s.bytesSigma, 1e-3); // (the count's stochastic rounding adds a little)
  near(s.simpleSigma, Math.sqrt((2 * K) / 960000));
  assert.equal(s.countWithin3Sigma, Math.abs(0.1 - s.countBias) <= 3 * s.countSigma);
  assert.equal(s.countWithin3SigmaOfZero, 0.1 <= 3 * s.countSigma);
  near(s.runToRun, 20 / 40000);
  assert.equal(b.repeatCount, 1010);
  near(r.total.exactBytes, B);
  near(r.total.sampledBytes, 1056000 + 10400000 + 700);
  near(r.total.runToRun, (41030 - 41020) / 41020);
  near(r.maxRunToRun, 20 / 40000);

  // a type the sampled run never saw is -100 %: beyond 3σ when it had many samples' worth of bytes, not when it had few
  const alone = compareTypes({ exact, sampled: new Map([['java.lang.String', { count: 44000, bytes: 1056000 }]]), sampleBytes: K });
  assert.deepEqual(alone.rows.map((x) => x.type), ['byte[]', 'java.lang.String', 'a.Small']);
  assert.equal(alone.rows[0].bytesError, -1);
  assert.equal(alone.rows[0].bytesWithin3Sigma, false);
  // its count, though, is mostly 16-byte arrays that few samples land on: even -100 % is within 3σ
  assert.equal(alone.rows[0].countWithin3Sigma, true);
  assert.equal(alone.rows[2].countError, -1);
  assert.equal(alone.rows[2].countWithin3Sigma, true); // 160 bytes: 1 % of one sample
  assert.equal(alone.rows[1].runToRun, null);
  assert.equal(alone.maxRunToRun, null);
  assert.throws(() => compareTypes({ exact, sampled, sampleBytes: 0 }), /sampleBytes/);
});

test('samplerModel: no bias, σ of bytes = sqrt(K / B_T), σ of counts from the sizes', () => {
  const K = 16384;
  const exact = new Map([['a.A', entry([1e6, 24e6])], ['a.B', entry([2e5, 8e6])], ['int[]', entry([1e5, 1.6e6], [2e3, 1.6e6])]]);
  const m = samplerModel(exact, K);
  for (const [type, e] of exact) {
    const x = m.get(type);
    assert.ok(x.bytesBias === 0 && x.countBias === 0, `${type}: bias ${x.bytesBias} ${x.countBias}`);
    const want = Math.sqrt(K / e.bytes);
    assert.ok(Math.abs(x.bytesSigma / want - 1) < 0.02, `${type}: σ ${x.bytesSigma} vs ${want}`);
  }
  // int[] of two sizes (16 and 800 bytes): its count varies more than its bytes
  assert.ok(m.get('int[]').countSigma > 1.3 * m.get('int[]').bytesSigma, `${m.get('int[]').countSigma} ${m.get('int[]').bytesSigma}`);
  near(m.get('a.A').countSigma, m.get('a.A').bytesSigma, 1e-3);
});

// The agent's sampler (runtime/Sampler.java) on a synthetic allocation stream: sample points at exponential
// intervals of mean K; an allocation holding n points stands for n·K bytes, count = n·K ÷ size stochastically rounded.
function sampleRun(seed, allocs, K) {
  const r = rng(seed);
  const next = () => Math.max(1, Math.floor(-Math.log(1 - r.next()) * K));
  const est = new Map();
  let left = next();
  for (const [type, size] of allocs) {
    left -= size;
    if (left > 0) continue;
    let points = 0;
    while (left <= 0) { points++; left += next(); }
    const weight = points * K;
    const scale = weight / size;
    const count = Math.floor(scale) + (r.next() < scale - Math.floor(scale) ? 1 : 0);
    const e = est.get(type) ?? { count: 0, bytes: 0 };
    e.count += count;
    e.bytes += weight;
    est.set(type, e);
  }
  return est;
}

// 60,000 allocations: objects of 24 bytes, byte[] of 16, char[] of 64, and 1 % int[] of the given size.
function simulatedStream(bigArray) {
  const gen = rng(7);
  const allocs = [];
  for (let i = 0; i < 60000; i++) {
    const u = gen.next();
    allocs.push(u < 2 / 3 ? ['a.Obj', 24] : u < 5 / 6 ? ['byte[]', 16] : u < 0.99 ? ['char[]', 64] : ['int[]', bigArray]);
  }
  const exact = new Map();
  for (const [type, size] of allocs) {
    const e = exact.get(type) ?? { count: 0, bytes: 0, invSize: 0, sizes: new Map() };
    e.count++; e.bytes += size; e.invSize += 1 / size; e.sizes.set(size, (e.sizes.get(size) ?? 0) + 1);
    exact.set(type, e);
  }
  // one array type of two sizes: its count varies more than its bytes
  const mixed = exact.get('byte[]');
  return { allocs, exact, mixed };
}

// Three mixes: every allocation much smaller than K; 1 % of them near K; 1 % of them 4 × K (always sampled, as the
// large arrays of luindex are). In each the mean error over 200 seeded runs is 0 (within 0.25σ) and the spread
// around it is the stated σ (0.8–1.2).
for (const [name, big, K] of [['small', 512, 16384], ['near K', 4096, 4096], ['large', 65536, 16384]]) {
  test(`the stated bias and σ match the sampler's estimates (seeded simulation: ${name} arrays)`, () => {
    const { allocs, exact } = simulatedStream(big);
    const err = {};
    let c;
    for (let seed = 1; seed <= 200; seed++) {
      c = compareTypes({ exact, sampled: sampleRun(seed, allocs, K), sampleBytes: K });
      for (const x of c.rows) {
        (err[`${x.type} count`] ??= []).push([x.countError, x.countBias, x.countSigma]);
        (err[`${x.type} bytes`] ??= []).push([x.bytesError, x.bytesBias, x.bytesSigma]);
      }
    }
    for (const [k, xs] of Object.entries(err)) {
      const [, bias, sigma] = xs[0];
      const mean = xs.reduce((a, [e]) => a + e, 0) / xs.length;
      assert.ok(Math.abs(mean - bias) < 0.25 * sigma, `${k}: mean error ${mean.toFixed(4)}, stated bias ${bias.toFixed(4)}, σ ${sigma.toFixed(4)}`);
      const sd = Math.sqrt(xs.reduce((a, [e]) => a + (e - bias) ** 2, 0) / xs.length) / sigma;
      assert.ok(sd > 0.8 && sd < 1.2, `${k}: (error − bias) / σ has sd ${sd.toFixed(3)}`);
    }
    for (const x of c.rows) assert.equal(x.countBias, 0, `${x.type}: no bias`);
  });
}

test('scanProfile byType sums each tree per type id; typeTotals joins ids by name', () => {
  const node = (a, c) => ({ m: 1, calls: 1, a, ...(c ? { c } : {}) });
  const profile = {
    format: 'heaplens-profile', version: 1, meta: { mode: 'sampled', sampleBytes: 4096 },
    types: [{ id: 1, name: 'java.lang.String', array: false, size: 24 }, { id: 2, name: 'int[]', array: true, size: null },
      { id: 5, name: 'java.lang.String', array: false, size: 24 }],
    methods: [{ id: 1, class: 'a.B', name: 'm', desc: '()V' }],
    threads: [
      { id: 1, name: 'main', root: { a: [[1, 1, 3, 0, 72]], c: [node([[2, 2, 2, 30, 160]], [node([[3, 1, 1, 0, 24]])])] },
        sampled: { c: [node([[2, 2, 5, 70, 400], [4, 5, 10, 0, 240]])] }, siteTraces: { a: [[2, 2, 99, 0, 9]] } },
      { id: 2, name: 'w\\"[', root: { c: [node([[1, 5, 2, 0, 48]])] }, sites: { a: [[2, 2, 1, 16, 80]] } },
    ],
  };
  const f = join(mkdtempSync(join(tmpdir(), 'se-')), 'p.heaplens');
  writeFileSync(f, JSON.stringify(profile, null, 1));
  for (const chunk of [1, 3, 7, 64, 1 << 20]) {
    const { top, perType, threads } = scanProfile(f, chunk, { byType: true });
    assert.deepEqual(top.types, profile.types, `chunk ${chunk}`);
    assert.deepEqual(Object.fromEntries(perType.root), {
      1: { count: 4, elements: 0, bytes: 96, invSize: 9 / 72 + 1 / 24, sizes: new Map([[24, 4]]) },
      2: { count: 2, elements: 30, bytes: 160, invSize: 4 / 160, sizes: new Map([[80, 2]]) },
      5: { count: 2, elements: 0, bytes: 48, invSize: 4 / 48, sizes: new Map([[24, 2]]) } }, `chunk ${chunk}`);
    assert.deepEqual(Object.fromEntries(perType.sampled), {
      2: { count: 5, elements: 70, bytes: 400, invSize: 25 / 400, sizes: new Map([[80, 5]]) },
      5: { count: 10, elements: 0, bytes: 240, invSize: 100 / 240, sizes: new Map([[24, 10]]) } });
    assert.deepEqual(Object.fromEntries(perType.sites), { 2: { count: 1, elements: 16, bytes: 80, invSize: 1 / 80, sizes: new Map([[80, 1]]) } });
    assert.deepEqual(threads.map((t) => [t.name, t.bytes]), [['main', 72 + 160 + 24 + 400 + 240 + 9], ['w\\"[', 48 + 80]]);
  }
  assert.equal(scanProfile(f).perType, undefined); // the plain scan is unchanged
  const t = typeTotals(f);
  assert.equal(t.meta.sampleBytes, 4096);
  assert.deepEqual([...t.root.keys()].sort(), ['int[]', 'java.lang.String']);
  assert.equal(t.root.get('java.lang.String').count, 6);
  assert.equal(t.root.get('java.lang.String').bytes, 144);
  assert.equal(t.sampled.get('java.lang.String').count, 10);
  writeFileSync(f, JSON.stringify({ ...profile, types: profile.types.slice(1) }));
  assert.throws(() => typeTotals(f), /type id 1 is not in the types table/);
});

test('compareTypes with the σ a sampled profile states (sampler=jfr): relative to exact, and the ±10 % tally', () => {
  const exact = new Map([['A', { count: 1000, bytes: 16000, sizes: new Map([[16, 1000]]) }], ['B', { count: 10, bytes: 8000, sizes: new Map([[800, 10]]) }]]);
  const sampled = new Map([['A', { count: 1050, bytes: 16800 }], ['B', { count: 13, bytes: 10400 }]]);
  const stated = new Map([['A', { countVar: 30 * 30, bytesVar: 480 * 480 }], ['B', { countVar: 1, bytesVar: 800 * 800 }]]);
  const r = compareTypes({ exact, sampled, sampleBytes: 16384, stated });
  assert.equal(r.sigmaFrom, 'profile');
  const a = r.rows.find((x) => x.type === 'A'), b = r.rows.find((x) => x.type === 'B');
  assert.equal(a.countSigma, 0.03);
  assert.equal(a.bytesSigma, 0.03);
  assert.equal(a.countWithin3Sigma, true);            // +5 % within 3 × 3 %
  assert.equal(b.countSigma, 0.1);
  assert.equal(b.countWithin3Sigma, true);            // +30 % = 3σ
  assert.equal(b.bytesWithin3Sigma, true);            // +30 % of bytes, σ 10 %
  assert.equal(r.countWithin10, 1);
  assert.equal(r.bytesWithin10, 1);
  assert.equal(compareTypes({ exact, sampled, sampleBytes: 16384 }).sigmaFrom, 'model');
});
