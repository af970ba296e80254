// One JUnit test (a method or a class) run under the agent through the project's own build: Maven Surefire's
// argLine, Gradle's test jvmArgs, or the JUnit Platform console launcher when it is on the module's test class
// path. The profile is the agent's `out` file; the caller opens it focused on the test. No `vscode` import.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ProjectError, tail } from './errors';
import { execTool } from './exec';
import { gradleExecutable, gradleProjectPath, gradleTestArgs, TEST_INIT_SCRIPT } from './gradle';
import { consoleLauncherArgs, consoleLauncherHasExecute, consoleLauncherOn, junitXmlCounts, testSelector } from './junit';
import { mavenExecutable, moduleSelection, surefireArgs, surefireCounts } from './maven';
import { moduleOfTest, ResolveOptions, resolveModules } from './resolve';

export interface TestRunOptions extends ResolveOptions {
  className: string;
  method?: string;
  /** the -javaagent argument (with out=PROFILE) */
  agentArg: string;
  /** the profile the agent writes */
  profile: string;
  /** extra JVM options for the test JVM */
  vmArgs?: string[];
}

export interface TestRunResult {
  /** how the test ran: 'surefire', 'gradle' or 'console' */
  runner: 'surefire' | 'gradle' | 'console';
  /** tests run, failed (failures + errors) */
  run: number;
  failed: number;
  profile: string;
  output: string;
  exitCode: number | null;
}

function javaHomeOf(java: string): string {
  return path.dirname(path.dirname(fs.realpathSync(java)));
}

