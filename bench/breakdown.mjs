#!/usr/bin/env node
// Where the exact mode's CPU goes: runs one bench workload plain and under the agent, each with JFR execution
// samples (`settings=profile`, 10–20 ms) and -XX:+CITime next to it, and prints a breakdown table (docs/benchmark.md,
// "Exact mode: where the time goes"). A diagnosis tool, not a measurement of overhead: JFR itself adds a few percent.
//
//   node bench/breakdown.mjs --workload h2 [--agent path/to/heaplens-agent.jar] [--jdk 17|25] [--out file.md]
//     [--mode exact|sites|sampled|paused] [--agent-opts sampler=jfr,…] [--jvm -XX:TLABSize=16k,…] [--no-jfr]
// --jvm adds JVM options to the profiled run only; --no-jfr leaves out the JFR execution samples (needed for
// sampler=jfr, whose own recording would be mixed with the diagnosis's): CPU per thread group and CITime only.
// --agents A.jar,B.jar [--rounds N]: no plain run and no JFR; the profiled run alternated between the jars N times
// (default 2), each line the run's CPU, its JIT compiler threads' CPU and CITime, its agent threads' CPU, the number of writes (meta.sequence) and their
// CPU per write (docs/benchmark.md, "Round 12").
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { byName } from './workloads/index.mjs';
import { makeContext } from './lib/context.mjs';
import { parseArgs } from './lib/args.mjs';
import { WORK } from './lib/paths.mjs';
import { javaCommand } from './lib/runone.mjs';

const argv = process.argv.slice(2);
if (argv.includes('--help')) {
  console.log(`usage: node bench/breakdown.mjs --workload NAME [--agent JAR] [--jdk 17|25] [--out file.md] [--mode exact|sites|sampled|paused]
  [--agent-opts sampler=jfr,…] [--jvm -XX:TLABSize=16k,…] [--no-jfr] [--agents A.jar,B.jar [--rounds N]]
  NAME: a bench workload (luindex, fop, h2, xalan, javac, smoke) or one outside the bench (maven, checkstyle)`);
  process.exit(0);
}
const flag = (name, dflt) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : dflt; };
const workload = byName(flag('--workload', 'h2'));
const ctx = makeContext(parseArgs(['--jdk', flag('--jdk', '17')]));
const agent = resolve(flag('--agent', ctx.agentJar));
const out = flag('--out', null);
const mode = flag('--mode', 'exact');
const agentOpts = flag('--agent-opts', '');
const extraJvm = flag('--jvm', '').split(',').filter(Boolean);
const compared = flag('--agents', '').split(',').filter(Boolean).map((a) => resolve(a));
const withJfr = !argv.includes('--no-jfr') && !compared.length;

const wctx = { dir: join(WORK, workload.name), java: ctx.java, jdk: ctx.jdk, jdkHome: ctx.jdkHome, state: {} };
mkdirSync(wctx.dir, { recursive: true });
workload.prepare(wctx);

/** CPU seconds per thread of a live process, read from /proc (utime + stime per task, by thread name). */
function threadCpu(pid, into) {
  let tasks;
  try { tasks = readdirSync(`/proc/${pid}/task`); } catch { return; }
  for (const t of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      into.set(t, { name, cpu: (+f[11] + +f[12]) / TICKS });
    } catch { /* the thread ended */ }
  }
}
const TICKS = 100;   // USER_HZ on Linux

