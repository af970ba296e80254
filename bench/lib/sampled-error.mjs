// The sampled mode's estimates against exact counts, per type (issue 7). A workload runs under heaplens-exact, once
// more under heaplens-exact (run-to-run variation of the program itself) and under heaplens-sampled with
// sampleBytes=K; the profiles' records are summed per type name over all threads (exact: the `root` trees; sampled:
// the `sampled` trees) and the top types by exact bytes are compared.
//
// The bound: a sample is taken every K bytes on average (exponential intervals) and weighted by the bytes since the
// previous one, so a type receiving B_T bytes gets about B_T / K samples of weight w with E[w²] = 2K², and its
// estimated bytes have a relative standard deviation of sqrt(2K / B_T). The weights of all samples add up to the
// bytes allocated (B), so a type that holds a share p = B_T / B of them varies less: sqrt(2K (1 − p) / B_T) (the
// variance of a sum of random weights given their total). A sample's count is its weight ÷ the sampled object's
// size, so the estimated count N_T of a type has the variance 2K (Σ 1/size − N_T² / B) over its objects; per
// record (one site in one calling context) the profile knows count c and bytes b, and Σ c² / b over the records
// stands in for Σ 1/size. For an object type (one size) the count's σ equals the bytes' σ; for arrays of varied sizes
// it is larger. Threads sample independently, each with its own total: taking p over all threads is conservative.
//
// The bias: a sample's weight runs to the end of the allocation that used the interval up (its overshoot, about half
// the allocation), and the next interval starts after it, so the samples number B / (K + ō), ō the mean overshoot
// (Σ size² / 2B over all allocations). A type's estimated bytes are then off by (ō_T − ō) / (K + ō), ō_T = Σ size² /
// 2B_T over the type's allocations, and its count by (mean size / 2 − ō) / (K + ō): large arrays come out high, small
// objects low. First order in size / K; sizes come from the records (bytes² / count per record stands in for Σ size²).
import { scanProfile } from './profile-scan.mjs';
import { heaplens } from './configs.mjs';
import { runOnce } from './runone.mjs';

export const DEFAULT_SAMPLE_BYTES = 16 * 1024;
export const DEFAULT_WORKLOADS = ['luindex', 'h2'];
export const TOP_TYPES = 20;

/** Sums a profile's records per type name: { meta, root, sampled } with Map name → { count, elements, bytes, invSize }. */
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
      const o = out.get(name) ?? { count: 0, elements: 0, bytes: 0, invSize: 0, sqSize: 0 };
      o.count += e.count; o.elements += e.elements; o.bytes += e.bytes; o.invSize += e.invSize; o.sqSize += e.sqSize;
      out.set(name, o);
    }
    return out;
  };
  return { meta: top.meta ?? {}, root: byName(perType.root), sampled: byName(perType.sampled) };
}

const rel = (est, exact) => (exact > 0 ? (est - exact) / exact : null);
const sum = (m, k) => [...m.values()].reduce((a, e) => a + e[k], 0);

/**
 * The per-type comparison. exact, sampled, repeat: Map type name → { count, bytes, invSize } (repeat: a second exact
 * run, or null); K: the sampled run's mean sample interval in bytes. Returns the top `top` types by exact bytes.
 */
export function compareTypes({ exact, sampled, repeat = null, sampleBytes: K, top = TOP_TYPES }) {
  if (!(K > 0)) throw new Error(`sampleBytes must be positive, got ${K}`);
  const none = { count: 0, elements: 0, bytes: 0, invSize: 0, sqSize: 0 };
  const B = sum(exact, 'bytes');
  const overshoot = B > 0 ? sum(exact, 'sqSize') / (2 * B) : 0; // ō, the mean overshoot of a sample
  const rows = [...exact.entries()].filter(([, e]) => e.bytes > 0)
    .sort((a, b) => b[1].bytes - a[1].bytes || (a[0] < b[0] ? -1 : 1)).slice(0, top)
    .map(([type, e]) => {
      const s = sampled.get(type) ?? none;
      const countError = rel(s.count, e.count);
      const p = e.bytes / B;
      const countSigma = e.count > 0 ? Math.sqrt(2 * K * Math.max(0, e.invSize - (e.count * e.count) / B)) / e.count : null;
      const bytesError = rel(s.bytes, e.bytes);
      const bytesSigma = Math.sqrt((2 * K * (1 - p)) / e.bytes);
      const r = repeat ? (repeat.get(type) ?? none) : null;
      const countBias = e.count > 0 ? (e.bytes / e.count / 2 - overshoot) / (K + overshoot) : null;
      const bytesBias = (e.sqSize / (2 * e.bytes) - overshoot) / (K + overshoot);
      return {
        type,
        share: p,
        exactCount: e.count,
        sampledCount: s.count,
        countError,
        countSigma,
        countZ: countError != null && countSigma > 0 ? countError / countSigma : null,
        countWithin3Sigma: countError != null && countSigma != null ? Math.abs(countError) <= 3 * countSigma : null,
        countBias,
        countWithin3SigmaOfBias: countError != null && countSigma != null && countBias != null
          ? Math.abs(countError - countBias) <= 3 * countSigma : null,
        exactBytes: e.bytes,
        sampledBytes: s.bytes,
        bytesError,
        bytesSigma,
        bytesWithin3Sigma: bytesError != null ? Math.abs(bytesError) <= 3 * bytesSigma : null,
        bytesBias,
        repeatCount: r ? r.count : null,
        runToRun: r ? rel(r.count, e.count) : null,
      };
    });
  const exactBytes = B, sampledBytes = sum(sampled, 'bytes');
  const total = {
    exactCount: sum(exact, 'count'), sampledCount: sum(sampled, 'count'),
    exactBytes, sampledBytes, bytesError: rel(sampledBytes, exactBytes),
    // the weights add up to the bytes allocated: what differs is the end of each thread (its last interval, < K on
    // average, is not recorded) and the program's own run-to-run variation
    repeatCount: repeat ? sum(repeat, 'count') : null, repeatBytes: repeat ? sum(repeat, 'bytes') : null,
  };
  total.runToRun = repeat ? rel(total.repeatCount, total.exactCount) : null;
  return {
    sampleBytes: K,
    rows,
    total,
    meanOvershoot: overshoot,
    countWithin3Sigma: rows.filter((r) => r.countWithin3Sigma).length,
    countWithin3SigmaOfBias: rows.filter((r) => r.countWithin3SigmaOfBias).length,
    bytesWithin3Sigma: rows.filter((r) => r.bytesWithin3Sigma).length,
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
