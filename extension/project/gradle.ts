// Gradle's command lines (no `vscode` import): the wrapper or `gradle` on PATH, an init script whose task prints
// each Java project's runtime and test class paths (one JSON line each, marked), and the test run with the agent
// given to the test JVM through an init script's jvmArgs.
import * as path from 'path';
import { onPath } from '../cli/locate';
import { ModuleClasspath } from './classpath-cache';
import { ProjectError } from './errors';
import { findWrapper } from './project';

export const GRADLE_MARK = 'HEAPLENS-CLASSPATH ';

/** Works on Gradle 4.4 (Debian's) and newer: no task-configuration avoidance, no Kotlin DSL. */
export const CLASSPATH_INIT_SCRIPT = `// written by HeapLens: prints the class paths of every Java project
def q = { s -> '"' + s.toString().replace('\\\\', '\\\\\\\\').replace('"', '\\\\"') + '"' }
def arr = { files -> '[' + files.collect { q(it.absolutePath) }.join(',') + ']' }
allprojects { p ->
  p.afterEvaluate {
    if (p.plugins.hasPlugin('java')) {
      p.task('heaplensClasspath') {
        dependsOn p.tasks.findByName(System.getProperty('heaplens.compile') == 'false' ? 'help' : 'classes')
        doLast {
          def main = p.sourceSets.main, test = p.sourceSets.test
          println '${GRADLE_MARK}{"name":' + q(p.path) + ',"dir":' + q(p.projectDir.absolutePath) +
            ',"outputDirs":' + arr(main.output.classesDirs.files + [main.output.resourcesDir]) +
            ',"testOutputDirs":' + arr(test.output.classesDirs.files + [test.output.resourcesDir]) +
            ',"runtime":' + arr(main.runtimeClasspath.files) + ',"test":' + arr(test.runtimeClasspath.files) + '}'
        }
      }
    }
  }
}
`;

/** The init script that hands the agent to the test JVMs (the -javaagent argument passed as a system property). */
export const TEST_INIT_SCRIPT = `// written by HeapLens: the agent on the test JVM
allprojects {
  tasks.withType(Test) {
    def a = System.getProperty('heaplens.jvmArgs')
    if (a) jvmArgs a.split('\\n') as List
  }
}
`;

/** The project's gradlew (from the module up to the root), else gradle on PATH. */
export function gradleExecutable(root: string, env: NodeJS.ProcessEnv, module = root): string {
  const wrapper = findWrapper(root, module, process.platform === 'win32' ? 'gradlew.bat' : 'gradlew');
  if (wrapper) return wrapper;
  const g = onPath(process.platform === 'win32' ? 'gradle.bat' : 'gradle', env);
  if (!g) {
    throw new ProjectError('noBuildTool', `This is a Gradle project (${root}), but Gradle was not found: add the Gradle wrapper (gradlew) to the project or install Gradle (gradle on PATH).`);
  }
  return g;
}

/** The Gradle project path (`:app`) of a module folder. */
export function gradleProjectPath(root: string, module: string | undefined): string {
  const rel = module ? path.relative(root, module) : '';
  return rel && !rel.startsWith('..') ? `:${rel.split(path.sep).join(':')}` : '';
}

export function gradleClasspathArgs(o: { root: string; module?: string; initScript: string; compile: boolean; offline: boolean }): string[] {
  const p = gradleProjectPath(o.root, o.module);
  return [...(o.offline ? ['--offline'] : []), '-q', '--console=plain', '-p', o.root, '--init-script', o.initScript,
    `-Dheaplens.compile=${o.compile}`, `${p}:heaplensClasspath`];
}

export function gradleTestArgs(o: { root: string; module?: string; initScript: string; test: string; jvmArgs: string[]; offline: boolean }): string[] {
  const p = gradleProjectPath(o.root, o.module);
  return [...(o.offline ? ['--offline'] : []), '--console=plain', '-p', o.root, '--init-script', o.initScript,
    `-Dheaplens.jvmArgs=${o.jvmArgs.join('\n')}`, `${p}:cleanTest`, `${p}:test`, '--tests', o.test.replace('#', '.')];
}

/** The modules the classpath task printed. */
export function parseGradleClasspath(output: string): ModuleClasspath[] {
  const out: ModuleClasspath[] = [];
  for (const line of output.split(/\r?\n/)) {
    const i = line.indexOf(GRADLE_MARK);
    if (i < 0) continue;
    const m = JSON.parse(line.slice(i + GRADLE_MARK.length)) as ModuleClasspath;
    out.push({ ...m, name: m.name || ':' });
  }
  return out;
}