/** Thread names grouped into what they do (HotSpot's names; the agent's threads are named heaplens-*). */
function threadGroup(name) {
  if (/^C[12] Compiler|^C[12] CompilerThre/.test(name)) return 'JIT compiler threads';
  if (/^(GC Thread|G1 |VM Periodic|GC )/.test(name) || /Conc#|Refine#|Service/.test(name)) return 'GC threads';
  if (/^heaplens-jfr$/.test(name)) return 'agent: heaplens-jfr (the JFR stream: parsing, estimator)';
  if (/^heaplens|^HeapLens/i.test(name)) return 'agent threads (collector, writer, channel)';
  if (/^JFR |^JFR/.test(name)) return 'JFR';
  if (name === 'VM Thread') return 'VM thread (safepoints, class redefinition)';
  return 'program threads (incl. probes, class loading and transformation)';
}

/**
 * Runs the workload once under /usr/bin/time with JFR + CITime, sampling every thread's CPU from /proc every 100 ms
 * (the last sample of each thread counts; a thread that lived < 100 ms is missed). Returns CPU seconds, the CPU per
 * thread group, the JFR file and CITime's total.
 */
async function run(label, extra) {
  const dir = join(WORK, 'breakdown', workload.name, label);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const jfr = join(dir, 'run.jfr');
  const cmd = workload.command(wctx, dir);
  // ShowHiddenFrames: the probes' runtime methods are @Hidden (stack traces look as without the agent); JFR needs
  // to see them here to tell probe time from program time.
  const argv = javaCommand(ctx, [...extra(dir), '-XX:+UnlockDiagnosticVMOptions', '-XX:+ShowHiddenFrames',
    ...(withJfr ? [`-XX:StartFlightRecording=settings=profile,filename=${jfr}`] : []), '-XX:+CITime'], cmd);
  const child = spawn('/usr/bin/time', ['-f', 'TIME %e %U %S %M', ...argv], { cwd: cmd.cwd ?? dir });
  let stdout = '', stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  const threads = new Map();
  const poll = setInterval(() => {
    let kids = '';
    try { kids = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim(); } catch { /* not yet */ }
    for (const pid of kids.split(/\s+/).filter(Boolean)) threadCpu(pid, threads);
  }, 100);
  const status = await new Promise((res) => child.on('close', res));
  clearInterval(poll);
  const t = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
  if (!t) throw new Error(`${label}: no timing (exit ${status}): ${stderr.slice(-500)}`);
  const ci = /Total compilation time\s*:\s*([\d.]+) s/.exec(stdout + stderr);
  const groups = new Map();
  for (const { name, cpu } of threads.values()) groups.set(threadGroup(name), (groups.get(threadGroup(name)) ?? 0) + cpu);
  return { label, wall: +t[1], cpu: +t[2] + +t[3], rssMB: +t[4] / 1024, jfr, compileS: ci ? +ci[1] : null, groups };
}

/** Execution samples grouped: the probes (top frame in io.heaplens.runtime, by method), transformation, agent threads, program. */
function samples(file) {
  const r = spawnSync(join(ctx.jdkHome, 'bin/jfr'), ['print', '--events', 'jdk.ExecutionSample', '--stack-depth', '200', file],
    { encoding: 'utf8', maxBuffer: 1 << 30 });
  const groups = new Map();
  let total = 0;
  for (const ev of r.stdout.split('jdk.ExecutionSample {').slice(1)) {
    const thread = /sampledThread = "([^"]*)"/.exec(ev)?.[1] ?? '';
    const frames = [...ev.matchAll(/^\s{4}([\w$.<>]+)\(/gm)].map((m) => m[1]);
    if (!frames.length) continue;
    total++;
    let g;
    if (/^heaplens|HeapLens/i.test(thread)) g = 'agent threads (collector, writer, channel)';
    else if (frames.some((f) => f.startsWith('io.heaplens.agent.instrument.') || f.startsWith('io.heaplens.shaded.asm.'))) g = 'class transformation (agent, ASM)';
    else if (frames[0].startsWith('io.heaplens.runtime.')) g = `probe: ${frames[0].replace('io.heaplens.runtime.', '')}`;
    else if (frames[0].startsWith('io.heaplens.')) g = `agent, other: ${frames[0].replace('io.heaplens.', '')}`;
    else g = 'program (and JDK) code';
    groups.set(g, (groups.get(g) ?? 0) + 1);
  }
  return { total, groups };
}

