// Compiling fixtures and running them through the real CLI (`bin/heaplens run` / `report`).
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseCollapsed } from './collapsed';
import { CLI, FIXTURE_BUILD, FIXTURE_SOURCES, Jdk, PROFILE_DIR, requireJdk, ROOT } from './env';
import { RawProfile } from './profile';

export interface Exec {
  code: number;
  stdout: string;
  stderr: string;
}

export function exec(file: string, args: readonly string[], timeoutMs = 120_000): Promise<Exec> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd: ROOT, timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err && typeof (err as NodeJS.ErrnoException).code === 'string') {
          reject(new Error(`cannot run ${file}: ${err.message}`));
          return;
        }
        if (err && (err as { killed?: boolean }).killed) {
          reject(new Error(`${file} ${args.join(' ')} timed out after ${timeoutMs} ms\n${stderr}`));
          return;
        }
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code, stdout, stderr });
      });
  });
}

function must(what: string, r: Exec): Exec {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
  return r;
}

export interface CompileOptions {
  /** javac of this JDK (default: JDK 17's) */
  jdk: Jdk;
  /** --release N (default 17) */
  release?: number;
  /** extra class path entries to compile against */
  classpath?: string[];
  /** output directory name under build/fixtures (default: the fixture name) */
  outName?: string;
}

function listFiles(dir: string, base = dir): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p, base));
    else out.push(path.relative(base, p));
  }
  return out;
}

/**
 * Compiles test/fixtures/java/<name> into build/fixtures/<outName>; returns the class directory.
 * javac writes into a private temporary directory; the class files are then renamed into place one by one
 * (and stale ones removed), so a JVM of another test file reading the same directory never sees it empty.
 */
export async function compileFixture(name: string, opts: CompileOptions): Promise<string> {
  requireJdk(opts.jdk);
  const src = path.join(FIXTURE_SOURCES, name);
  const files: string[] = [];
  const collect = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) collect(p);
      else if (e.name.endsWith('.java')) files.push(p);
    }
  };
  collect(src);
  if (files.length === 0) throw new Error(`fixture ${name}: no .java files under ${src}`);
  const out = path.join(FIXTURE_BUILD, opts.outName ?? name);
  const tmp = path.join(FIXTURE_BUILD, `.tmp-${process.pid}-${opts.outName ?? name}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  try {
    const args = ['--release', String(opts.release ?? 17), '-g', '-d', tmp];
    if (opts.classpath?.length) args.push('-cp', opts.classpath.join(path.delimiter));
    must(`javac (${opts.jdk.name}) of fixture ${name}`, await exec(opts.jdk.javac, [...args, ...files]));
    const fresh = listFiles(tmp);
    for (const stale of listFiles(out).filter((f) => !fresh.includes(f))) fs.rmSync(path.join(out, stale), { force: true });
    for (const f of fresh) {
      fs.mkdirSync(path.dirname(path.join(out, f)), { recursive: true });
      fs.renameSync(path.join(tmp, f), path.join(out, f));
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}

export type Metric = 'objects' | 'arrays' | 'elements';

/** One profiled run of a fixture, with its collapsed reports fetched lazily through the CLI. */
export class FixtureRun {
  private readonly reports = new Map<string, Promise<Map<string, number>>>();
  private rawProfile?: RawProfile;

  constructor(
    readonly jdk: Jdk,
    readonly profileFile: string,
    readonly run: Exec,
  ) {}

  /** `heaplens report F --format collapsed --metric M [--threads]`, parsed. */
  collapsed(metric: Metric, threads = false): Promise<Map<string, number>> {
    const key = `${metric}/${threads}`;
    let p = this.reports.get(key);
    if (!p) {
      const args = [CLI, 'report', this.profileFile, '--format', 'collapsed', '--metric', metric];
      if (threads) args.push('--threads');
      p = exec(process.execPath, args).then((r) => parseCollapsed(must(`heaplens report --metric ${metric}`, r).stdout));
      this.reports.set(key, p);
    }
    return p;
  }

  /** The profile file read as plain JSON. */
  get profile(): RawProfile {
    if (!this.rawProfile) this.rawProfile = new RawProfile(this.profileFile);
    return this.rawProfile;
  }
}

export interface RunOptions {
  jdk: Jdk;
  /** class path entries (the fixture's class directory first) */
  classpath: string[];
  mainClass: string;
  /** profile file name under build/e2e-profiles (default: derived from main class and JDK) */
  tag?: string;
  jvmArgs?: string[];
  /** `heaplens run` options before `--` (e.g. --accounts, --mode lifetime) */
  runArgs?: string[];
}

/**
 * `bin/heaplens run --java J --out F -- -Xverify:all -cp CP main.Class`. Fails when the CLI or the
 * program exits non-zero or no profile is written; the profile's JVM version must be the requested JDK's.
 */
export async function runFixture(opts: RunOptions): Promise<FixtureRun> {
  requireJdk(opts.jdk);
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) throw new Error('dist/cli.js is missing: run `npm run build` first');
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
  const out = path.join(PROFILE_DIR, `${opts.tag ?? opts.mainClass}-jdk${opts.jdk.name}.heaplens`);
  fs.rmSync(out, { force: true });
  const args = [CLI, 'run', '--java', opts.jdk.java, '--out', out, ...(opts.runArgs ?? []), '--',
    '-Xverify:all', ...(opts.jvmArgs ?? []), '-cp', opts.classpath.join(path.delimiter), opts.mainClass];
  const r = await exec(process.execPath, args);
  must(`heaplens run (JDK ${opts.jdk.name}) ${opts.mainClass}`, r);
  if (!fs.existsSync(out)) throw new Error(`heaplens run wrote no profile ${out}\n--- stderr\n${r.stderr}`);
  const run = new FixtureRun(opts.jdk, out, r);
  const version = String(run.profile.json.meta?.jvm?.version ?? '');
  if (!version.startsWith(opts.jdk.versionPrefix)) {
    throw new Error(`profile ${out} was written by JVM ${version}, not JDK ${opts.jdk.name}`);
  }
  return run;
}

/** The class-file major version of a compiled class. */
export function classFileMajor(file: string): number {
  const b = fs.readFileSync(file);
  if (b.readUInt32BE(0) !== 0xcafebabe) throw new Error(`${file} is not a class file`);
  return b.readUInt16BE(6);
}
