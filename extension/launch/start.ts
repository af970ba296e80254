// Starting a profiled JVM (launch) or loading the agent into a running one (attach), up to a connected
// live channel. No `vscode` import.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { randomBytes } from 'crypto';
import { readPortFile, waitForPortFile } from '../channel/portfile';
import { LiveSession } from '../channel/session';
import { agentArgument } from '../cli/run-command';
import { findJcmd, loadAgent, writeTokenFile } from './attach';
import { HeapLensConfig, LaunchError, patterns } from './config';
import { startFailure } from './java-errors';
import { FileProblem, makeDirs } from '../../core/profile/safe-file';
import { ChildJvm, Jvm, PidJvm } from './jvm-process';
import { compileSingleFile } from './single-file';
import { agentJarOf, internalOf, LaunchPlan, planLaunch, profilePath, resolveJava, samplerOption } from './plan';

export interface StartResult { plan: LaunchPlan; live?: LiveSession; warning?: string }

/** What start.ts needs from the adapter. */
export interface StartHost {
  output(text: string, category?: 'console' | 'stdout' | 'stderr' | 'important'): void;
  adopt(jvm: Jvm, plan: LaunchPlan): void;
  runInTerminalRequest(args: { kind: 'integrated' | 'external'; title: string; cwd: string; args: string[]; env: Record<string, string | null> }, timeout: number,
    cb: (r: { success: boolean; message?: string; body?: { processId?: number; shellProcessId?: number } }) => void): void;
}

/** How long a failed handshake waits for the JVM's end before calling the channel broken (its final write comes first). */
const EXIT_GRACE_MS = 5000;

/** Creates the profile's folder, or says plainly why the profile cannot be saved there (before the program starts). */
function saveableTo(profile: string): void {
  try {
    makeDirs(path.dirname(profile));
  } catch (e) {
    if (e instanceof FileProblem) throw new LaunchError(`The profile cannot be saved: ${e.message}. Check "profile".`);
    throw e;
  }
}

interface StartOptions { env?: NodeJS.ProcessEnv; portTimeoutMs?: number }

/** Waits for the port file, giving up with the JVM's own words when it dies first; then connects. */
async function connect(jvm: Jvm | undefined, plan: LaunchPlan, client: string, timeoutMs: number): Promise<StartResult> {
  let info;
  try {
    info = await waitForPortFile(plan.portFile, {
      timeoutMs,
      giveUp: () => (jvm && !jvm.alive ? startFailure(jvm.stderrHead, jvm.exit!.code, jvm.exit!.signal, { classPath: plan.classPath }).message : undefined),
    });
  } catch (e) {
    if (jvm && !jvm.alive && jvm.exit!.code !== 0) throw new LaunchError((e as Error).message);
    if (jvm && !jvm.alive) return { plan, warning: `The program ended before the HeapLens agent opened its channel: there were no live updates (no port file ${plan.portFile}).` };
    // The program runs, but the agent could not open its channel: profile on, live view off.
    return { plan, warning: `${(e as Error).message}. The program runs and the profile file is still written, but there are no live updates.` };
  }
  try {
    const live = await LiveSession.connect({ port: info.port, token: plan.token, client });
    return { plan, live };
  } catch (e) {
    // The agent wrote its port file, so the program started. A program that ends during the handshake (System.exit
    // at once) resets the connection a moment before its process is seen to end: wait for that end, and treat it
    // as the program's normal end (the adapter reports its exit code and its profile), never as a broken channel.
    if (jvm && (await jvm.waitForExit(EXIT_GRACE_MS))) return { plan };
    return { plan, warning: `The agent's channel could not be opened: ${(e as Error).message}. The profile file is still written.` };
  }
}

function changedEnv(env: Record<string, string>, base: NodeJS.ProcessEnv): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(env)) if (base[k] !== v) out[k] = v;
  for (const k of Object.keys(base)) if (!(k in env)) out[k] = null;
  return out;
}

