// From a resolved `heaplens` launch configuration to the exact java command: executable, arguments,
// working directory, environment (with the channel token), profile file and port file. No `vscode` import.
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { findAgentJar, onPath } from '../cli/locate';
import { agentArgument, AgentSettings, jfrSamplerJvmArgs } from '../cli/run-command';
import { STACK_SCALE, stackJvmArgs } from './stack-size';
import { HeapLensConfig, InternalConfig, LaunchError, parseEnvFile, patterns, splitArgs } from './config';

export interface LaunchPlan {
  java: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** the profile file the agent writes */
  profile: string;
  portFile: string;
  tmpDir: string;
  token: string;
  /** what runs, for messages: a main class, a jar or a source file */
  target: string;
  classPath?: string;
  agentJar: string;
  /** the mode the agent starts in (exact when not set) */
  mode?: string;
}

export const NO_JDK = 'No JDK found. HeapLens needs Java 17 or newer: set "javaHome" (or "javaExec") in the launch configuration or the "heaplens.javaHome" setting, set JAVA_HOME, or put java on PATH.';

function isFile(p: string): boolean {
  try { return fs.statSync(p).isFile(); } catch { return false; }
}
function isDir(p: string): boolean {
  try { return fs.statSync(p).isDirectory(); } catch { return false; }
}
function isExecutable(p: string): boolean {
  try { fs.accessSync(p, fs.constants.X_OK); return isFile(p); } catch { return false; }
}

export function internalOf(cfg: HeapLensConfig): InternalConfig {
  const i = cfg.__heaplens;
  if (!i) throw new LaunchError('This configuration was not prepared by the HeapLens extension (start it from Run and Debug).');
  if (!i.trusted) {
    throw new LaunchError('HeapLens does not run programs in a restricted workspace. Trust this workspace (Workspaces: Manage Workspace Trust) to profile it.');
  }
  return i;
}

/** The java executable: javaExec, else javaHome/bin/java, else JAVA_HOME, else PATH. */
export function resolveJava(cfg: HeapLensConfig, env: NodeJS.ProcessEnv): string {
  return locateJava(cfg, env).java;
}

/** resolveJava, also saying which field or variable chose it (for messages). */
export function locateJava(cfg: HeapLensConfig, env: NodeJS.ProcessEnv): { java: string; source: 'javaExec' | 'javaHome' | 'JAVA_HOME' | 'PATH' } {
  const exe = process.platform === 'win32' ? 'java.exe' : 'java';
  if (cfg.javaExec) {
    if (!isExecutable(cfg.javaExec)) throw new LaunchError(`"javaExec" ${cfg.javaExec} is not an executable file.`);
    return { java: cfg.javaExec, source: 'javaExec' };
  }
  if (cfg.javaHome) {
    const j = path.join(cfg.javaHome, 'bin', exe);
    if (!isExecutable(j)) throw new LaunchError(`"javaHome" ${cfg.javaHome} has no bin/${exe}: point it at a JDK 17 or newer.`);
    return { java: j, source: 'javaHome' };
  }
  if (env.JAVA_HOME && isExecutable(path.join(env.JAVA_HOME, 'bin', exe))) return { java: path.join(env.JAVA_HOME, 'bin', exe), source: 'JAVA_HOME' };
  const found = onPath('java', env);
  if (!found) throw new LaunchError(NO_JDK);
  return { java: found, source: 'PATH' };
}

/** The environment of the JVM: the extension host's, then envFile, then env (null removes a variable). */
export function resolveEnv(cfg: HeapLensConfig, base: NodeJS.ProcessEnv, dir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  if (cfg.envFile) {
    const file = path.resolve(dir, cfg.envFile);
    if (!isFile(file)) throw new LaunchError(`"envFile" ${file} does not exist.`);
    Object.assign(env, parseEnvFile(fs.readFileSync(file, 'utf8')));
  }
  for (const [k, v] of Object.entries(cfg.env ?? {})) {
    if (v === null || v === undefined) delete env[k];
    else env[k] = String(v);
  }
  return env;
}

