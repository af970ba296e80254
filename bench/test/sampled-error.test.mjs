// node --test bench/test/ : the sampled mode's per-type comparison (bench/lib/sampled-error.mjs) and its bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareTypes, typeTotals } from '../lib/sampled-error.mjs';
import { scanProfile } from '../lib/profile-scan.mjs';
import { rng } from '../lib/rng.mjs';

const near = (a, b, eps = 1e-12) => assert.ok(Math.abs(a - b) <= eps * Math.max(1, Math.abs(b)), `${a} ≠ ${b}`);
// one type's totals from records [count, bytes]
const entry = (...recs) => recs.reduce((e, [c, b]) => ({
  count: e.count + c, elements: 0, bytes: e.bytes + b, invSize: e.invSize + (b > 0 ? (c * c) / b : 0),
  sqSize: e.sqSize + (c > 0 ? (b * b) / c : 0),
}), { count: 0, elements: 0, bytes: 0, invSize: 0, sqSize: 0 });

test('compareTypes: top types by exact bytes, errors, σ and the 3σ verdict', () => {
  const K = 16384;
  const exact = new Map([
    ['java.lang.String', entry([1000, 24000], [3000, 72000])], // 4000 objects of 24 bytes: 96,000 bytes
    ['byte[]', entry([100, 1600], [100, 102400])],            // 100 of 16 bytes and 100 of 1024 bytes
    ['a.Small', entry([10, 160])],
    ['a.Zero', entry([5, 0])],                                 // no bytes: never listed
  ]);
  const sampled = new Map([
    ['java.lang.String', { count: 4400, bytes: 105600 }],
    ['byte[]', { count: 130, bytes: 100000 }],
    ['a.Other', { count: 7, bytes: 700 }],                     // only sampled: in the totals, not a row
  ]);
  const repeat = new Map([['java.lang.String', { count: 4002, bytes: 96048 }], ['byte[]', { count: 200, bytes: 104000 }]]);
  const r = compareTypes({ exact, sampled, repeat, sampleBytes: K, top: 2 });
  assert.deepEqual(r.rows.map((x) => x.type), ['byte[]', 'java.lang.String']); // 104,000 bytes before 96,000
  const [b, s] = r.rows;
  // an object type: σ of the count = σ of the bytes = sqrt(2K (1 − p) / B_T), p its share of all bytes
  const B = 104000 + 96000 + 160;
  near(s.share, 96000 / B);
  near(s.countError, 0.1);
  near(s.bytesSigma, Math.sqrt((2 * K * (1 - 96000 / B)) / 96000));
  near(s.countSigma, s.bytesSigma);
  assert.equal(s.countWithin3Sigma, true); // 10 % against 3 × 58 %
  near(s.runToRun, 2 / 4000);
  // arrays of two sizes: Σ count²/bytes = 100/16 + 100/1024, so the count's σ exceeds sqrt(2K / B)
  near(b.countError, -0.35);
  near(b.countSigma, Math.sqrt(2 * K * (100 / 16 + 100 / 1024 - (200 * 200) / B)) / 200);
  assert.ok(b.countSigma > 3 * b.bytesSigma);
  near(b.bytesError, 100000 / 104000 - 1);
  assert.equal(b.repeatCount, 200);
  near(r.total.exactBytes, 104000 + 96000 + 160);
  near(r.total.sampledBytes, 105600 + 100000 + 700);
  near(r.total.runToRun, (4202 - 4215) / 4215);
  near(r.maxRunToRun, 2 / 4000);
  // overshoot: ō = Σ size² / 2B; String (24 bytes) comes out low, the 1 KiB arrays' bytes high
  const o = (4000 * 24 * 24 + 100 * 16 * 16 + 100 * 1024 * 1024 + 10 * 16 * 16) / (2 * B);
  near(r.meanOvershoot, o);
  near(s.countBias, (12 - o) / (K + o));
  near(s.bytesBias, s.countBias);
  near(b.countBias, (520 / 2 - o) / (K + o));
  near(b.bytesBias, ((100 * 256 + 100 * 1024 * 1024) / (2 * 104000) - o) / (K + o));
  assert.ok(b.bytesBias > 0 && s.bytesBias < 0);
  assert.equal(r.rows[1].type, 'java.lang.String');

  // a type the sampled run never saw is -100 %; a small K makes the same error a miss
  const tight = compareTypes({ exact, sampled: new Map([['java.lang.String', { count: 4400, bytes: 105600 }]]), sampleBytes: 32 });
  assert.deepEqual(tight.rows.map((x) => x.type), ['byte[]', 'java.lang.String', 'a.Small']);
  assert.equal(tight.rows[0].countError, -1);
  assert.equal(tight.rows[0].countWithin3Sigma, false);
  assert.equal(tight.rows[1].countWithin3Sigma, false); // 10 % against 3σ = 3 × sqrt(64 (1 − 0.48) / 96000) = 5.6 %
  assert.equal(tight.rows[1].runToRun, null);
  // a.Small: 160 bytes are 5 samples' worth at K = 32, so even -100 % is within 3σ = 3 × 63 %
  assert.equal(tight.rows[2].countError, -1);
  assert.equal(tight.rows[2].countWithin3Sigma, true);
  assert.equal(tight.countWithin3Sigma, 1);
  assert.equal(tight.maxRunToRun, null);
  assert.throws(() => compareTypes({ exact, sampled, sampleBytes: 0 }), /sampleBytes/);
});

