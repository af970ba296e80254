// The Markdown table written next to the JSON.
const f = (x, d = 2) => (x == null || !Number.isFinite(x) ? '–' : x.toFixed(d));
const x = (r) => (r == null ? '–' : `${r.toFixed(2)}×`);
const mb = (b) => (b == null ? '–' : b >= 1e6 ? `${(b / 1e6).toFixed(1)} MB` : `${(b / 1e3).toFixed(1)} kB`);
const list = (rs) => rs.filter((r) => r != null).map((r) => r.toFixed(2)).join(' / ');

export const TARGETS = { wallGeomean: 2.0, wallWorst: 4.0, rss: 1.3, startupAdded: 0.5, accuracyPct: 3 };

const pct = (v, d = 1) => (v == null ? '–' : `${v >= 0 ? '+' : ''}${(v * 100).toFixed(d)} %`);
const sig = (v) => (v == null ? '–' : `${(v * 100).toFixed(1)} %`);
const yes = (b) => (b == null ? '–' : b ? 'yes' : '**no**');

// The sampled mode's estimates against the exact counts (sampled-error.mjs).
function sampledErrorSection(L, list) {
  L.push('', '## Sampled mode: estimate error per type', '',
    'Each workload ran under heaplens-exact, heaplens-exact again, and heaplens-sampled (separate JVMs); records are ' +
    'summed per type over all threads; the top types by exact bytes are shown. `error` = (sampled − exact) / exact. ' +
    '`bias` and `σ` are what the agent\'s sampler should give on this allocation mix (model in docs/benchmark.md): ' +
    'sample points fall on the allocated bytes as a Poisson process of spacing K and an allocation holding n of them ' +
    'stands for n·K bytes, so the bias is 0 and σ of bytes is sqrt(K / bytes); a count\'s σ follows from the sizes ' +
    '(arrays of varied sizes vary more). `≤ 3σ` = |error − bias| ≤ 3σ; ' +
    '`3σ of 0` = |error| ≤ 3σ. `run-to-run` = the second exact run\'s count against the first: a difference of that ' +
    'order is the program varying, not sampling.');
  for (const s of list) {
    const runs = Object.entries(s.runs).map(([k, r]) => `${k} ${f(r.wall, 1)} s`).join(', ');
    L.push('', `### ${s.workload} (${s.sigmaFrom === 'profile' ? `sampler=${s.sampler ?? 'jfr'}${s.sampler === 'jvmti' ? `, K = ${s.sampleBytes} B` : ''}, σ as the profile states it` : `K = sampleBytes = ${s.sampleBytes} B`}; ${runs}; outputs ${s.outputsEqual == null ? '–' : s.outputsEqual ? 'same' : '**DIFFER**'})`, '');
    for (const [k, e] of Object.entries(s.errors)) L.push(`- **${k}**: ${e.split('\n').slice(0, 4).join(' ⏎ ').slice(0, 600)}`);
    if (!s.rows) continue;
    if (s.sigmaFrom === 'profile') L.push(`σ here: the standard deviation the sampled profile states for each estimate (sampler=${s.sampler ?? 'jfr'}, \`agent.jfrTypes\`), relative to exact; a sampled count shown without σ has none stated (the type was never seen).`, '');
    if (s.countWithin10 != null) L.push(`Within ±10 % of exact (the goal): ${s.countWithin10} of ${s.rows.length} counts, ${s.bytesWithin10} of ${s.rows.length} byte estimates.`, '');
    const t = s.total;
    L.push(`Within 3σ of the expected bias: ${s.countWithin3Sigma} of ${s.rows.length} counts, ${s.bytesWithin3Sigma} of ${s.rows.length} byte estimates; ` +
      `within 3σ of 0: ${s.countWithin3SigmaOfZero} counts. ` +
      `All types: ${t.exactCount} objects / ${mb(t.exactBytes)} exact, ${t.sampledCount} / ${mb(t.sampledBytes)} sampled: bytes ${pct(t.bytesError, 2)}; ` +
      `exact run-to-run ${pct(t.runToRun, 3)} objects, largest per listed type ${s.maxRunToRun == null ? '–' : sig(s.maxRunToRun)}.`, '');
    L.push('| # | type | exact count | sampled count | error | bias | σ | ≤ 3σ | 3σ of 0 | exact bytes | share | bytes error | bias | σ | ≤ 3σ | run-to-run |',
      '| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |');
    s.rows.forEach((r, i) => L.push(`| ${i + 1} | \`${r.type}\` | ${r.exactCount} | ${r.sampledCount} | ${pct(r.countError)} | ${pct(r.countBias)} | ` +
      `${sig(r.countSigma)} | ${yes(r.countWithin3Sigma)} | ${yes(r.countWithin3SigmaOfZero)} | ${mb(r.exactBytes)} | ${sig(r.share)} | ` +
      `${pct(r.bytesError)} | ${pct(r.bytesBias)} | ${sig(r.bytesSigma)} | ${yes(r.bytesWithin3Sigma)} | ${pct(r.runToRun, 3)} |`));
  }
}

