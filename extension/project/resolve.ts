// A Maven or Gradle project → what runs a program of it: the module, its class path (cached until a build file
// changes; the build tool runs only when needed, compiling first when the classes are stale) and its main classes.
// The CLI (`heaplens run --project`) and F5 both call resolveProject. No `vscode` import.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cacheKey, classesStale, ModuleClasspath, readCache, writeCache } from './classpath-cache';
import { ProjectError, tail } from './errors';
import { execTool } from './exec';
import { CLASSPATH_INIT_SCRIPT, gradleClasspathArgs, gradleExecutable, parseGradleClasspath } from './gradle';
import { findMainClasses } from './main-classes';
import { mavenExecutable, resolveArgs } from './maven';
import { ensureSpy, mavenHomeOf, parseSpyOutput, SpyModule } from './maven-spy';
import { BuildProject, findProject } from './project';

export interface ResolveOptions {
  /** the folder (or a file in it) to start from: a module, or the root of the build */
  start: string;
  /** a module by name (artifactId, Gradle path) or folder, instead of the one holding `start` */
  module?: string;
  /** compile when the classes are stale (default true) */
  compile?: boolean;
  /** the JDK's java: its javac compiles the Maven reader, and the build tool runs with it as JAVA_HOME (the tests run on it) */
  java: string;
  env: NodeJS.ProcessEnv;
  /** where compiled helpers are kept (default: ~/.cache/heaplens) */
  cacheDir?: string;
  /** the build tool's output, as it comes */
  onOutput?: (text: string) => void;
  /** a line saying what happens (e.g. "Maven: compiling and resolving the class path of app") */
  onStep?: (text: string) => void;
  /** look no higher than this folder for the build */
  boundary?: string;
  signal?: AbortSignal;
}

export interface ResolvedProject {
  project: BuildProject;
  module: ModuleClasspath;
  /** every module the build tool reported */
  modules: ModuleClasspath[];
  /** the module's main classes */
  mainClasses: string[];
  /** true when the build tool ran (false: the cached class path was used) */
  ranBuild: boolean;
}

export function defaultCacheDir(env: NodeJS.ProcessEnv): string {
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'heaplens');
}

function javaHomeOf(java: string): string {
  return path.dirname(path.dirname(fs.realpathSync(java)));
}

function fromSpy(m: SpyModule): ModuleClasspath {
  return {
    dir: m.basedir, name: m.artifactId, outputDirs: [m.outputDirectory], testOutputDirs: [m.testOutputDirectory], runtime: m.runtime, test: m.test,
    ...(m.packaging === 'pom' ? { aggregator: true } : {}),
  };
}

/** The module named `name` (artifactId or Gradle path, or a folder), or the one whose folder holds `dir`. */
export function pickModule(modules: readonly ModuleClasspath[], name: string | undefined, dir: string | undefined): ModuleClasspath | undefined {
  if (name) {
    const byName = modules.find((m) => m.name === name || m.name === `:${name}`);
    if (byName) return byName;
    const abs = dir ? path.resolve(dir, name) : path.resolve(name);
    return modules.find((m) => path.resolve(m.dir) === abs);
  }
  if (!dir) return undefined;
  // the deepest module folder holding dir
  return [...modules].sort((a, b) => b.dir.length - a.dir.length).find((m) => dir === m.dir || dir.startsWith(m.dir + path.sep));
}

function sourcesOf(m: ModuleClasspath): string[] {
  return [path.join(m.dir, 'src', 'main')];
}

async function runMaven(project: BuildProject, o: ResolveOptions, module: string | undefined, compile: boolean): Promise<ModuleClasspath[]> {
  const mvn = mavenExecutable(project.root, o.env, module);
  const env = { ...o.env, JAVA_HOME: javaHomeOf(o.java) };
  const cacheDir = o.cacheDir ?? defaultCacheDir(o.env);
  fs.mkdirSync(cacheDir, { recursive: true });
  const v = await execTool(mvn, ['-v'], { cwd: project.root, env, timeoutMs: 60_000, signal: o.signal });
  const home = mavenHomeOf(v.output);
  if (v.code !== 0 || !home) throw new ProjectError('buildFailed', `Maven did not start (${mvn} -v).`, v.output);
  const javac = path.join(path.dirname(fs.realpathSync(o.java)), process.platform === 'win32' ? 'javac.exe' : 'javac');
  if (!fs.existsSync(javac)) throw new ProjectError('noJdk', `${o.java} is not part of a JDK (there is no javac beside it): HeapLens needs a JDK 17 or newer to build the project.`);
  const spy = await ensureSpy(cacheDir, home, javac);
  const outFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-mvn-')), 'classpath.jsonl');
  const args = resolveArgs({ root: project.root, module, spyDir: spy, outFile, compile, offline: o.env.HEAPLENS_MAVEN_ONLINE !== '1' });
  o.onStep?.(`${path.basename(mvn)} ${args.join(' ')}`);
  let r = await execTool(mvn, args, { cwd: project.root, env, onOutput: o.onOutput, signal: o.signal });
  if (r.code !== 0 && /offline mode/.test(r.output) && o.env.HEAPLENS_MAVEN_ONLINE === undefined) {
    // something is not in the local repository yet: let Maven download it once
    const online = args.filter((a) => a !== '-o');
    o.onStep?.(`${path.basename(mvn)} ${online.join(' ')}`);
    r = await execTool(mvn, online, { cwd: project.root, env, onOutput: o.onOutput, signal: o.signal });
  }
  const text = fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : '';
  fs.rmSync(path.dirname(outFile), { recursive: true, force: true });
  if (r.code !== 0) throw new ProjectError('buildFailed', `The Maven build failed (${compile ? 'compiling' : 'resolving'} ${path.relative(project.root, module ?? project.root) || path.basename(project.root)}). Its output says why:`, tail(r.output));
  return parseSpyOutput(text).map(fromSpy);
}

