#!/usr/bin/env node
// `npm run bench`: HeapLens overhead benchmark. See docs/benchmark.md.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs, USAGE } from './lib/args.mjs';
import { CONFIGS, configByName, EXTRA_CONFIGS, heaplens, withAgentJar } from './lib/configs.mjs';
import { makeContext } from './lib/context.mjs';
import { RESULTS, ROOT, WORK, agentJarCandidates } from './lib/paths.mjs';
import { log } from './lib/sh.mjs';
import { runOnce, runSet } from './lib/runone.mjs';
import { measureStartup } from './lib/startup.mjs';
import { measureAccuracy } from './lib/accuracy.mjs';
import { DEFAULT_WORKLOADS as SAMPLED_ERROR_WORKLOADS, measureSampledError } from './lib/sampled-error.mjs';
import { summarize } from './lib/summary.mjs';
import { markdown } from './lib/report.mjs';
import { targets } from './lib/targets.mjs';
import { ALL, WORKLOADS, byName } from './workloads/index.mjs';
import { ensurePackages } from './prepare/apt.mjs';
import { allocJfc } from './prepare/jfc.mjs';
import { srcVersion } from './prepare/jdk-src.mjs';

function resolveConfig(name) {
  const c = configByName(name);
  if (c) return c;
  const m = /^heaplens-(\w+)$/.exec(name);
  if (m) return heaplens(m[1]);
  const other = /^heaplens-(\w+)@(.+\.jar)$/.exec(name);   // heaplens-exact@/path/agent.jar: another build, interleaved
  if (other) return withAgentJar(heaplens(other[1]), name, other[2]);
  const named = /^([\w-]+)@(.+\.jar)$/.exec(name);          // heaplens-sampled-jfr@/path/agent.jar: any named configuration
  if (named && configByName(named[1])?.needsAgent) return withAgentJar(configByName(named[1]), name, named[2]);
  throw new Error(`unknown configuration ${name}; known: ${[...CONFIGS, ...EXTRA_CONFIGS].map((x) => x.name).join(', ')}, heaplens-MODE`);
}