/** Summed durations of GC pauses (jdk.GCPhasePause) in seconds. */
function gcPauses(file) {
  const r = spawnSync(join(ctx.jdkHome, 'bin/jfr'), ['print', '--events', 'jdk.GCPhasePause', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  let s = 0;
  for (const m of r.stdout.matchAll(/duration = ([\d.]+) (ms|s|us)/g)) s += +m[1] / (m[2] === 's' ? 1 : m[2] === 'ms' ? 1e3 : 1e6);
  return s;
}

const opts = [`out=%DIR%/profile.heaplens`, mode === 'exact' ? null : `mode=${mode}`, agentOpts || null].filter(Boolean).join(',');
if (compared.length) {
  await compareAgents();
  process.exit(0);
}
const plain = await run('plain', () => []);
const exact = await run(mode, (dir) => [...extraJvm, `-javaagent:${agent}=${opts.replace('%DIR%', dir)}`]);
const lines = [];
const p = (s) => { lines.push(s); console.log(s); };
p(`### ${workload.name} (JDK ${ctx.jdk}, agent ${agent.replace(resolve('.') + '/', '')})`);
p('');
p(`| | plain | ${mode}${agentOpts ? ' ' + agentOpts : ''}${extraJvm.length ? ' ' + extraJvm.join(' ') : ''} |`);
p(`| --- | ---: | ---: |`);
p(`| CPU s (user+sys) | ${plain.cpu.toFixed(2)} | ${exact.cpu.toFixed(2)} (${(exact.cpu / plain.cpu).toFixed(2)}×) |`);
p(`| wall s | ${plain.wall.toFixed(2)} | ${exact.wall.toFixed(2)} |`);
p(`| peak RSS MB | ${plain.rssMB.toFixed(0)} | ${exact.rssMB.toFixed(0)} |`);
p(`| JIT compilation (CITime total, s of compiler-thread time) | ${plain.compileS ?? '–'} | ${exact.compileS ?? '–'} |`);
const ps = withJfr ? samples(plain.jfr) : null, es = withJfr ? samples(exact.jfr) : null;
if (withJfr) p(`| GC pauses (jdk.GCPhasePause, s) | ${gcPauses(plain.jfr).toFixed(2)} | ${gcPauses(exact.jfr).toFixed(2)} |`);
if (withJfr) p(`| Java execution samples | ${ps.total} | ${es.total} |`);
p('');
p('CPU seconds per thread group (from /proc, sampled every 100 ms; the rest of user+sys is threads that lived < 100 ms and the last 100 ms):');
p('');
p(`| thread group | plain | ${mode} | added |`);
p(`| --- | ---: | ---: | ---: |`);
for (const g of [...new Set([...plain.groups.keys(), ...exact.groups.keys()])].sort()) {
  const a = plain.groups.get(g) ?? 0, b = exact.groups.get(g) ?? 0;
  p(`| ${g} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b - a).toFixed(2)} |`);
}
p('');
if (withJfr) {
  p(`Execution samples of the ${mode} run by where the top frame is (share of ${es.total}):`);
  p('');
  p(`| where | samples | share |`);
  p(`| --- | ---: | ---: |`);
  for (const [g, n] of [...es.groups].sort((a, b) => b[1] - a[1])) p(`| ${g} | ${n} | ${(100 * n / es.total).toFixed(1)} % |`);
  p('');
}
if (out) writeFileSync(out, lines.join('\n') + '\n');

/** --agents: the agents' own CPU per write, the jars alternated (gzip-aware read of the last profile's counters). */
async function compareAgents() {
  const rounds = +flag('--rounds', '2');
  const { gunzipSync } = await import('node:zlib');
  const lines = [`### ${workload.name}, ${mode} (JDK ${ctx.jdk}): the agent's threads per write`, '',
    '| run | jar | CPU s | JIT threads s | CITime s | agent threads s | writes | agent s per write | last periodic write ms | nodes | load (1 min) |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |'];
  console.log(lines.join('\n'));
  for (let r = 1; r <= rounds; r++) {
    for (const [i, jar] of compared.entries()) {
      const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
      const res = await run(`agents-${i}`, (dir) => [...extraJvm, `-javaagent:${jar}=${opts.replace('%DIR%', dir)}`]);
      let bytes = readFileSync(join(WORK, 'breakdown', workload.name, `agents-${i}`, 'profile.heaplens'));
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
      const prof = JSON.parse(bytes.toString('utf8'));
      const agentS = res.groups.get('agent threads (collector, writer, channel)') ?? 0;
      const writes = prof.meta.sequence;
      const jitS = res.groups.get('JIT compiler threads') ?? 0;
      const line = `| ${r} | ${jar.replace(resolve('.') + '/', '')} | ${res.cpu.toFixed(2)} | ${jitS.toFixed(2)} | ${res.compileS ?? '–'} | ${agentS.toFixed(2)} | ${writes} | ${(agentS / writes).toFixed(3)} | ${prof.agent.writeMillis} | ${prof.agent.nodes} | ${load} |`;
      lines.push(line);
      console.log(line);
    }
  }
  if (out) writeFileSync(out, lines.join('\n') + '\n');
}
