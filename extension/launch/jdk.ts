// Which JDK a launch will run, and whether it is new enough, checked before the JVM starts so that a
// missing or too old Java is one clear message with the place to fix it (no `vscode` import).
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { HeapLensConfig, LaunchError } from './config';
import { locateJava } from './plan';

/** The agent is compiled for Java 17 (class file 61) and uses its instrumentation API. */
export const MIN_JAVA = 17;

/** Where the fix goes, said the same way in every message. */
export const WHERE_TO_SET = 'Set the "heaplens.javaHome" setting (Settings › Extensions › HeapLens), or "javaHome" in the launch configuration, '
  + `to the folder of a JDK ${MIN_JAVA} or newer (the folder holding bin/java)`;

/** The one JDK search order: README, the walkthrough and "Check the Java Runtime" say it in these words. */
export const JDK_ORDER = 'the launch configuration\'s "javaHome"/"javaExec", the "heaplens.javaHome" setting, the Java extension\'s project JDK, '
  + 'JAVA_HOME, java on PATH';

export interface JdkInfo {
  java: string;
  /** what chose it: "javaExec", "javaHome", "JAVA_HOME" or "PATH" (as in the launch configuration's order) */
  source: string;
  /** the version string as the JDK says it, e.g. "17.0.15" or "1.8.0_402" */
  version: string;
  major: number;
}

export type JdkCheck = { ok: true; jdk: JdkInfo } | { ok: false; kind: 'missing' | 'tooOld' | 'unknownVersion'; message: string; jdk?: Partial<JdkInfo> };

/** "17.0.15" → 17, "1.8.0_402" → 8, "25" → 25, "21-ea" → 21; undefined when it is no Java version. */
export function majorOf(version: string): number | undefined {
  const m = /^(\d+)(?:\.(\d+))?/.exec(version.trim());
  if (!m) return undefined;
  const first = Number(m[1]);
  return first === 1 && m[2] !== undefined ? Number(m[2]) : first;
}

/** JAVA_VERSION from a JDK's `release` file (present in every JDK since 9, and in most 8s). */
export function releaseVersion(home: string): string | undefined {
  try {
    const text = fs.readFileSync(path.join(home, 'release'), 'utf8');
    return /^JAVA_VERSION="?([^"\n]+)"?/m.exec(text)?.[1];
  } catch {
    return undefined;
  }
}

/** The version line of `java -version` (stderr): `openjdk version "17.0.15" 2025-04-15` → "17.0.15". */
export function parseVersionOutput(text: string): string | undefined {
  return /version "([^"]+)"/.exec(text)?.[1];
}

export type RunJava = (java: string) => { output: string; error?: string };

const runVersion: RunJava = (java) => {
  const r = spawnSync(java, ['-version'], { encoding: 'utf8', timeout: 20000 });
  if (r.error) return { output: '', error: r.error.message };
  return { output: `${r.stderr ?? ''}${r.stdout ?? ''}` };
};

/** The version of a java executable: its JDK's `release` file, else `java -version`. */
export function javaVersion(java: string, run: RunJava = runVersion): { version?: string; error?: string } {
  let home: string | undefined;
  try {
    home = path.dirname(path.dirname(fs.realpathSync(java)));
  } catch {
    home = undefined;
  }
  const fromRelease = home ? releaseVersion(home) : undefined;
  if (fromRelease && majorOf(fromRelease) !== undefined) return { version: fromRelease };
  const r = run(java);
  const v = parseVersionOutput(r.output);
  if (v && majorOf(v) !== undefined) return { version: v };
  return { error: r.error ?? (r.output.trim().split('\n')[0] || 'no output') };
}

export interface CheckOptions {
  run?: RunJava;
  /** said instead of 'from "javaHome"' when the javaHome came from elsewhere (the heaplens.javaHome setting) */
  javaHomeFrom?: string;
}

/** Finds the java a launch would run and checks its version; never throws. */
export function checkJdk(cfg: Pick<HeapLensConfig, 'javaExec' | 'javaHome'>, env: NodeJS.ProcessEnv, o: CheckOptions = {}): JdkCheck {
  const run = o.run ?? runVersion;
  const describe = (source: string): string => (source === 'javaHome' && o.javaHomeFrom ? o.javaHomeFrom : describeSource(source));
  let found: { java: string; source: string };
  try {
    found = locateJava(cfg as HeapLensConfig, env);
  } catch (e) {
    const detail = e instanceof LaunchError ? e.message : String(e);
    const what = o.javaHomeFrom && cfg.javaHome && !cfg.javaExec ? detail.replace('"javaHome"', `"javaHome" (${o.javaHomeFrom})`) : detail;
    return { ok: false, kind: 'missing', message: `${what.replace(/\s*HeapLens needs.*$/s, '')} HeapLens needs Java ${MIN_JAVA} or newer. ${WHERE_TO_SET}.` };
  }
  const { version, error } = javaVersion(found.java, run);
  if (!version) {
    return {
      ok: false, kind: 'unknownVersion', jdk: found,
      message: `${found.java} (${describe(found.source)}) did not tell its Java version (${error}). ${WHERE_TO_SET}.`,
    };
  }
  const major = majorOf(version)!;
  const jdk = { ...found, version, major };
  if (major < MIN_JAVA) {
    return {
      ok: false, kind: 'tooOld', jdk,
      message: `HeapLens needs Java ${MIN_JAVA} or newer, but ${found.java} (${describe(found.source)}) is Java ${version}. ${WHERE_TO_SET}.`,
    };
  }
  return { ok: true, jdk };
}

export function describeSource(source: string): string {
  switch (source) {
    case 'javaExec': return 'from "javaExec"';
    case 'javaHome': return 'from "javaHome"';
    case 'JAVA_HOME': return 'from JAVA_HOME';
    default: return 'found on PATH';
  }
}

/** Caches checks per java executable and its modification time (a JDK upgraded in place is checked again). */
export class JdkChecks {
  private readonly cache = new Map<string, JdkCheck>();

  constructor(private readonly run: RunJava = runVersion) {}

  check(cfg: Pick<HeapLensConfig, 'javaExec' | 'javaHome'>, env: NodeJS.ProcessEnv, javaHomeFrom?: string): JdkCheck {
    let key: string | undefined;
    try {
      const { java } = locateJava(cfg as HeapLensConfig, env);
      key = `${java}\0${fs.statSync(java).mtimeMs}\0${javaHomeFrom ?? ''}`;
    } catch {
      key = undefined;
    }
    const hit = key ? this.cache.get(key) : undefined;
    if (hit) return hit;
    const r = checkJdk(cfg, env, { run: this.run, javaHomeFrom });
    if (key && r.ok) this.cache.set(key, r);
    return r;
  }
}