async function runGradle(project: BuildProject, o: ResolveOptions, module: string | undefined, compile: boolean): Promise<ModuleClasspath[]> {
  const gradle = gradleExecutable(project.root, o.env, module);
  const env = { ...o.env, JAVA_HOME: javaHomeOf(o.java) };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-gradle-'));
  const init = path.join(dir, 'heaplens-classpath.gradle');
  fs.writeFileSync(init, CLASSPATH_INIT_SCRIPT);
  const args = gradleClasspathArgs({ root: project.root, module, initScript: init, compile, offline: o.env.HEAPLENS_GRADLE_ONLINE !== '1' });
  o.onStep?.(`${path.basename(gradle)} ${args.join(' ')}`);
  try {
    const r = await execTool(gradle, args, { cwd: project.root, env, onOutput: o.onOutput, signal: o.signal });
    if (r.code !== 0) throw new ProjectError('buildFailed', 'The Gradle build failed. Its output says why:', tail(r.output));
    return parseGradleClasspath(r.output);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The build's modules (from the cache, or the build tool), and the module of `o.start` / `o.module` when there is one. */
export async function resolveModules(o: ResolveOptions): Promise<Omit<ResolvedProject, 'module' | 'mainClasses'> & { module?: ModuleClasspath }> {
  const project = findProject(o.start, o.boundary);
  if (!project) throw new ProjectError('noProject', `No Maven or Gradle project at ${o.start} (no pom.xml, build.gradle or settings.gradle there or above).`);
  const compile = o.compile !== false;
  const tool = project.kind;
  const key = cacheKey(project.root, tool);
  const wantDir = o.module ? undefined : project.module;
  let modules = readCache(project.root, key);
  let module = modules && pickModule(modules, o.module, o.module ? project.root : wantDir);
  let ranBuild = false;
  const stale = !!module && compile && classesStale(module.outputDirs, sourcesOf(module), path.join(module.dir, tool === 'maven' ? 'pom.xml' : 'build.gradle'));
  if (!modules || !module || stale) {
    // the module by folder when known (its upstream modules come along), else the whole build
    const moduleDir = module?.dir ?? (o.module ? undefined : wantDir !== project.root ? wantDir : undefined);
    o.onStep?.(`${tool === 'maven' ? 'Maven' : 'Gradle'}: ${compile ? 'compiling and resolving' : 'resolving'} the class path of ${path.relative(project.root, moduleDir ?? project.root) || path.basename(project.root)}`);
    const fresh = tool === 'maven' ? await runMaven(project, o, moduleDir, compile) : await runGradle(project, o, moduleDir, compile);
    const merged = new Map((modules ?? []).map((m) => [m.dir, m]));
    for (const m of fresh) merged.set(m.dir, m);
    modules = [...merged.values()];
    writeCache(project.root, key, modules);
    ranBuild = true;
    module = pickModule(modules, o.module, o.module ? project.root : wantDir);
  }
  if (o.module && !module) {
    throw new ProjectError('noModule', `There is no module "${o.module}" in ${project.root} (modules: ${modules.filter((m) => !m.aggregator).map((m) => m.name).join(', ')}).`);
  }
  if (module?.aggregator && !o.module) module = undefined;
  return { project, modules, module, ranBuild };
}

/** Resolves the project that holds `o.start` (see ResolveOptions) and the module to run. */
export async function resolveProject(o: ResolveOptions): Promise<ResolvedProject> {
  const r = await resolveModules(o);
  let module = r.module;
  if (!module) {
    // started at an aggregator root: the one module with a main class, else the user chooses
    const withMain = r.modules.filter((m) => !m.aggregator && findMainClasses(m.outputDirs).length > 0);
    if (withMain.length !== 1) {
      throw new ProjectError('noModule', `${r.project.root} has several modules (${r.modules.filter((m) => !m.aggregator).map((m) => m.name).join(', ')}): choose one (--module NAME, or start from a file of that module).`);
    }
    module = withMain[0];
  }
  return { ...r, module, mainClasses: findMainClasses(module.outputDirs) };
}

/** The module whose test sources (or test classes) hold `className`, among the resolved ones. */
export function moduleOfTest(modules: readonly ModuleClasspath[], className: string): ModuleClasspath | undefined {
  // a @Nested class (Outer$Inner) lives in its top-level class's file
  const rel = className.replace(/\$.*$/, '').replace(/\./g, path.sep);
  return modules.find((m) => !m.aggregator && (fs.existsSync(path.join(m.dir, 'src', 'test', 'java', `${rel}.java`))
    || fs.existsSync(path.join(m.dir, 'src', 'test', 'kotlin', `${rel}.kt`))
    || m.testOutputDirs.some((d) => fs.existsSync(path.join(d, `${rel}.class`)))));
}

/** The main class to run: the one asked for (checked), else the module's only one. */
export function chooseMainClass(r: ResolvedProject, wanted: string | undefined): string {
  if (wanted) return wanted;
  if (r.mainClasses.length === 1) return r.mainClasses[0];
  if (r.mainClasses.length === 0) {
    throw new ProjectError('noMainClass', `The module ${r.module.name} has no class with a main method (public static void main(String[] args)) in ${r.module.outputDirs.join(', ')}.`);
  }
  throw new ProjectError('noMainClass', `The module ${r.module.name} has several main classes: ${r.mainClasses.join(', ')}. Name the one to run.`);
}
