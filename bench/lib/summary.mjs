// Turns the raw runs into per-workload, per-configuration medians, per-round ratios to plain, and geomeans.
import { geomean, max, median } from './stats.mjs';

export function summarize(runs, workloads, configs, reference) {
  const out = {};
  for (const wl of workloads) {
    const w = (out[wl] = { configs: {} });
    const plainByRound = Object.fromEntries(runs.filter((r) => r.workload === wl && r.config === 'plain' && !r.error)
      .map((r) => [r.round, r]));
    for (const cfg of configs) {
      const rs = runs.filter((r) => r.workload === wl && r.config === cfg);
      const ok = rs.filter((r) => !r.error);
      const ratio = (k) => ok.map((r) => (plainByRound[r.round] && r[k] != null && plainByRound[r.round][k]
        ? r[k] / plainByRound[r.round][k] : null));
      const ref = reference[wl];
      const digests = ok.map((r) => r.check?.digest);
      const output = rs.some((r) => r.error) ? 'error'
        : !ref ? 'no reference' : digests.every((d) => d === ref.digest) ? 'same' : 'DIFFERS';
      const last = ok.at(-1);
      w.configs[cfg] = {
        runs: rs.length,
        failed: rs.length - ok.length,
        wall: median(ok.map((r) => r.wall)),
        cpu: median(ok.map((r) => r.cpu)),
        rssMB: median(ok.map((r) => r.rssMB)),
        otherCpu: median(ok.map((r) => r.otherCpu)),
        otherCpuMax: max(ok.map((r) => r.otherCpu)),
        profileBytes: median(ok.map((r) => r.profileBytes)),
        jfrAllocationSamples: median(ok.map((r) => r.jfrAllocationSamples)),
        wallRatios: ratio('wall'),
        cpuRatios: ratio('cpu'),
        rssRatios: ratio('rssMB'),
        wallRatio: median(ratio('wall')),
        cpuRatio: median(ratio('cpu')),
        rssRatio: median(ratio('rssMB')),
        output,
        checkSummary: last?.check?.summary ?? null,
        heaplens: last?.heaplens ? { ...last.heaplens } : null,
        profileError: rs.find((r) => r.profileError)?.profileError ?? null,
        errors: rs.filter((r) => r.error).map((r) => ({ round: r.round, error: r.error, command: r.command, hsErr: r.hsErr })),
      };
    }
  }
  const geo = {};
  for (const cfg of configs) {
    const per = workloads.map((wl) => out[wl].configs[cfg]).filter((c) => c && c.output === 'same');
    geo[cfg] = {
      workloads: per.length,
      wall: geomean(per.map((c) => c.wallRatio)),
      wallWorst: max(per.map((c) => c.wallRatio)),
      cpu: geomean(per.map((c) => c.cpuRatio)),
      rss: geomean(per.map((c) => c.rssRatio)),
      rssWorst: max(per.map((c) => c.rssRatio)),
    };
  }
  return { workloads: out, geomeans: geo };
}
