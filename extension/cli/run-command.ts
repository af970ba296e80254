// `heaplens run [options] -- <java arguments>`: launches java with the agent and waits for it.
import { plainText } from './plain-text';
import { classifyStderr } from '../launch/java-errors';
import { jvmOptionsOf, STACK_SCALE, stackJvmArgs } from '../launch/stack-size';
import { requireJdk } from './java-check';
import { prepareOutput } from '../../core/profile/safe-file';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OptionSpec, optionValue, parseArgs, UsageError } from './args';
import { CliContext } from './context';
import { defaultOutName, findAgentJar, findJava } from './locate';
import { CliSession, createSession, removeSession, UnsafeSessionsRoot } from './sessions';

export const RUN_USAGE = `heaplens run [--out FILE] [--include PKG,..] [--exclude PKG,..] [--java PATH]
             [--mode exact|sites|sampled|paused|accounts|lifetime] [--accounts PKG,PKG.*] [--liveness auto|off|sampled|exact]
             [--sample-every N] [--precision auto|P%] [--stack-scale N] [--heap-dump-at-exit FILE.hprof] [--threads] [--no-channel]
             [--agent-opt KEY=VALUE]... -- <java arguments>`;

export const RUN_SPEC: Record<string, OptionSpec> = {
  out: { value: true },
  include: { value: true, repeat: true },
  exclude: { value: true, repeat: true },
  java: { value: true },
  mode: { value: true },
  accounts: { value: true, repeat: true },
  liveness: { value: true, choices: ['auto', 'off', 'sampled', 'exact'] },
  'sample-every': { value: true },
  precision: { value: true },
  'stack-scale': { value: true },
  'agent-opt': { value: true, repeat: true },
  'heap-dump-at-exit': { value: true },
  'no-channel': {},
  threads: {},
};

export interface AgentSettings {
  out: string;
  include: string[];
  exclude: string[];
  mode?: string;
  /** memory account patterns (docs/accounts.md) */
  accounts?: string[];
  extra: string[];
}

/** Package lists are given with `,` (or `:`) on the command line; the agent separates list items with `:`. */
export function splitPatterns(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(/[,:]/)).map((s) => s.trim()).filter((s) => s !== '');
}

/** The `-javaagent:JAR=k=v,k=v` argument (docs/agent-options.md). */
export function agentArgument(jar: string, s: AgentSettings): string {
  const opts: string[] = [`out=${s.out}`];
  if (s.include.length) opts.push(`include=${s.include.join(':')}`);
  if (s.exclude.length) opts.push(`exclude=${s.exclude.join(':')}`);
  if (s.mode) opts.push(`mode=${s.mode}`);
  if (s.accounts?.length) opts.push(`accounts=${s.accounts.join(':')}`);
  opts.push(...s.extra);
  for (const o of opts) {
    const eq = o.indexOf('=');
    if (eq <= 0) throw new UsageError(`agent option "${o}" is not KEY=VALUE`);
    if (o.includes(',')) throw new UsageError(`agent option "${o}" may not contain "," (it separates agent options)`);
  }
  for (const p of [...s.include, ...s.exclude, ...(s.accounts ?? [])]) {
    if (p.includes('=')) throw new UsageError(`package pattern "${p}" may not contain "="`);
  }
  return `-javaagent:${jar}=${opts.join(',')}`;
}

/**
 * The JVM arguments the JFR sampler (agent option sampler=jfr) needs. JFR's stack depth is raised from 64 to the probe
 * sampler's 1024 frames, so deep stacks (xalan's recursive templates) keep their outer frames and the sampled tree its
 * roots. The TLAB flags make each TLAB event a sample of known probability (a fixed 16 KiB TLAB, always retired when an
 * allocation does not fit), which is what makes the agent's estimates unbiased (docs/modes.md, "sampler=jfr"); they
 * must match the agent's JfrSampling.TLAB_FLAGS. The user's own FlightRecorderOptions or TLAB flags win.
 */
export const JFR_TLAB_FLAGS = ['-XX:TLABSize=16k', '-XX:-ResizeTLAB', '-XX:TLABRefillWasteFraction=1'];