// The agent's sampler (runtime/Sampler.java) on a synthetic allocation stream: exponential intervals of mean K,
// each sample weighted by the bytes since the previous one, count = weight ÷ size stochastically rounded.
function sampleRun(seed, allocs, K) {
  const r = rng(seed);
  const next = () => Math.max(1, Math.floor(-Math.log(1 - r.next()) * K));
  const est = new Map();
  let interval = next(), left = interval;
  for (const [type, size] of allocs) {
    left -= size;
    if (left > 0) continue;
    const weight = interval - left;
    const scale = weight / size;
    const count = Math.floor(scale) + (r.next() < scale - Math.floor(scale) ? 1 : 0);
    const e = est.get(type) ?? { count: 0, bytes: 0 };
    e.count += count;
    e.bytes += weight;
    est.set(type, e);
    interval = left = next();
  }
  return est;
}

// Allocations much smaller than K, as the bound assumes: a sample's weight runs to the end of the sampled allocation, so an
// allocation of a size near K carries the overshoot and takes weight from the other types (see docs/benchmark.md).
function simulatedStream(bigArray) {
  const gen = rng(7);
  const allocs = [];
  for (let i = 0; i < 60000; i++) {
    const u = gen.next();
    allocs.push(u < 2 / 3 ? ['a.Obj', 24] : u < 5 / 6 ? ['byte[]', 16] : ['byte[]', bigArray]);
  }
  const exact = new Map();
  for (const [type, size] of allocs) {
    const e = exact.get(type) ?? { count: 0, bytes: 0, invSize: 0, sqSize: 0 };
    e.count++; e.bytes += size; e.invSize += 1 / size; e.sqSize += size * size; // one record per allocation
    exact.set(type, e);
  }
  return { allocs, exact };
}

