// The sampled mode's estimates against exact counts, per type (issue 7). A workload runs under heaplens-exact, once
// more under heaplens-exact (run-to-run variation of the program itself) and under heaplens-sampled with
// sampleBytes=K; the profiles' records are summed per type name over all threads (exact: the `root` trees; sampled:
// the `sampled` trees) and the top types by exact bytes are compared.
//
// The model (derivation in docs/benchmark.md). The agent puts sample points on a thread's allocated bytes as a Poisson
// process of mean spacing K (exponential intervals); an allocation of size s holds N ~ Poisson(s / K) points, and if
// N ≥ 1 it is sampled once standing for N·K bytes and N·K / s objects (stochastically rounded). So every type's
// estimate is unbiased, its bytes have variance K·B_T (σ = sqrt(K / B_T) relative) and its count variance
// Σ K / s over its allocations, plus the rounding's. (Until agent 2026-11-22 a sample weighed the bytes since the
// previous one, JEP 331's way; a large allocation then took the weight of the small ones before it — luindex's
// small types came out 16–59 % low — which is what this measurement found.) Sizes are per record (site × calling
// context): bytes / count.
import { scanProfile } from './profile-scan.mjs';
import { heaplens, JFR_SAMPLER_JVM_ARGS, withJvmArgs } from './configs.mjs';
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
  // sampler=jfr: the agent states each type's standard deviations (agent.jfrTypes); joined on the name as above
  let stated = null;
  if (top.agent?.jfrTypes?.length) {
    stated = new Map();
    for (const [id, , , countSd, , bytesSd] of top.agent.jfrTypes) {
      const name = names.get(id);
      if (name == null) continue;
      const o = stated.get(name) ?? { countVar: 0, bytesVar: 0 };
      o.countVar += countSd * countSd; o.bytesVar += bytesSd * bytesSd;
      stated.set(name, o);
    }
  }
  return { meta: top.meta ?? {}, root: byName(perType.root), sampled: byName(perType.sampled), stated };
}

const rel = (est, exact) => (exact > 0 ? (est - exact) / exact : null);
const sum = (m, k) => [...m.values()].reduce((a, e) => a + e[k], 0);

/**
 * The sampler's expectations per type (see the model above). exact: Map type name → { count, bytes, sizes: Map size →
 * count }; K: the mean spacing of sample points. Returns Map name → { bytesBias, countBias, bytesSigma, countSigma }
 * (relative; the biases are 0: the estimator is unbiased).
 */
export function samplerModel(exact, K) {
  const out = new Map();
  for (const [type, e] of exact) {
    let countVar = 0;
    for (const [sz, c] of e.sizes) countVar += c * (K / sz + roundingVariance(sz / K, K / sz));
    out.set(type, {
      bytesBias: e.bytes > 0 ? 0 : null,
      countBias: e.count > 0 ? 0 : null,
      bytesSigma: e.bytes > 0 ? Math.sqrt(K * e.bytes) / e.bytes : null,
      countSigma: e.count > 0 ? Math.sqrt(countVar) / e.count : null,
    });
  }
  return out;
}

/** σ per type from the sampled profile's stated standard deviations (absolute), relative to the exact values. */
function statedModel(exact, stated) {
  const out = new Map();
  for (const [type, e] of exact) {
    const s = stated.get(type);
    out.set(type, {
      bytesBias: e.bytes > 0 ? 0 : null, countBias: e.count > 0 ? 0 : null,
      bytesSigma: s && e.bytes > 0 ? Math.sqrt(s.bytesVar) / e.bytes : null,
      countSigma: s && e.count > 0 ? Math.sqrt(s.countVar) / e.count : null,
    });
  }
  return out;
}

/** E[f (1 − f)] of the stochastic rounding of N·r, f its fractional part, N ~ Poisson(mean) (N = 0: no sample). */
function roundingVariance(mean, r) {
  if (Math.abs(r - Math.round(r)) < 1e-9) return 0;        // whole numbers round to themselves
  if (mean > 50) return 1 / 6;                             // many points: f spreads evenly over [0, 1)
  let p = Math.exp(-mean), v = 0;
  for (let n = 1; n <= mean + 12 * Math.sqrt(mean) + 12; n++) {
    p *= mean / n;
    const f = n * r - Math.floor(n * r);
    v += p * f * (1 - f);
  }
  return v;
}

/**
 * The per-type comparison. exact, sampled, repeat: Map type name → { count, bytes, sizes } (sampled and repeat need
 * only count and bytes; repeat: a second exact run, or null); K: the sampled run's mean sample interval in bytes.
 * Returns the top `top` types by exact bytes with the error, the model's bias and σ, and the 3σ verdicts.
 */
export function compareTypes({ exact, sampled, repeat = null, sampleBytes: K, stated = null, top = TOP_TYPES }) {
  if (!(K > 0)) throw new Error(`sampleBytes must be positive, got ${K}`);
  const none = { count: 0, bytes: 0 };
  const B = sum(exact, 'bytes');
  // σ: the standard deviations the profile states for its estimates (sampler=jfr), relative to the exact values;
  // else the probe sampler's model
  const model = stated ? statedModel(exact, stated) : samplerModel(exact, K);
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
    sigmaFrom: stated ? 'profile' : 'model',
    // the goal: within ±10 % of exact, counts and bytes
    countWithin10: rows.filter((r) => r.countError != null && Math.abs(r.countError) <= 0.1).length,
    bytesWithin10: rows.filter((r) => r.bytesError != null && Math.abs(r.bytesError) <= 0.1).length,
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
export function measureSampledError(ctx, wl, { sampleBytes, sampler = 'probes', repeat = true, timeoutMs, reference }) {
  const exactCfg = heaplens('exact');
  // sampler=jfr: HotSpot's allocation samples, whose weights are not this model's (docs/modes.md, "sampler=jfr")
  // sampler=jvmti: HotSpot's heap sampler at the same mean interval; its σ per type is the one the profile states
  const probesCfg = heaplens('sampled', `sampleBytes=${sampleBytes},sampler=${sampler === 'jvmti' ? 'jvmti' : 'probes'}`);
  const sampledCfg = sampler === 'jfr' ? withJvmArgs(heaplens('sampled', 'sampler=jfr'), JFR_SAMPLER_JVM_ARGS) : probesCfg;
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
    workload: wl.name, sampleBytes, sampler, runs, errors,
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
    out.sampler = totals.sampled.meta.sampler ?? out.sampler;         // what fed the sampled run (jvmti, probes, jfr)
    if (totals.sampled.meta.mode !== 'sampled') errors.sampled = `the sampled run's profile says mode ${totals.sampled.meta.mode}`;
    if (totals.sampled.sampled.size === 0) errors.sampled = 'the sampled run recorded no samples';
    Object.assign(out, compareTypes({
      exact: totals.exact.root, sampled: totals.sampled.sampled, repeat: totals.exactRepeat?.root ?? null, sampleBytes: K,
      stated: totals.sampled.stated,
    }));
  }
  return out;
}
