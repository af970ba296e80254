// Maven's command lines (no `vscode` import): the executable (the project's wrapper, else mvn on PATH), the
// resolve-and-compile run that the class-path reader listens to, and the Surefire run of one test under the agent.
import * as path from 'path';
import { onPath } from '../cli/locate';
import { ProjectError } from './errors';
import { findWrapper } from './project';
import { SPY_OUT_PROPERTY } from './maven-spy';

/** The project's mvnw (searched from the module up to the root), else mvn on PATH. */
export function mavenExecutable(root: string, env: NodeJS.ProcessEnv, module = root): string {
  const wrapper = findWrapper(root, module, process.platform === 'win32' ? 'mvnw.cmd' : 'mvnw');
  if (wrapper) return wrapper;
  const mvn = onPath(process.platform === 'win32' ? 'mvn.cmd' : 'mvn', env);
  if (!mvn) {
    throw new ProjectError('noBuildTool', `This is a Maven project (${path.join(root, 'pom.xml')}), but Maven was not found: install Maven (mvn on PATH) or add the Maven wrapper (mvnw) to the project.`);
  }
  return mvn;
}

/** `-pl <module> -am` when the module is not the root: the module and what it depends on, nothing else. */
export function moduleSelection(root: string, module: string | undefined): string[] {
  if (!module) return [];
  const rel = path.relative(root, module);
  return rel && !rel.startsWith('..') ? ['-pl', rel.split(path.sep).join('/'), '-am'] : [];
}

export interface ResolveArgsOptions {
  root: string;
  module?: string;
  /** the spy's class folder (-Dmaven.ext.class.path) */
  spyDir: string;
  /** the file the spy writes */
  outFile: string;
  /** compile the main classes (false: resolve only) */
  compile: boolean;
  offline: boolean;
}

/**
 * `mvn test-compile` with the test sources skipped: the main classes compiled (unless `compile` is false) and every
 * scope resolved, so the spy sees the runtime and the test class paths. Reactor siblings resolve to their
 * target/classes because the compile phase is part of the build.
 */
export function resolveArgs(o: ResolveArgsOptions): string[] {
  return [
    ...(o.offline ? ['-o'] : []), '-B', '-q', '-Dstyle.color=never', '-f', path.join(o.root, 'pom.xml'), ...moduleSelection(o.root, o.module),
    'test-compile', '-Dmaven.test.skip=true',
    ...(o.compile ? [] : ['-Dmaven.main.skip=true', '-Dmaven.resources.skip=true']),
    `-Dmaven.ext.class.path=${o.spyDir}`, `-D${SPY_OUT_PROPERTY}=${o.outFile}`,
  ];
}

/** Quotes an argLine element for Surefire (it splits its argLine at spaces and honours double quotes). */
export function argLineQuote(arg: string): string {
  return /[\s"]/.test(arg) ? `"${arg.replace(/"/g, '\\"')}"` : arg;
}

export interface SurefireArgsOptions {
  root: string;
  module?: string;
  /** `com.acme.FooTest` or `com.acme.FooTest#method` */
  test: string;
  /** the -javaagent argument (and any other JVM option) for the forked test JVM */
  jvmArgs: string[];
  offline: boolean;
}

/**
 * `mvn test -Dtest=Class#method` in the test's module (and the modules it needs), the agent on the forked JVM
 * through Surefire's argLine. Modules without that test run none (failIfNoSpecifiedTests=false); whether the test
 * ran at all is read from Surefire's report afterwards. The user's own argLine property is kept (@{argLine}).
 */
export function surefireArgs(o: SurefireArgsOptions): string[] {
  return [
    ...(o.offline ? ['-o'] : []), '-B', '-Dstyle.color=never', '-f', path.join(o.root, 'pom.xml'), ...moduleSelection(o.root, o.module),
    'test', `-Dtest=${o.test}`, '-Dsurefire.failIfNoSpecifiedTests=false', '-DfailIfNoTests=false', '-Djacoco.skip=true',
    `-DargLine=${o.jvmArgs.map(argLineQuote).join(' ')}`,
  ];
}

export interface SurefireCounts { run: number; failures: number; errors: number; skipped: number }

/** The sum of Surefire's per-class "Tests run: N, Failures: F, Errors: E, Skipped: S" lines (not the module totals). */
export function surefireCounts(output: string): SurefireCounts {
  const total: SurefireCounts = { run: 0, failures: 0, errors: 0, skipped: 0 };
  const text = output.replace(/\x1b\[[0-9;]*m/g, '');
  for (const m of text.matchAll(/Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+), Time elapsed/g)) {
    total.run += Number(m[1]);
    total.failures += Number(m[2]);
    total.errors += Number(m[3]);
    total.skipped += Number(m[4]);
  }
  return total;
}