export function jfrSamplerJvmArgs(extra: readonly string[], javaArgs: readonly string[]): string[] {
  if (!extra.includes('sampler=jfr')) return [];
  const set = (flag: RegExp) => javaArgs.some((a) => flag.test(a));
  return [
    ...(set(/^-XX:FlightRecorderOptions/) ? [] : ['-XX:FlightRecorderOptions=stackdepth=1024']),
    ...(set(/^-XX:([+-]ResizeTLAB|TLABSize=|TLABRefillWasteFraction=|[+-]UseTLAB)/) ? [] : JFR_TLAB_FLAGS),
  ];
}

export interface RunPlan {
  java: string;
  args: string[];
  out: string;
  heapDump?: string;
  /** the live channel's port and token files (for `heaplens heapdump`), unless --no-channel */
  channel: boolean;
}

/** Parses the run options into the java executable and its full argument list. */
export function planRun(argv: readonly string[], ctx: CliContext, now = new Date(), session?: CliSession): RunPlan {
  const p = parseArgs(argv, RUN_SPEC, { stopAtPositional: true });
  if (p.rest.length === 0) throw new UsageError(`nothing to run: give the java arguments after --\nusage: ${RUN_USAGE}`);
  const out = path.resolve(ctx.cwd, optionValue(p, 'out') ?? defaultOutName(now));
  const extra = p.options.get('agent-opt') ?? [];
  for (const e of extra) if (/^out=/.test(e)) throw new UsageError('use --out, not --agent-opt out=…');
  const every = optionValue(p, 'sample-every');
  if (every !== undefined) {
    if (!/^[1-9][0-9]{0,9}$/.test(every)) throw new UsageError(`--sample-every must be a positive whole number, not "${every}"`);
    if (optionValue(p, 'mode') !== 'lifetime') throw new UsageError('--sample-every applies to --mode lifetime (the sampled mode samples by bytes: --agent-opt sampleBytes=N)');
    extra.push(`sampleEvery=${every}`);
  }
  // Lifetime mode: how precise "when did it become unreachable" must be (docs/lifetimes.md); the agent checks the value.
  const precision = optionValue(p, 'precision');
  if (precision) {
    if (optionValue(p, 'mode') !== 'lifetime') throw new UsageError('--precision applies to --mode lifetime');
    if (!/^(auto|\d+(\.\d+)?%)$/.test(precision)) throw new UsageError(`--precision must be auto or a share like 1%, not "${precision}"`);
    extra.push(`lifetimePrecision=${precision}`);
  }
  const dumpOpt = optionValue(p, 'heap-dump-at-exit');
  const heapDump = dumpOpt === undefined ? undefined : path.resolve(ctx.cwd, dumpOpt);
  if (heapDump !== undefined) {
    if (!heapDump.endsWith('.hprof')) throw new UsageError(`--heap-dump-at-exit must name a file ending with .hprof (got "${dumpOpt}")`);
    extra.push(`heapDumpAtExit=${heapDump}`);
  }
  if (p.options.has('threads')) extra.push('threads=true');
  if (session) extra.push(`portFile=${session.portFile}`, `tokenFile=${session.tokenFile}`);
  const settings: AgentSettings = {
    out,
    include: splitPatterns(p.options.get('include')),
    exclude: splitPatterns(p.options.get('exclude')),
    mode: optionValue(p, 'mode'),
    accounts: splitPatterns(p.options.get('accounts')),
    extra,
  };
  // Accounts without a mode: the accounts mode (flat counts, liveness); with --mode exact they come from the tree.
  if (settings.accounts!.length && !settings.mode) settings.mode = 'accounts';
  const liveness = optionValue(p, 'liveness');
  if (liveness) {
    if (settings.mode !== 'accounts') throw new UsageError('--liveness applies to the accounts mode (--accounts PKG,..)');
    extra.push(`liveness=${liveness}`);
  }
  const jar = findAgentJar(ctx.env, ctx.cliDir);
  const java = findJava(optionValue(p, 'java'), ctx.env);
  const scaleText = optionValue(p, 'stack-scale');
  if (scaleText !== undefined && !/^([1-9]|[1-5][0-9]|6[0-4])$/.test(scaleText)) throw new UsageError(`--stack-scale must be a whole number from 1 (off) to 64, not "${scaleText}"`);
  // More stack for the program's threads, after its own JVM options so that it wins over theirs (stack-size.ts).
  const jvmOptions = jvmOptionsOf(p.rest);
  const stack = stackJvmArgs(jvmOptions, scaleText === undefined ? STACK_SCALE : Number(scaleText));
  const args = [...jfrSamplerJvmArgs(extra, p.rest), agentArgument(jar, settings), ...jvmOptions, ...stack, ...p.rest.slice(jvmOptions.length)];
  return { java, args, out, heapDump, channel: !p.options.has('no-channel') };
}

