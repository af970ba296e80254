// The sampled mode's estimates against exact counts, per type (issue 7). A workload runs under heaplens-exact, once
// more under heaplens-exact (run-to-run variation of the program itself) and under heaplens-sampled with
// sampleBytes=K; the profiles' records are summed per type name over all threads (exact: the `root` trees; sampled:
// the `sampled` trees) and the top types by exact bytes are compared.
//
// The model (derivation in docs/benchmark.md). The agent counts a thread's bytes down from an exponential interval of
// mean K; by memorylessness each allocation of size s ends an interval with probability q(s) = 1 − e^(−s/K),
// independently of the others, and such a hit records the bytes since the previous hit's allocation ended: its own
// size plus the "carry" of allocations that were not hit. So the bytes allocated fall into blocks, each ending with a
// hit, and a type's estimate is the sum of the blocks that end with one of its allocations. From the exact profile's
// sizes per type this gives the expected estimate (bias: a large allocation is almost always hit and takes the carry
// before it from the small ones) and its variance given the total (the blocks add up to the bytes allocated). For
// allocations much smaller than K the bias vanishes and σ of bytes becomes sqrt(2K (1 − p) / B_T), p = B_T / B: the
// e2e test's sqrt(2K / B_T) with the share p taken out. Sizes are per record (site × calling context): bytes / count.
import { scanProfile } from './profile-scan.mjs';
import { heaplens } from './configs.mjs';
import { runOnce } from './runone.mjs';

export const DEFAULT_SAMPLE_BYTES = 16 * 1024;
export const DEFAULT_WORKLOADS = ['luindex', 'h2'];
export const TOP_TYPES = 20;

/** Sums a profile's records per type name: { meta, root, sampled }, each a Map name → { count, elements, bytes, invSize, sizes }. */
export function typeTotals(file) {
  const { top, perType } = scanProfile(file, undefined, { byType: true });
  if (top.format !== 'heaplens-profile') throw new Error(`${file}: format is ${JSON.stringify(top.format)}, not heaplens-profile`);
  const names = new Map((top.types || []).map((t) => [t.id, t.name]));
  const byName = (m) => {
    const out = new Map();
    for (const [id, e] of m) {
      const name = names.get(id);
      if (name == null) throw new Error(`${file}: type id ${id} is not in the types table`);
      // ids are per run, and two ids can share a name (two class loaders): join on the name
      const o = out.get(name) ?? { count: 0, elements: 0, bytes: 0, invSize: 0, sizes: new Map() };
      o.count += e.count; o.elements += e.elements; o.bytes += e.bytes; o.invSize += e.invSize;
      for (const [sz, c] of e.sizes) o.sizes.set(sz, (o.sizes.get(sz) ?? 0) + c);
      out.set(name, o);
    }
    return out;
  };
  return { meta: top.meta ?? {}, root: byName(perType.root), sampled: byName(perType.sampled) };
}

const rel = (est, exact) => (exact > 0 ? (est - exact) / exact : null);
const sum = (m, k) => [...m.values()].reduce((a, e) => a + e[k], 0);

/**
 * The sampler's expectations per type (see the model above). exact: Map type name → { count, bytes, sizes: Map size →
 * count }; K: the mean interval. Returns Map name → { bytesBias, countBias, bytesSigma, countSigma } (relative).
 */