/** Runs the test; throws ProjectError('noTests') when nothing ran, ('buildFailed') when the build broke before the tests. */
export async function runTest(o: TestRunOptions): Promise<TestRunResult> {
  const resolved = await resolveModules(o);
  const { project } = resolved;
  // the module holding the test class (the user may start at the root, or at another module)
  const module = (o.module ? resolved.module : moduleOfTest(resolved.modules, o.className) ?? resolved.module);
  if (!module) throw new ProjectError('noTests', `No tests found for ${testSelector(o.className, o.method)}: no module of ${project.root} has the test class ${o.className} (src/test/java).`);
  const env = { ...o.env, JAVA_HOME: javaHomeOf(o.java) };
  const selector = testSelector(o.className, o.method);
  const jvmArgs = [...(o.vmArgs ?? []), o.agentArg];
  const started = Date.now();
  const written = (): boolean => fs.existsSync(o.profile) && fs.statSync(o.profile).mtimeMs >= started - 1000;
  let result: TestRunResult;
  if (consoleLauncherOn(module.test)) {
    // the test classes first: the class-path run compiled the main classes only
    const tool = project.kind === 'maven' ? mavenExecutable(project.root, o.env, module.dir) : gradleExecutable(project.root, o.env, module.dir);
    const compileArgs = project.kind === 'maven'
      ? [...(o.env.HEAPLENS_MAVEN_ONLINE !== '1' ? ['-o'] : []), '-B', '-q', '-Dstyle.color=never', '-f', path.join(project.root, 'pom.xml'), ...moduleSelection(project.root, module.dir === project.root ? undefined : module.dir), 'test-compile']
      : [...(o.env.HEAPLENS_GRADLE_ONLINE !== '1' ? ['--offline'] : []), '-q', '--console=plain', '-p', project.root, `${gradleProjectPath(project.root, module.dir)}:testClasses`];
    o.onStep?.(`${path.basename(tool)} ${compileArgs.join(' ')}`);
    const c = await execTool(tool, compileArgs, { cwd: project.root, env, onOutput: o.onOutput, signal: o.signal });
    if (c.code !== 0) throw new ProjectError('buildFailed', `The build failed compiling the tests of ${module.name}. Its output says why:`, tail(c.output));
    const args = [...jvmArgs, ...consoleLauncherArgs(module.test, o.className, o.method, consoleLauncherHasExecute(module.test))];
    o.onStep?.(`java ${args.filter((a) => !a.startsWith('-javaagent')).join(' ')}`);
    const r = await execTool(o.java, args, { cwd: module.dir, env, onOutput: o.onOutput, signal: o.signal });
    const found = /(\d+) tests found/.exec(r.output);
    const failedN = /(\d+) tests failed/.exec(r.output);
    result = { runner: 'console', run: found ? Number(found[1]) : 0, failed: failedN ? Number(failedN[1]) : 0, profile: o.profile, output: r.output, exitCode: r.code };
  } else if (project.kind === 'maven') {
    const mvn = mavenExecutable(project.root, o.env, module.dir);
    const args = surefireArgs({ root: project.root, module: module.dir === project.root ? undefined : module.dir, test: selector, jvmArgs, offline: o.env.HEAPLENS_MAVEN_ONLINE !== '1' });
    o.onStep?.(`${path.basename(mvn)} ${args.map((a) => (a.startsWith('-DargLine=') ? '-DargLine=<the HeapLens agent>' : a)).join(' ')}`);
    const r = await execTool(mvn, args, { cwd: project.root, env, onOutput: o.onOutput, signal: o.signal });
    const counts = surefireCounts(r.output);
    if (r.code !== 0 && counts.run === 0) throw new ProjectError('buildFailed', `The Maven build failed before ${selector} ran. Its output says why:`, tail(r.output));
    result = { runner: 'surefire', run: counts.run, failed: counts.failures + counts.errors, profile: o.profile, output: r.output, exitCode: r.code };
  } else {
    const gradle = gradleExecutable(project.root, o.env, module.dir);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-gradle-'));
    const init = path.join(dir, 'heaplens-test.gradle');
    fs.writeFileSync(init, TEST_INIT_SCRIPT);
    const args = gradleTestArgs({ root: project.root, module: module.dir, initScript: init, test: selector, jvmArgs, offline: o.env.HEAPLENS_GRADLE_ONLINE !== '1' });
    o.onStep?.(`${path.basename(gradle)} ${args.filter((a) => !a.startsWith('-Dheaplens.jvmArgs')).join(' ')}`);
    try {
      const r = await execTool(gradle, args, { cwd: project.root, env, onOutput: o.onOutput, signal: o.signal });
      if (/No tests found for given includes/.test(r.output)) throw new ProjectError('noTests', `No tests found for ${selector} in ${module.name}.`, tail(r.output));
      if (r.code !== 0 && !written()) throw new ProjectError('buildFailed', `The Gradle build failed before ${selector} ran. Its output says why:`, tail(r.output));
      const counts = junitXmlCounts(path.join(module.dir, 'build', 'test-results', 'test'), started);
      result = { runner: 'gradle', run: counts.run, failed: counts.failed, profile: o.profile, output: r.output, exitCode: r.code };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  if (result.run === 0) {
    // the test JVM may have started (the class matched, the method did not): its profile holds no test
    if (written()) fs.rmSync(o.profile, { force: true });
    throw new ProjectError('noTests', `No tests found for ${selector} in ${module.name}: check the class and method names (a JUnit 5 @Test method in ${path.relative(project.root, module.dir) || '.'}/src/test/java).`, tail(result.output));
  }
  if (!written()) {
    const pom = path.join(module.dir, 'pom.xml');
    const own = project.kind === 'maven' && fs.existsSync(pom) && /<argLine>(?![^<]*[@$]\{argLine\})/.test(fs.readFileSync(pom, 'utf8'));
    throw new ProjectError('buildFailed', `${selector} ran, but the HeapLens agent wrote no profile (${o.profile})${own
      ? `: ${path.relative(project.root, pom) || 'pom.xml'} sets Surefire's <argLine> without @{argLine}, which drops the agent; add @{argLine} to it` : ''}. The build's output:`, tail(result.output));
  }
  return result;
}
