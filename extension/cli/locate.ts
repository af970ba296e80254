// Finding the agent jar and the java launcher, and naming the default profile file.
import * as fs from 'fs';
import * as path from 'path';
import { UsageError } from './args';

export const AGENT_JAR = 'heaplens-agent.jar';

/** HEAPLENS_AGENT, else the jar next to the CLI bundle (dist/heaplens-agent.jar). */
export function findAgentJar(env: NodeJS.ProcessEnv, cliDir: string): string {
  const jar = env.HEAPLENS_AGENT ? path.resolve(env.HEAPLENS_AGENT) : path.join(cliDir, AGENT_JAR);
  if (!fs.existsSync(jar)) {
    const how = env.HEAPLENS_AGENT ? 'HEAPLENS_AGENT names a file that does not exist' : 'run `npm run build` to build it, or set HEAPLENS_AGENT';
    throw new UsageError(`agent jar not found: ${jar} (${how})`);
  }
  if (jar.includes('=')) throw new UsageError(`the agent jar path may not contain "=": ${jar}`);
  return jar;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Searches PATH for an executable. */
export function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', ''] : [''];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const file = path.join(dir, name + ext);
      if (isExecutable(file)) return file;
    }
  }
  return undefined;
}

const NO_JAVA = 'HeapLens needs a JDK 17 or newer: pass --java PATH, set JAVA_HOME, or put java on PATH';

/** --java, else $JAVA_HOME/bin/java, else java on PATH. */
export function findJava(explicit: string | undefined, env: NodeJS.ProcessEnv): string {
  if (explicit) {
    const file = explicit.includes(path.sep) || explicit.includes('/') ? path.resolve(explicit) : onPath(explicit, env);
    if (!file || !isExecutable(file)) throw new UsageError(`--java ${explicit}: no such executable`);
    return file;
  }
  if (env.JAVA_HOME) {
    const file = path.join(env.JAVA_HOME, 'bin', process.platform === 'win32' ? 'java.exe' : 'java');
    if (isExecutable(file)) return file;
  }
  const found = onPath('java', env);
  if (!found) {
    const home = env.JAVA_HOME ? ` (JAVA_HOME=${env.JAVA_HOME} has no bin/java)` : '';
    throw new UsageError(`no Java runtime found${home}. ${NO_JAVA}`);
  }
  return found;
}

/** `heaplens-YYYYMMDD-HHMMSS.heaplens`, local time. */
export function defaultOutName(now: Date = new Date()): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  return `heaplens-${stamp}.heaplens`;
}