export function markdown(res) {
  const L = [];
  const m = res.meta;
  L.push(`# HeapLens benchmark — JDK ${m.jdk}`, '');
  L.push(`${m.date} · ${m.javaVersion} (${m.javaBuild}) · ${m.machine.cores} cores, ${m.machine.memGB} GiB · ` +
    `${m.rounds} round(s), configurations interleaved per round · agent ${m.agentJar ? `\`${m.agentJarRel}\` sha256 ${m.agentSha}` : 'not found'} · ` +
    `repo ${m.gitCommit ?? '?'}`, '');
  if (m.notes.length) { for (const n of m.notes) L.push(`> ${n}`); L.push(''); }
  L.push('## Overhead per workload', '');
  L.push('Medians over the rounds; `×` is the median of the per-round ratios to plain (the per-round ratios follow).',
    '`other CPU` is CPU time that other processes used during the run (median, max): a noisy machine shows here.', '');
  L.push('| workload | config | wall s | wall × (rounds) | CPU s | CPU × | peak RSS MB | RSS × | profile | other CPU s | output |');
  L.push('| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const [wl, w] of Object.entries(res.summary.workloads)) {
    for (const [cfg, c] of Object.entries(w.configs)) {
      const out = c.output === 'same' ? `same${c.checkSummary ? ` (${c.checkSummary})` : ''}` : `**${c.output}**`;
      L.push(`| ${wl} | ${cfg} | ${f(c.wall)} | ${cfg === 'plain' ? '1' : `${x(c.wallRatio)} (${list(c.wallRatios)})`} | ${f(c.cpu)} | ${cfg === 'plain' ? '1' : x(c.cpuRatio)} | ${f(c.rssMB, 0)} | ${cfg === 'plain' ? '1' : x(c.rssRatio)} | ${mb(c.profileBytes)}${c.jfrAllocationSamples != null ? ` (${c.jfrAllocationSamples} alloc samples)` : ''} | ${f(c.otherCpu)}, ${f(c.otherCpuMax)} | ${out} |`);
    }
  }
  L.push('', '## Geometric means over workloads (only workloads whose output matched plain)', '');
  L.push('| config | workloads | wall × geomean | wall × worst | CPU × geomean | RSS × geomean | RSS × worst |');
  L.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [cfg, g] of Object.entries(res.summary.geomeans)) {
    L.push(`| ${cfg} | ${g.workloads} | ${x(g.wall)} | ${x(g.wallWorst)} | ${x(g.cpu)} | ${x(g.rss)} | ${x(g.rssWorst)} |`);
  }
  if (res.targets) {
    L.push('', '## Targets (reported, never asserted)', '', '| target | goal | measured | met |', '| --- | --- | --- | --- |');
    for (const t of res.targets) L.push(`| ${t.name} | ${t.goal} | ${t.measured} | ${t.met == null ? '–' : t.met ? 'yes' : '**no**'} |`);
  }
  if (res.startup) {
    L.push('', `## Start-up (hello world, median of ${res.startup.reps})`, '', '| config | wall s | added s | CPU s | peak RSS MB | note |', '| --- | ---: | ---: | ---: | ---: | --- |');
    for (const [cfg, s] of Object.entries(res.startup.configs)) {
      L.push(`| ${cfg} | ${f(s.wall, 3)} | ${f(s.added, 3)} | ${f(s.cpu, 2)} | ${f(s.rssMB, 0)} | ${s.error ? s.error.split('\n')[0] : ''} |`);
    }
  }
  const tr = Object.entries(res.summary.workloads).flatMap(([wl, w]) => Object.entries(w.configs)
    .filter(([, c]) => c.heaplens).map(([cfg, c]) => ({ wl, cfg, h: c.heaplens })));
  if (tr.length) {
    L.push('', '## Instrumentation (last run of each heaplens configuration)', '',
      '| workload | config | classes transformed | failed | skipped | retransformed | threads | MCT nodes | objects | est. bytes | final write |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
    for (const { wl, cfg, h } of tr) {
      const t = h.transform;
      L.push(`| ${wl} | ${cfg} | ${t.classesTransformed ?? '–'} | ${t.classesFailed ?? '–'} | ${t.classesSkipped ?? '–'} | ${t.retransformed ?? '–'} | ${h.threads} | ${h.nodes} | ${h.objects} | ${mb(h.bytes)} | ${h.final} |`);
    }
    const fails = tr.flatMap(({ wl, h }) => h.transform.failures.map((e) => `${wl}: ${e.class} (${e.loader}): ${e.error}`));
    if (fails.length) { L.push('', 'First transform failures:', ''); for (const e of fails.slice(0, 10)) L.push(`- ${e}`); }
  }
  if (res.accuracy?.length) {
    L.push('', '## Accuracy of estimated bytes (-Xint)', '',
      'HotSpot = sum of ThreadMXBean#getThreadAllocatedBytes over the program\'s threads, run without the agent; ' +
      'profile = sum of `bytes` over all records of the heaplens profile of the same run under the agent. ' +
      'HotSpot with agent = the same counters in the profiled run (includes the agent\'s own allocations in application threads).', '',
      '| workload | HotSpot bytes | profile bytes | error | HotSpot with agent | output | wall plain / agent s | note |',
      '| --- | ---: | ---: | ---: | ---: | --- | --- | --- |');
    for (const a of res.accuracy) {
      const err = a.errorPct == null ? '–' : `${a.errorPct >= 0 ? '+' : ''}${a.errorPct.toFixed(2)} %`;
      const note = Object.entries(a.errors).map(([k, e]) => `${k}: ${e.split('\n')[0]}`).join('; ');
      L.push(`| ${a.workload} | ${a.hotspotBytes ?? '–'} | ${a.profileBytes ?? '–'} | ${err} | ${a.hotspotBytesWithAgent ?? '–'} | ${a.outputsEqual == null ? '–' : a.outputsEqual ? 'same' : '**DIFFERS**'} | ${f(a.wall.plain, 1)} / ${f(Object.values(a.wall)[1], 1)} | ${note} |`);
    }
  }
  if (res.sampledError?.length) sampledErrorSection(L, res.sampledError);
  const errs = Object.entries(res.summary.workloads).flatMap(([wl, w]) => Object.entries(w.configs)
    .flatMap(([cfg, c]) => [...c.errors.map((e) => ({ wl, cfg, ...e })), ...(c.profileError ? [{ wl, cfg, error: c.profileError }] : [])]));
  if (errs.length) {
    L.push('', '## Failures', '');
    for (const e of errs) {
      L.push(`- **${e.wl} / ${e.cfg}**${e.round ? ` round ${e.round}` : ''}: ${e.error.split('\n').slice(0, 6).join(' ⏎ ').slice(0, 800)}`);
      if (e.command) L.push(`  - command: \`${e.command.slice(0, 600)}\``);
      if (e.hsErr?.length) L.push(`  - hs_err: ${e.hsErr.join(', ')}`);
    }
  }
  L.push('');
  return L.join('\n');
}