export function samplerModel(exact, K) {
  const q = (sz) => -Math.expm1(-sz / K);
  // the whole mix: hits per allocation, and the carry (bytes of allocations not hit before a hit)
  let B = 0, N = 0, Q = 0, QS = 0, missN = 0, missS = 0, missS2 = 0;
  for (const e of exact.values()) {
    for (const [sz, c] of e.sizes) {
      const h = q(sz);
      B += c * sz; N += c; Q += c * h; QS += c * h * sz;
      missN += c * (1 - h); missS += c * (1 - h) * sz; missS2 += c * (1 - h) * sz * sz;
    }
  }
  const out = new Map();
  if (!(Q > 0)) return out;
  const qBar = Q / N;                       // a random allocation is a hit with this probability
  const C = (B - QS) / Q;                   // mean carry: E[G] · mean size of a miss, G ~ geometric misses before a hit
  const G1 = (1 - qBar) / qBar, G2 = (2 * (1 - qBar) ** 2) / qBar ** 2; // E[G], E[G(G − 1)]
  const C2 = missN > 0 ? G1 * (missS2 / missN) + G2 * (missS / missN) ** 2 : 0; // E[carry²]
  // a block = carry + the hit allocation of size s: E[L] and E[L²] over all blocks
  let L2 = 0;
  for (const e of exact.values()) for (const [sz, c] of e.sizes) L2 += c * q(sz) * (sz * sz + 2 * sz * C + C2);
  const EL = B / Q, EL2 = L2 / Q, varL = EL2 - EL * EL;
  for (const [type, e] of exact) {
    // per block: X = L·[ends in T] (bytes), Y = L/s·[ends in T] (count)
    let X = 0, X2 = 0, Y = 0, Y2 = 0, YL = 0;
    for (const [sz, c] of e.sizes) {
      const w = (c * q(sz)) / Q;
      X += w * (sz + C); X2 += w * (sz * sz + 2 * sz * C + C2); // E[X·L] = E[L²·[T]] = X2
      // the count is rounded stochastically: variance f (1 − f) for the fraction f of L / s, small next to (L / s)²
      // unless the allocation is larger than the carry, where f ≈ carry / s
      const r = C / sz, round = r < 0.5 ? Math.min(1 / 6, r * (1 - r)) : 1 / 6;
      Y += w * (1 + C / sz); Y2 += w * (1 + (2 * C) / sz + C2 / (sz * sz) + round); YL += w * (sz + 2 * C + C2 / sz);
    }
    // variance of the sum over Q blocks given the blocks' total (regression on L)
    const cond = (v2, v, vl) => Q * Math.max(0, v2 - v * v - (varL > 0 ? (vl - v * EL) ** 2 / varL : 0));
    out.set(type, {
      bytesBias: e.bytes > 0 ? (Q * X) / e.bytes - 1 : null,
      countBias: e.count > 0 ? (Q * Y) / e.count - 1 : null,
      bytesSigma: e.bytes > 0 ? Math.sqrt(cond(X2, X, X2)) / e.bytes : null,
      countSigma: e.count > 0 ? Math.sqrt(cond(Y2, Y, YL)) / e.count : null,
    });
  }
  return out;
}

/**
 * The per-type comparison. exact, sampled, repeat: Map type name → { count, bytes, sizes } (sampled and repeat need
 * only count and bytes; repeat: a second exact run, or null); K: the sampled run's mean sample interval in bytes.
 * Returns the top `top` types by exact bytes with the error, the model's bias and σ, and the 3σ verdicts.
 */