test('the stated σ matches the spread of the sampler\'s estimates (seeded simulation)', () => {
  const K = 16384;
  const { allocs, exact } = simulatedStream(512);
  const z = { obj: [], arrCount: [], arrBytes: [], arrCountNaive: [] };
  let within = 0, rows = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const c = compareTypes({ exact, sampled: sampleRun(seed, allocs, K), sampleBytes: K });
    const obj = c.rows.find((x) => x.type === 'a.Obj'), arr = c.rows.find((x) => x.type === 'byte[]');
    z.obj.push(obj.countError / obj.countSigma);
    z.arrCount.push(arr.countError / arr.countSigma);
    z.arrBytes.push(arr.bytesError / arr.bytesSigma);
    z.arrCountNaive.push(arr.countError / Math.sqrt((2 * K) / arr.exactBytes)); // sqrt(2K / B_T) on an array type's count
    within += c.countWithin3Sigma + c.bytesWithin3Sigma;
    rows += 2 * c.rows.length;
  }
  const sd = (xs) => Math.sqrt(xs.reduce((a, x) => a + x * x, 0) / xs.length); // around 0: the estimator is unbiased
  const mean = (xs) => xs.reduce((a, x) => a + x, 0) / xs.length;
  for (const k of ['obj', 'arrCount', 'arrBytes']) {
    assert.ok(sd(z[k]) > 0.85 && sd(z[k]) < 1.15, `${k}: error / σ has sd ${sd(z[k]).toFixed(3)}, want ≈ 1`);
    assert.ok(Math.abs(mean(z[k])) < 0.2, `${k}: mean error / σ ${mean(z[k]).toFixed(3)}, want ≈ 0 (unbiased)`);
  }
  assert.ok(sd(z.arrCountNaive) > 2, `sqrt(2K/B) understates an array count's spread: sd ${sd(z.arrCountNaive).toFixed(2)}`);
  assert.ok(within / rows >= 0.98, `within 3σ: ${within} of ${rows}`);
});

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
      1: { count: 4, elements: 0, bytes: 96, invSize: 9 / 72 + 1 / 24, sqSize: 72 * 72 / 3 + 24 * 24 },
      2: { count: 2, elements: 30, bytes: 160, invSize: 4 / 160, sqSize: 160 * 160 / 2 },
      5: { count: 2, elements: 0, bytes: 48, invSize: 4 / 48, sqSize: 48 * 48 / 2 } }, `chunk ${chunk}`);
    assert.deepEqual(Object.fromEntries(perType.sampled), {
      2: { count: 5, elements: 70, bytes: 400, invSize: 25 / 400, sqSize: 400 * 400 / 5 },
      5: { count: 10, elements: 0, bytes: 240, invSize: 100 / 240, sqSize: 240 * 240 / 10 } });
    assert.deepEqual(Object.fromEntries(perType.sites), { 2: { count: 1, elements: 16, bytes: 80, invSize: 1 / 80, sqSize: 6400 } });
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

// Allocations of a size near K: the overshoot biases the estimates as stated, and around that bias σ still holds.
test('the stated overshoot bias matches the sampler\'s (seeded simulation, 1 KiB arrays, K = 4 KiB)', () => {
  const K = 4096;
  const { allocs, exact } = simulatedStream(1024);
  const err = { obj: [], arrCount: [], arrBytes: [] };
  let c;
  for (let seed = 1; seed <= 200; seed++) {
    c = compareTypes({ exact, sampled: sampleRun(seed, allocs, K), sampleBytes: K });
    const obj = c.rows.find((x) => x.type === 'a.Obj'), arr = c.rows.find((x) => x.type === 'byte[]');
    err.obj.push([obj.countError, obj.countBias, obj.countSigma]);
    err.arrCount.push([arr.countError, arr.countBias, arr.countSigma]);
    err.arrBytes.push([arr.bytesError, arr.bytesBias, arr.bytesSigma]);
  }
  assert.ok(c.rows.find((x) => x.type === 'a.Obj').countBias < -0.09, 'small objects about 10 % low');
  for (const [k, xs] of Object.entries(err)) {
    const [, bias, sigma] = xs[0];
    const mean = xs.reduce((a, [e]) => a + e, 0) / xs.length;
    // the mean of 200 runs is within 0.25σ of the stated bias; around it the spread is σ
    assert.ok(Math.abs(mean - bias) < 0.25 * sigma, `${k}: mean error ${mean.toFixed(4)}, stated bias ${bias.toFixed(4)}, σ ${sigma.toFixed(4)}`);
    const sd = Math.sqrt(xs.reduce((a, [e]) => a + (e - bias) ** 2, 0) / xs.length) / sigma;
    assert.ok(sd > 0.8 && sd < 1.2, `${k}: (error − bias) / σ has sd ${sd.toFixed(3)}`);
  }
});