/** Classpath/modulepath entries, resolved and checked; the Java debugger's `$Auto`-style tokens and `!` exclusions are dropped. */
function entries(list: string[] | undefined, field: string, dir: string): string[] {
  const out: string[] = [];
  (list ?? []).forEach((e, i) => {
    if (typeof e !== 'string' || e.startsWith('$') || e.startsWith('!') || e.trim() === '') return;
    const p = path.resolve(dir, e);
    if (!fs.existsSync(p)) throw new LaunchError(`Classpath entry ${p} does not exist ("${field}"[${i}]). Build the project first, or fix the path.`);
    out.push(p);
  });
  return out;
}

function stamp(now: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
}

/** `<folder>/<Name>-YYYYMMDD-HHMMSS.heaplens`, or the `profile` field (a file ending in .heaplens, or a folder). */
export function profilePath(cfg: HeapLensConfig, internal: InternalConfig, base: string, dir: string, now: Date): string {
  const name = `${base.replace(/[^\w.-]+/g, '_')}-${stamp(now)}.heaplens`;
  if (cfg.profile) {
    const p = path.resolve(dir, cfg.profile);
    return p.endsWith('.heaplens') ? p : path.join(p, name);
  }
  return path.join(internal.profileDir, name);
}

/** The agent jar the extension ships (launch and attach), or a LaunchError that says to reinstall. */
export function agentJarOf(env: NodeJS.ProcessEnv, distDir: string): string {
  try {
    return findAgentJar(env, distDir);
  } catch (e) {
    throw new LaunchError(`The HeapLens agent jar is missing (${(e as Error).message}). Reinstall the extension.`);
  }
}

export interface PlanOverrides { now?: Date; token?: string; tmpDir?: string }

export function planLaunch(cfg: HeapLensConfig, baseEnv: NodeJS.ProcessEnv, o: PlanOverrides = {}): LaunchPlan {
  const internal = internalOf(cfg);
  const root = internal.workspaceFolder ?? os.homedir();
  const cwd = path.resolve(root, cfg.cwd ?? '.');
  if (!isDir(cwd)) throw new LaunchError(`"cwd" ${cwd} is not an existing folder.`);
  const env = resolveEnv(cfg, baseEnv, cwd);
  const java = resolveJava(cfg, env);
  const agentJar = agentJarOf(env, internal.distDir);
  const main = cfg.mainClass?.trim();
  const jar = cfg.jar ?? (main && /\.jar$/i.test(main) ? main : undefined);
  const source = !jar && main && /\.java$/i.test(main) ? path.resolve(cwd, main) : undefined;
  if (!jar && !main) {
    throw new LaunchError('"mainClass" is missing: name the class with the main method (e.g. com.acme.Main), a .jar file, or ${file} for the current Java file.');
  }
  const classPaths = entries(cfg.classPaths, 'classPaths', root);
  const modulePaths = entries(cfg.modulePaths, 'modulePaths', root);
  const target: string[] = [];
  let base: string;
  if (jar) {
    const j = path.resolve(cwd, jar);
    if (!isFile(j)) throw new LaunchError(`The jar ${j} does not exist. Build it first, or fix "${cfg.jar ? 'jar' : 'mainClass'}".`);
    target.push('-jar', j);
    base = path.basename(j, path.extname(j));
  } else if (source) {
    if (!isFile(source)) throw new LaunchError(`The source file ${source} does not exist.`);
    target.push(source);
    base = path.basename(source, '.java');
  } else {
    target.push(...(main!.includes('/') ? ['-m', main!] : [main!]));
    base = main!.split(/[./]/).pop() ?? 'profile';
  }
  const profile = profilePath(cfg, internal, base, cwd, o.now ?? new Date());
  const tmpDir = o.tmpDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-'));
  const portFile = path.join(tmpDir, 'port.json');
  const settings: AgentSettings = {
    out: profile, include: patterns(cfg.include), exclude: patterns(cfg.exclude), mode: cfg.mode,
    extra: [`portFile=${portFile}`, ...sampleEveryOption(cfg), ...samplerOption(cfg), ...(cfg.threads === true ? ['threads=true'] : []), ...heapDumpOption(cfg, cwd)],
    accounts: patterns(cfg.accounts),
  };
  // Accounts without a mode: the accounts mode (as `heaplens run --accounts`).
  if (settings.accounts!.length && !settings.mode) settings.mode = 'accounts';
  settings.extra.push(...accountOptions(cfg));
  let agentArg: string;
  try {
    agentArg = agentArgument(agentJar, settings);
  } catch (e) {
    throw new LaunchError(`Bad HeapLens settings: ${(e as Error).message}`);
  }
  const vmArgs = splitArgs(cfg.vmArgs);
  // More stack for the program's threads, after its own JVM options so that it wins over theirs (stack-size.ts).
  if (cfg.stackScale !== undefined && !(Number.isInteger(cfg.stackScale) && cfg.stackScale >= 1 && cfg.stackScale <= 64)) {
    throw new LaunchError(`"stackScale" must be a whole number from 1 (the program's own stack size) to 64, not ${JSON.stringify(cfg.stackScale)}.`);
  }
  const stack = stackJvmArgs(vmArgs, cfg.stackScale ?? STACK_SCALE);
  const args = [...jfrSamplerJvmArgs(settings.extra, vmArgs), ...vmArgs, ...stack, agentArg];
  if (modulePaths.length) args.push('--module-path', modulePaths.join(path.delimiter));
  const classPath = classPaths.length ? classPaths.join(path.delimiter) : undefined;
  if (classPath) args.push('-cp', classPath);
  args.push(...target, ...splitArgs(cfg.args));
  const token = o.token ?? randomBytes(32).toString('hex');
  env.HEAPLENS_TOKEN = token;
  return { java, args, cwd, env, profile, portFile, tmpDir, token, target: jar ?? source ?? main!, classPath, agentJar, mode: settings.mode };
}