function prepare(ctx, wls) {
  const t0 = Date.now();
  ensurePackages(['time', ...new Set(wls.flatMap((w) => w.packages))]);
  ctx.wctx = {};
  for (const wl of wls) {
    const t = Date.now();
    const wctx = { dir: join(WORK, wl.name), java: ctx.java, jdk: ctx.jdk, jdkHome: ctx.jdkHome, state: {} };
    mkdirSync(wctx.dir, { recursive: true });
    wl.prepare(wctx);
    ctx.wctx[wl.name] = wctx;
    log(`prepared ${wl.name} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  return (Date.now() - t0) / 1000;
}

function fmtRun(r) {
  const p = r.profileBytes != null ? ` profile ${(r.profileBytes / 1e6).toFixed(1)} MB` : '';
  const err = r.error ? ` ERROR ${r.error.split('\n')[0].slice(0, 200)}` : '';
  return `${r.workload} ${r.config} r${r.round}: wall ${r.wall.toFixed(2)} s cpu ${r.cpu?.toFixed(2)} s rss ${r.rssMB?.toFixed(0)} MB other ${r.otherCpu?.toFixed(2)} s${p}${err}`;
}

/** On a fresh clone there is no agent jar yet: build it (npm ci included) as `npm run build` would. */
function buildWhenNeeded() {
  if (agentJarCandidates().some((f) => existsSync(f))) return;
  log('no agent jar yet: building (node scripts/build.mjs)');
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`the build failed (exit ${r.status}); the bench needs dist/heaplens-agent.jar`);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.help) { console.log(USAGE); return 0; }
  buildWhenNeeded();
  const started = Date.now();
  const ctx = makeContext(opts);
  const notes = [];
  const wls = (opts.workloads ?? WORKLOADS.map((w) => w.name)).map((n) => byName(n) ?? (() => {
    throw new Error(`unknown workload ${n}; known: ${ALL.map((w) => w.name).join(', ')}`);
  })());
  let cfgs = (opts.configs ?? CONFIGS.map((c) => c.name)).map(resolveConfig);
  if (!cfgs.some((c) => c.name === 'plain')) cfgs.unshift(resolveConfig('plain'));
  if (!ctx.agentJar && cfgs.some((c) => c.needsAgent)) {
    const msg = `agent jar not found (HEAPLENS_AGENT, dist/heaplens-agent.jar, agent/target/heaplens-agent.jar): heaplens configurations skipped`;
    if (opts.smoke) { log(`FAIL: ${msg}`); return 2; }
    notes.push(msg);
    log(msg);
    cfgs = cfgs.filter((c) => !c.needsAgent);
  }
  const heaplensCfg = cfgs.find((c) => c.name === 'heaplens-exact') ?? cfgs.find((c) => c.needsAgent);
  const accWls = opts.accuracy && heaplensCfg ? (opts.accuracyWorkloads ?? ['smoke', 'h2']).map(byName) : [];
  const known = (n) => byName(n) ?? (() => { throw new Error(`unknown workload ${n}; known: ${ALL.map((w) => w.name).join(', ')}`); })();
  const seWls = opts.sampledError && ctx.agentJar ? (opts.sampledErrorWorkloads ?? SAMPLED_ERROR_WORKLOADS).map(known) : [];
  if (opts.sampledError && !ctx.agentJar) notes.push('no agent jar: the sampled-error runs were skipped');

  log(`JDK ${ctx.jdk}: ${ctx.javaVersion}; agent ${ctx.agentSource ?? 'none'} (${ctx.agentSha ?? '-'}); workloads ${wls.map((w) => w.name).join(',')}; configs ${cfgs.map((c) => c.name).join(',')}; rounds ${opts.rounds}`);
  const prepareSeconds = prepare(ctx, [...new Set([...wls, ...accWls, ...seWls])]);
  if (cfgs.some((c) => c.name === 'jfr-alloc')) ctx.jfc.alloc = allocJfc(ctx.jdkHome, ctx.jdk);
  if (opts.prepareOnly) { log(`prepared in ${prepareSeconds.toFixed(1)} s`); return 0; }

  const timeoutMs = opts.timeout * 1000;
  ctx.runSet = runSet(ctx);
  log(`run directories: ${ctx.runSet}`);
  const runs = [];
  const reference = {};
  let startup = null;
  const accuracy = [];
  const sampledError = [];
  const done = [];
  const fullRun = !opts.smoke && !opts.quick && !opts.workloads && !opts.configs && opts.rounds >= 3;
  const outDir = opts.out ?? (fullRun ? RESULTS : join(WORK, 'results'));
  mkdirSync(outDir, { recursive: true });
  const base = join(outDir, `jdk${ctx.jdk}${opts.smoke ? '-smoke' : ''}${opts.tag ? '-' + opts.tag : ''}`);

  // Written after every step, so a stopped bench still leaves the workloads it finished.
  const write = (final) => {
    const runNotes = [...notes];
    const timed = runs.filter((r) => r.otherCpu != null);
    if (timed.length) {
      const busy = timed.reduce((a, r) => a + r.otherCpu, 0) / timed.reduce((a, r) => a + r.wall, 0);
      runNotes.push(`Other processes used on average ${busy.toFixed(2)} of the ${ctx.machine.cores} cores during the measured runs` +
        (busy > 0.25 ? ': the machine was busy, wall times are stretched and noisy (CPU times less so).' : '.'));
    }
    if (!final) runNotes.push(`INCOMPLETE: written after ${done.join(', ') || 'start'}; the bench was still running.`);
    const summary = summarize(runs, done.filter((n) => wls.some((w) => w.name === n)), cfgs.map((c) => c.name), reference);
    const meta = {
      date: new Date().toISOString(), jdk: ctx.jdk, javaVersion: ctx.javaVersion, javaBuild: ctx.javaBuild, java: ctx.java,
      agentJar: ctx.agentJar, agentJarRel: ctx.agentSource ? relative(ROOT, ctx.agentSource) : null, agentSha: ctx.agentSha,
      machine: ctx.machine, gitCommit: ctx.gitCommit, rounds: opts.rounds, smoke: opts.smoke, quick: opts.quick, complete: final,
      configs: cfgs.map((c) => ({ name: c.name, jvmArgs: c.jvmArgs({ ...ctx, profile: '<profile>' }) })),
      workloads: Object.fromEntries(wls.map((w) => [w.name, w.description])),
      jdkSources: srcVersion(), prepareSeconds, totalSeconds: (Date.now() - started) / 1000, notes: runNotes,
    };
    const res = { meta, summary, startup, accuracy, sampledError, runs, reference };
    res.targets = targets(res, heaplensCfg?.name);
    writeFileSync(`${base}.json`, JSON.stringify(res, null, 1) + '\n');
    writeFileSync(`${base}.md`, markdown(res));
    return res;
  };

  if (opts.startup) {
    log('start-up runs');
    startup = measureStartup(ctx, cfgs, opts.startupReps);
    for (const [k, s] of Object.entries(startup.configs)) log(`start-up ${k}: ${s.wall?.toFixed(3)} s (+${s.added?.toFixed(3)})${s.error ? ' ERROR ' + s.error : ''}`);
    done.push('start-up');
    write(false);
  }
  for (const wl of wls) {
    if (!opts.smoke) { // untimed warm-up (page cache) whose output is the reference
      const w = runOnce(ctx, wl, cfgs[0], { round: 0, timeoutMs, tag: 'warmup' });
      log(`warm-up ${fmtRun(w)}`);
      if (!w.error) reference[wl.name] = w.check;
    }
    for (let round = 1; round <= opts.rounds; round++) {
      for (const cfg of cfgs) {
        const r = runOnce(ctx, wl, cfg, { round, timeoutMs, keepProfile: round === opts.rounds });
        if (cfg.name === 'plain' && !reference[wl.name] && !r.error) reference[wl.name] = r.check;
        runs.push(r);
        log(fmtRun(r));
      }
    }
    done.push(wl.name);
    write(false);
  }
  for (const wl of accWls) {
    log(`accuracy ${wl.name} (-Xint)`);
    const a = measureAccuracy(ctx, wl, heaplensCfg, { timeoutMs });
    log(`accuracy ${wl.name}: HotSpot ${a.hotspotBytes} profile ${a.profileBytes} error ${a.errorPct?.toFixed(2)} % ${JSON.stringify(a.errors)}`);
    accuracy.push(a);
    done.push(`accuracy ${wl.name}`);
    write(false);
  }
  for (const wl of seWls) {
    log(`sampled error ${wl.name}: exact, exact again, sampled (sampleBytes=${opts.sampleBytes}, sampler=${opts.sampler})`);
    const s = measureSampledError(ctx, wl, { sampleBytes: opts.sampleBytes, sampler: opts.sampler, timeoutMs, reference: reference[wl.name] });
    const pct = (v) => (v == null ? '–' : `${(v * 100).toFixed(2)} %`);
    log(`sampled error ${wl.name}: ${s.rows ? `within 3σ of the expected bias ${s.countWithin3Sigma}/${s.rows.length} counts, ` +
      `${s.bytesWithin3Sigma}/${s.rows.length} bytes, of 0 ${s.countWithin3SigmaOfZero} counts; total bytes error ${pct(s.total.bytesError)}; ` +
      `exact run-to-run: total count ${pct(s.total.runToRun)}, largest per type ${pct(s.maxRunToRun)}` : 'no comparison'}` +
      `${Object.keys(s.errors).length ? ` ERRORS ${JSON.stringify(s.errors).slice(0, 500)}` : ''}`);
    sampledError.push(s);
    done.push(`sampled error ${wl.name}`);
    write(false);
  }
  const res = write(true);
  const { summary, meta } = res;
  log(`wrote ${base}.md and .json (${meta.totalSeconds.toFixed(0)} s); ${meta.notes.join(' ')}`);

  // Any configuration whose output differs from plain, or a run that failed, fails the bench.
  const bad = Object.entries(summary.workloads).flatMap(([wl, w]) => Object.entries(w.configs)
    .filter(([, c]) => c.output !== 'same').map(([cfg, c]) => `${wl}/${cfg}: ${c.output}`));
  for (const se of res.sampledError) {
    for (const [k, e] of Object.entries(se.errors)) bad.push(`sampled error ${se.workload}/${k}: ${e.split('\n')[0].slice(0, 300)}`);
    if (se.outputsEqual === false) bad.push(`sampled error ${se.workload}: outputs differ between the runs or from plain`);
  }
  if (opts.smoke) {
    for (const [wl, w] of Object.entries(summary.workloads)) {
      for (const [cfg, c] of Object.entries(w.configs)) {
        if (!cfgs.find((x) => x.name === cfg)?.needsAgent) continue;
        if (c.profileError) bad.push(`${wl}/${cfg}: ${c.profileError}`);
        else if (!c.heaplens || !(c.heaplens.threads > 0 && c.heaplens.nodes > 0 && c.heaplens.bytes > 0)) {
          bad.push(`${wl}/${cfg}: profile parsed but empty (${JSON.stringify(c.heaplens && { threads: c.heaplens.threads, nodes: c.heaplens.nodes, bytes: c.heaplens.bytes })})`);
        }
      }
    }
  }
  if (bad.length) {
    log(`FAIL: ${bad.join('; ')}`);
    return 1;
  }
  log(opts.smoke ? 'smoke OK: outputs equal, profile parsed and non-empty' : 'OK');
  return 0;
}

main().then((code) => process.exit(code), (e) => {
  log(`error: ${e.stack || e}`);
  process.exit(2);
});
