// Outside the five bench programs (issue 26 asks for programs the bench does not tune for): Maven 3.8 (Debian's
// `maven`) compiles HeapLens's own agent sources offline, javac in-process through the maven-compiler-plugin.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { hashTree } from '../lib/digest.mjs';
import { ROOT } from '../lib/paths.mjs';

const MAVEN = '/usr/share/maven';

export default {
  name: 'maven',
  description: 'Maven 3.8 compiles the HeapLens agent sources offline (`mvn -o -q compile`)',
  packages: ['maven'],
  outside: true,
  prepare(ctx) {
    // The plugins and dependencies come from ~/.m2 (the agent's own build fetched them): offline, no network.
    if (!existsSync(join(process.env.HOME ?? '/root', '.m2', 'repository'))) throw new Error('maven: ~/.m2/repository is empty; run `mvn -o -f agent/pom.xml test` once');
    ctx.state.project = join(ROOT, 'agent');
  },
  command(ctx, runDir) {
    const project = join(runDir, 'project');
    rmSync(project, { recursive: true, force: true });
    cpSync(join(ctx.state.project, 'pom.xml'), join(project, 'pom.xml'));
    cpSync(join(ctx.state.project, 'src', 'main'), join(project, 'src', 'main'), { recursive: true });
    return {
      cp: [join(MAVEN, 'boot', 'plexus-classworlds-2.x.jar')], main: 'org.codehaus.plexus.classworlds.launcher.Launcher', cwd: project,
      jvmArgs: [`-Dclassworlds.conf=${MAVEN}/bin/m2.conf`, `-Dmaven.home=${MAVEN}`, `-Dmaven.multiModuleProjectDirectory=${project}`],
      args: ['-o', '-q', '-B', 'compile'],
    };
  },
  check(ctx, runDir) {
    const t = hashTree(join(runDir, 'project', 'target', 'classes'), (f) => f.endsWith('.class'));
    if (t.files < 50) throw new Error(`expected the agent's classes, found ${t.files} class files`);
    return { summary: `${t.files} class files`, digest: t.digest };
  },
};