/** The accounts' agent options of a launch configuration (docs/accounts.md). */
export function accountOptions(cfg: HeapLensConfig): string[] {
  const out: string[] = [];
  if (cfg.liveness !== undefined) {
    if (!['auto', 'off', 'sampled', 'exact'].includes(cfg.liveness)) throw new LaunchError(`"liveness" must be auto, off, sampled or exact, not "${cfg.liveness}".`);
    out.push(`liveness=${cfg.liveness}`);
  }
  if (cfg.snapshotInterval !== undefined) {
    const n = Number(cfg.snapshotInterval);
    if (!Number.isInteger(n) || (n !== 0 && (n < 100 || n > 3_600_000))) {
      throw new LaunchError(`"snapshotInterval" must be 0 or a number of milliseconds from 100 to 3600000, not ${JSON.stringify(cfg.snapshotInterval)}.`);
    }
    out.push(`snapshotInterval=${n}`);
  }
  return out;
}

/** `sampleEvery` (lifetime mode only) as an agent option. */
export function sampleEveryOption(cfg: HeapLensConfig): string[] {
  if (cfg.sampleEvery === undefined || cfg.sampleEvery === '') return [];
  const n = Number(cfg.sampleEvery);
  if (!Number.isInteger(n) || n < 1) throw new LaunchError(`"sampleEvery" must be a whole number of at least 1, not ${JSON.stringify(cfg.sampleEvery)}.`);
  if (cfg.mode !== 'lifetime') throw new LaunchError('"sampleEvery" applies to "mode": "lifetime".');
  return [`sampleEvery=${n}`];
}

/** `sampler`: `jvmti`, `probes` or `jfr` (docs/modes.md, "sampler=jvmti"); unset: the agent's default. */
export function samplerOption(cfg: HeapLensConfig): string[] {
  if (cfg.sampler === undefined || cfg.sampler === '') return [];
  if (!['jvmti', 'probes', 'jfr'].includes(cfg.sampler)) {
    throw new LaunchError(`"sampler" must be "jvmti", "probes" or "jfr", not ${JSON.stringify(cfg.sampler)}.`);
  }
  return [`sampler=${cfg.sampler}`];
}

/** `heapDumpAtExit` as an agent option: an absolute .hprof path (relative ones are taken from the program's cwd). */
export function heapDumpOption(cfg: HeapLensConfig, cwd: string): string[] {
  if (cfg.heapDumpAtExit === undefined || cfg.heapDumpAtExit === '') return [];
  if (typeof cfg.heapDumpAtExit !== 'string' || !cfg.heapDumpAtExit.endsWith('.hprof')) {
    throw new LaunchError(`"heapDumpAtExit" must name a file ending with .hprof, not ${JSON.stringify(cfg.heapDumpAtExit)}.`);
  }
  return [`heapDumpAtExit=${path.resolve(cwd, cfg.heapDumpAtExit)}`];
}