function display(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

/** What java says when the program itself never ran (a class failing later, e.g. a newer class version, is not here). */
const NOT_STARTED = new Set(['mainClassNotFound', 'jarMissing', 'noMainManifest', 'vmOptions', 'agentJar', 'agentOptions']);

/** Runs java with the agent; resolves to the exit code to use (the child's, or 128+signal). */
export async function runCommand(argv: readonly string[], ctx: CliContext): Promise<number> {
  // The session directory lets `heaplens heapdump` find this run's channel (port and token files).
  let session: CliSession | undefined;
  try {
    session = planRun(argv, ctx).channel ? createSession(ctx.env, { args: argv.slice(argv.indexOf('--') + 1) }) : undefined;
  } catch (e) {
    if (!(e instanceof UnsafeSessionsRoot)) throw e;
    // the run goes on, profiled, without the live channel `heaplens heapdump` would use
    ctx.stderr(`heaplens: warning: ${plainText(e.message)}; this run cannot be reached by heaplens heapdump\n`);
  }
  let plan: RunPlan;
  try {
    plan = planRun(argv, ctx, new Date(), session);
  } catch (e) {
    if (session) removeSession(session);
    throw e;
  }
  // before the program runs: an output that cannot be written must not cost the user a whole run
  try {
    requireJdk(plan.java);
    prepareOutput(plan.out);
    if (plan.heapDump) prepareOutput(plan.heapDump);
  } catch (e) {
    if (session) removeSession(session);
    throw e;
  }
  const started = Date.now();
  // stderr passes through and its head is kept, to tell "the program did not start" from a program's own failure
  const child = spawn(plan.java, plan.args, { stdio: ['inherit', 'inherit', 'pipe'], cwd: ctx.cwd, env: ctx.env });
  let stderrHead = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (s: string) => {
    ctx.stderr(s);
    if (stderrHead.length < 64 * 1024) stderrHead += s;
  });
  const forward = (sig: NodeJS.Signals) => (): void => {
    child.kill(sig);
  };
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  const code = await new Promise<number>((resolve) => {
    child.on('error', (e) => {
      ctx.stderr(`heaplens: cannot start ${plan.java}: ${e.message}\n`);
      resolve(2);
    });
    child.on('exit', (c, signal) => {
      resolve(c ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1));
    });
  });
  process.removeListener('SIGINT', onInt);
  process.removeListener('SIGTERM', onTerm);
  if (session) removeSession(session);
  const shown = plainText(display(plan.out, ctx.cwd));
  let written = false;
  try {
    written = fs.statSync(plan.out).mtimeMs >= started - 1000;
  } catch {
    written = false;
  }
  const failed = code !== 0 ? classifyStderr(stderrHead) : undefined;
  if (failed && NOT_STARTED.has(failed.kind)) {
    // the agent's first write holds no data of the program: an empty profile must not pass for a result
    if (written) fs.rmSync(plan.out, { force: true });
    ctx.stderr(`heaplens: the program did not start: ${failed.message}${written ? ` (no profile kept)` : ''}\n`);
  } else if (written) ctx.stderr(`heaplens: profile written to ${shown}\n`);
  else if (fs.existsSync(plan.out)) ctx.stderr(`heaplens: warning: ${shown} was not updated by this run (the agent did not start or did not write; see messages above)\n`);
  else ctx.stderr(`heaplens: warning: no profile was written to ${shown} (the agent did not start or the JVM ended before its first write; see messages above)\n`);
  if (plan.heapDump) {
    const fresh = fs.existsSync(plan.heapDump) && fs.statSync(plan.heapDump).mtimeMs >= started - 1000;
    if (fresh) ctx.stderr(`heaplens: heap dump written to ${display(plan.heapDump, ctx.cwd)}\n`);
    else ctx.stderr(`heaplens: warning: no heap dump was written to ${display(plan.heapDump, ctx.cwd)} (see messages above)\n`);
  }
  return code;
}
