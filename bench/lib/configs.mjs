// The configurations a workload runs under. Each is { name, jvmArgs(ctx) }, where ctx has
// { agentJar, profile (file to write, without extension), jfc: { alloc } }; `profile` says what kind of file it writes.
// A new agent mode is one more line: heaplens('sites'), heaplens('sampled', 'rate=1024'), …
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tlabJfc } from '../prepare/jfc.mjs';
import { privateAgentJar } from './context.mjs';
import { sha256 } from './digest.mjs';

export const plain = { name: 'plain', jvmArgs: () => [] };

export function heaplens(mode, extra = '', name = `heaplens-${mode}`) {
  const opts = (p) => [`out=${p}`, mode === 'exact' ? null : `mode=${mode}`, extra || null].filter(Boolean).join(',');
  return {
    name, profile: 'heaplens', ext: '.heaplens', needsAgent: true,
    jvmArgs: (c) => [`-javaagent:${c.agentJar}=${opts(c.profile + '.heaplens')}`],
  };
}

/** A configuration with JVM options before the agent's. */
export function withJvmArgs(cfg, args) {
  return { ...cfg, jvmArgs: (c) => [...args, ...cfg.jvmArgs(c)] };
}

/**
 * The same configuration handing the agent to the JVM as `-agentlib:instrument=JAR=OPTIONS`, the form `-javaagent`
 * becomes inside the JVM, without the root module the JVM then adds (docs/benchmark.md, "Start-up, Round 5").
 */
export function asAgentlib(cfg, name) {
  const flag = (a) => a.startsWith('-javaagent:') ? `-agentlib:instrument=${a.slice('-javaagent:'.length)}` : a;
  return { ...cfg, name, jvmArgs: (c) => cfg.jvmArgs(c).map(flag) };
}

const copies = new Map();

/**
 * Another build's jar as users run theirs: the bench's private copy named heaplens-agent.jar (a jar of another name
 * starts another way, bench/lib/context.mjs privateAgentJar: in one such A/B the renamed jar retransformed ~760
 * classes at every start where the other redefined ~400 from its start-up cache, docs/benchmark.md "Round 19"), with the native sampler library of the jar's own folder next to it.
 */
export function asInstalledJar(file) {
  let copy = copies.get(file);
  if (copy) return copy;
  const bytes = readFileSync(file);
  copy = privateAgentJar(sha256(bytes).slice(0, 12));
  mkdirSync(dirname(copy), { recursive: true });
  if (!existsSync(copy)) writeFileSync(copy, bytes);
  if (dirname(file) !== dirname(copy)) {
    for (const f of readdirSync(dirname(file)).filter((n) => /^libheaplens-sampler-.*\.so$/.test(n))) {
      copyFileSync(join(dirname(file), f), join(dirname(copy), f));
    }
  }
  copies.set(file, copy);
  return copy;
}

/**
 * The same configuration with another agent jar: `--configs plain,heaplens-exact,heaplens-exact@/path/old.jar`
 * compares two builds of the agent interleaved in one bench run (the machine's load then hits both alike);
 * `heaplens-exact-baseline` takes the jar from `$HEAPLENS_BASELINE_AGENT`.
 */
export function withAgentJar(cfg, name, jar) {
  return {
    ...cfg, name,
    jvmArgs: (c) => {
      const file = typeof jar === 'function' ? jar() : jar;
      if (!file || !existsSync(file)) throw new Error(`${name}: agent jar ${file || '(none: set HEAPLENS_BASELINE_AGENT)'} not found`);
      return cfg.jvmArgs({ ...c, agentJar: asInstalledJar(file) });
    },
  };
}

export function jfr(name, settings) {
  return {
    name, profile: 'jfr', ext: '.jfr',
    jvmArgs: (c) => [`-XX:StartFlightRecording=settings=${settings(c)},filename=${c.profile}.jfr`],
  };
}

// Memory accounts (docs/accounts.md): one account per main package of each workload (patterns that match nothing
// in a workload cost nothing there). `-live` adds sampled liveness (every 32nd object on average).
export const BENCH_ACCOUNTS = 'accounts=org.h2.command.*:org.h2.mvstore.*:org.h2.*:org.apache.lucene.index.*:'
  + 'org.apache.lucene.store.*:org.apache.lucene.*:org.apache.fop.*:org.apache.xalan.*:org.apache.xml.*:com.sun.tools.javac.*';