export async function startLaunch(host: StartHost, cfg: HeapLensConfig, opts: StartOptions): Promise<StartResult> {
  const base = opts.env ?? process.env;
  let plan = planLaunch(cfg, base);
  saveableTo(plan.profile);
  // a single .java file: compiled first, so that the profile holds the program, not javac (single-file.ts)
  if (plan.target.endsWith('.java')) {
    const tmp = plan.tmpDir;
    plan = await compileSingleFile(plan, plan.target, (line) => host.output(line)).catch((e: Error) => {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw e;
    });
  }
  host.output(`HeapLens: profiling ${plan.target} (${plan.java})\nHeapLens: the profile is written to ${plan.profile}\n`);
  const timeout = opts.portTimeoutMs ?? 30000;
  const client = cfg.__heaplens?.client ?? 'heaplens';
  if (cfg.console === 'integratedTerminal' || cfg.console === 'externalTerminal') {
    const r = await new Promise<{ success: boolean; message?: string }>((resolve) => host.runInTerminalRequest({
      kind: cfg.console === 'externalTerminal' ? 'external' : 'integrated', title: `HeapLens: ${plan.target}`,
      cwd: plan.cwd, args: [plan.java, ...plan.args], env: changedEnv(plan.env, base),
    }, 15000, resolve));
    if (!r.success) throw new LaunchError(`Could not start the program in a terminal: ${r.message ?? 'no reason given'}`);
    const result = await connect(undefined, plan, client, timeout);
    const pid = result.live?.pid ?? readPortFile(plan.portFile)?.pid;
    if (pid && pid > 0) host.adopt(new PidJvm(pid), plan);
    return result;
  }
  const jvm = new ChildJvm(plan.java, plan.args, plan.cwd, plan.env);
  host.adopt(jvm, plan);
  return connect(jvm, plan, client, timeout);
}

export async function startAttach(host: StartHost, cfg: HeapLensConfig, opts: StartOptions): Promise<StartResult> {
  const internal = internalOf(cfg);
  const env = opts.env ?? process.env;
  const pid = Number(cfg.processId);
  if (!Number.isInteger(pid) || pid <= 0) throw new LaunchError('"processId" is missing: pick the JVM to attach to.');
  if (!PidJvm.isAlive(pid)) throw new LaunchError(`There is no process ${pid} (it may have ended).`);
  const java = cfg.javaHome || cfg.javaExec ? resolveJava(cfg, env) : undefined;
  const jcmd = findJcmd(java, env);
  const jar = agentJarOf(env, internal.distDir);
  if (cfg.mode === 'lifetime') {
    throw new LaunchError('The lifetime mode cannot attach to a running JVM: its classes are already loaded, and the mode adds a field to each class as it loads. Launch the program with "mode": "lifetime" instead.');
  }
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-'));
  const token = randomBytes(32).toString('hex');
  const tokenFile = writeTokenFile(tmpDir, token);
  const portFile = path.join(tmpDir, 'port.json');
  const profile = profilePath(cfg, internal, `pid${pid}`, internal.workspaceFolder ?? os.homedir(), new Date());
  saveableTo(profile);
  const options = agentArgument(jar, {
    out: profile, include: patterns(cfg.include), exclude: patterns(cfg.exclude), mode: cfg.mode,
    accounts: patterns(cfg.accounts),
    extra: [`portFile=${portFile}`, `tokenFile=${tokenFile}`, ...samplerOption(cfg), ...(cfg.threads === true ? ['threads=true'] : [])],
  }).slice(`-javaagent:${jar}=`.length);
  const plan: LaunchPlan = { java: jcmd, args: [], cwd: tmpDir, env: {}, profile, portFile, tmpDir, token, target: `process ${pid}`, agentJar: jar };
  host.output(`HeapLens: loading the agent into process ${pid} (${jcmd})\nHeapLens: the profile is written to ${profile}\n`);
  await loadAgent(jcmd, pid, jar, options);
  const jvm = new PidJvm(pid);
  host.adopt(jvm, plan);
  const result = await connect(jvm, plan, internal.client, opts.portTimeoutMs ?? 30000);
  if (!result.live) throw new LaunchError(`The agent was loaded into process ${pid} but its channel did not open: ${result.warning ?? ''}`);
  return result;
}