export function compareTypes({ exact, sampled, repeat = null, sampleBytes: K, top = TOP_TYPES }) {
  if (!(K > 0)) throw new Error(`sampleBytes must be positive, got ${K}`);
  const none = { count: 0, bytes: 0 };
  const B = sum(exact, 'bytes');
  const model = samplerModel(exact, K);
  const within = (err, bias, sigma) => (err != null && bias != null && sigma != null ? Math.abs(err - bias) <= 3 * sigma : null);
  const rows = [...exact.entries()].filter(([, e]) => e.bytes > 0)
    .sort((a, b) => b[1].bytes - a[1].bytes || (a[0] < b[0] ? -1 : 1)).slice(0, top)
    .map(([type, e]) => {
      const s = sampled.get(type) ?? none;
      const m = model.get(type) ?? {};
      const r = repeat ? (repeat.get(type) ?? none) : null;
      const countError = rel(s.count, e.count), bytesError = rel(s.bytes, e.bytes);
      return {
        type,
        share: e.bytes / B,
        exactCount: e.count,
        sampledCount: s.count,
        countError,
        countBias: m.countBias ?? null,
        countSigma: m.countSigma ?? null,
        countWithin3Sigma: within(countError, m.countBias, m.countSigma),
        countWithin3SigmaOfZero: within(countError, 0, m.countSigma),
        exactBytes: e.bytes,
        sampledBytes: s.bytes,
        bytesError,
        bytesBias: m.bytesBias ?? null,
        bytesSigma: m.bytesSigma ?? null,
        bytesWithin3Sigma: within(bytesError, m.bytesBias, m.bytesSigma),
        // the e2e test's simple bound, for allocations much smaller than K and a small share
        simpleSigma: Math.sqrt((2 * K) / e.bytes),
        repeatCount: r ? r.count : null,
        runToRun: r ? rel(r.count, e.count) : null,
      };
    });
  const sampledBytes = sum(sampled, 'bytes');
  const total = {
    exactCount: sum(exact, 'count'), sampledCount: sum(sampled, 'count'),
    // the weights add up to the bytes allocated: what differs is the end of each thread (its last interval, < K on
    // average, is not recorded) and the program's own run-to-run variation
    exactBytes: B, sampledBytes, bytesError: rel(sampledBytes, B),
    repeatCount: repeat ? sum(repeat, 'count') : null, repeatBytes: repeat ? sum(repeat, 'bytes') : null,
  };
  total.runToRun = repeat ? rel(total.repeatCount, total.exactCount) : null;
  const n = (k) => rows.filter((r) => r[k]).length;
  return {
    sampleBytes: K,
    rows,
    total,
    countWithin3Sigma: n('countWithin3Sigma'),
    countWithin3SigmaOfZero: n('countWithin3SigmaOfZero'),
    bytesWithin3Sigma: n('bytesWithin3Sigma'),
    // the largest run-to-run difference among the rows: a count error of that order is the program, not sampling
    maxRunToRun: repeat ? Math.max(0, ...rows.map((r) => Math.abs(r.runToRun ?? 0))) : null,
  };
}

/** Runs one workload exact, exact again (if `repeat`) and sampled, and compares the profiles. */
export function measureSampledError(ctx, wl, { sampleBytes, repeat = true, timeoutMs, reference }) {
  const exactCfg = heaplens('exact');
  const sampledCfg = heaplens('sampled', `sampleBytes=${sampleBytes}`);
  const plan = [['exact', exactCfg], ...(repeat ? [['exactRepeat', exactCfg]] : []), ['sampled', sampledCfg]];
  const runs = {};
  const errors = {};
  for (const [key, cfg] of plan) {
    const r = runOnce(ctx, wl, cfg, { round: 0, timeoutMs, tag: `sampled-error-${key}` });
    runs[key] = { config: cfg.name, wall: r.wall, cpu: r.cpu, otherCpu: r.otherCpu, command: r.command, dir: r.dir,
      check: r.check?.summary ?? null, digest: r.check?.digest ?? null, profileBytes: r.profileBytes ?? null,
      profile: r.error || r.profileError ? null : `${r.dir}/profile${cfg.ext}` };
    if (r.error || r.profileError) errors[key] = r.error || r.profileError;
  }
  const digests = Object.values(runs).map((r) => r.digest);
  return analyse({
    workload: wl.name, sampleBytes, runs, errors,
    // every run's output check equals plain's (when the bench ran plain on this workload) and each other's
    outputsEqual: digests.some((d) => !d) ? null : digests.every((d) => d === (reference?.digest ?? digests[0])),
  });
}

/** Reads the runs' profiles and adds the comparison to `out` (also used by sampled-error-rescan.mjs). */
export function analyse(out) {
  const { runs, errors } = out;
  const totals = {};
  for (const [key, r] of Object.entries(runs)) {
    if (!r.profile) continue;
    try {
      totals[key] = typeTotals(r.profile);
    } catch (e) {
      errors[key] = `profile: ${e.message}`;
    }
  }
  if (totals.exact && totals.sampled) {
    const K = totals.sampled.meta.sampleBytes ?? out.sampleBytes;
    if (totals.sampled.meta.mode !== 'sampled') errors.sampled = `the sampled run's profile says mode ${totals.sampled.meta.mode}`;
    if (totals.sampled.sampled.size === 0) errors.sampled = 'the sampled run recorded no samples';
    Object.assign(out, compareTypes({
      exact: totals.exact.root, sampled: totals.sampled.sampled, repeat: totals.exactRepeat?.root ?? null, sampleBytes: K,
    }));
  }
  return out;
}