export const CONFIGS = [
  plain,
  heaplens('exact'),
  jfr('jfr-profile', () => 'profile'),
  jfr('jfr-alloc', (c) => c.jfc.alloc),
  heaplens('sites'),
  heaplens('sampled'),
  heaplens('paused'),
  heaplens('accounts', `${BENCH_ACCOUNTS},liveness=off`),
  heaplens('accounts', `${BENCH_ACCOUNTS},liveness=sampled`, 'heaplens-accounts-live'),
  heaplens('lifetime', 'sampleEvery=1000'),
  // the lifetime mode with its precision bound to 1 % of the bytes allocated instead of the 10 % time budget
  heaplens('lifetime', 'sampleEvery=1000,lifetimePrecision=1%', 'heaplens-lifetime-precise'),
];

/**
 * Not in the default run: the threads profiler (CPU sampling every 5 ms, monitors, deadlocks) on top of the paused
 * agent, so that `--configs plain,heaplens-paused,heaplens-threads` isolates its cost (docs/threads.md).
 */
/** What `heaplens run` passes to the JVM with sampler=jfr (extension/cli/run-command.ts, jfrSamplerJvmArgs). */
export const JFR_SAMPLER_JVM_ARGS = ['-XX:FlightRecorderOptions=stackdepth=1024', '-XX:TLABSize=16k', '-XX:-ResizeTLAB', '-XX:TLABRefillWasteFraction=1'];

/** The sampler=jfr JVM arguments with another fixed TLAB size. */
export const tlabArgs = (size) => JFR_SAMPLER_JVM_ARGS.map((a) => a === '-XX:TLABSize=16k' ? `-XX:TLABSize=${size}` : a);

/** JFR recording the two TLAB events to a file (settings from the JDK's profile.jfc, everything else off). */
function jfrTlab(name, stack) {
  return { ...jfr(name, (c) => tlabJfc(c.jdkHome, c.jdk, stack)) };
}

export const EXTRA_CONFIGS = [
  // the sampled mode with each sampler named (whatever the agent's default): HotSpot's heap sampler, the probes
  heaplens('sampled', 'sampler=jvmti', 'heaplens-sampled-jvmti'),
  heaplens('sampled', 'sampler=probes', 'heaplens-sampled-probes'),
  // the exact mode without the heap sampler's library and event (sampler=probes): what the event costs the other modes
  heaplens('exact', 'sampler=probes', 'heaplens-exact-probes'),
  // HotSpot's heap sampler at a 4× longer mean interval (fewer samples, wider intervals): cost against accuracy
  heaplens('sampled', 'sampler=jvmti,sampleBytes=65536', 'heaplens-sampled-jvmti64k'),
  // the sampled mode fed by JFR's allocation samples instead of bytecode probes (docs/modes.md)
  // (with the JVM arguments `heaplens run` adds for sampler=jfr: see jfrSamplerJvmArgs)
  withJvmArgs(heaplens('sampled', 'sampler=jfr', 'heaplens-sampled-jfr'), JFR_SAMPLER_JVM_ARGS),
  // sampler=jfr with a larger fixed TLAB (fewer events, wider intervals)
  withJvmArgs(heaplens('sampled', 'sampler=jfr', 'heaplens-sampled-jfr64k'), tlabArgs('64k')),
  // sampler=jfr with the profile file written every 5 s instead of every second (the periodic write's share)
  withJvmArgs(heaplens('sampled', 'sampler=jfr,interval=5000', 'heaplens-sampled-jfr-write5s'), JFR_SAMPLER_JVM_ARGS),
  // the cost breakdown of sampler=jfr (docs/benchmark.md): the fixed TLABs alone; the JVM recording the TLAB events
  // to a file, with and without stack traces (nothing parses them in the program's JVM)
  withJvmArgs({ ...plain, name: 'plain-tlab16k' }, tlabArgs('16k').slice(1)),
  withJvmArgs(jfrTlab('jfr-tlab16k', true), tlabArgs('16k')),
  withJvmArgs(jfrTlab('jfr-tlab16k-nostack', false), tlabArgs('16k').slice(1)),
  withJvmArgs(jfrTlab('jfr-tlab16k-depth64', true), tlabArgs('16k').slice(1)),
  heaplens('paused', 'threads=true', 'heaplens-threads'),
  heaplens('exact', 'threads=true', 'heaplens-exact-threads'),
  // the agent as -agentlib:instrument=… (keeps class-data sharing's archived module graph; not what the launchers run)
  asAgentlib(heaplens('exact'), 'heaplens-exact-agentlib'),
  withAgentJar(heaplens('exact'), 'heaplens-exact-baseline', () => process.env.HEAPLENS_BASELINE_AGENT),
  withAgentJar(heaplens('sites'), 'heaplens-sites-baseline', () => process.env.HEAPLENS_BASELINE_AGENT),
];

export const configByName = (n) => CONFIGS.find((c) => c.name === n) ?? EXTRA_CONFIGS.find((c) => c.name === n);
