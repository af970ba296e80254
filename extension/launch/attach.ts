// Attaching to a running local JVM: listing JVMs (`jcmd -l`) and loading the agent into one
// (`jcmd PID JVMTI.agent_load JAR OPTIONS`, JDK 17+). The channel token travels in a file that only the
// current user can read (agent option `tokenFile=PATH`), because the target's environment has no token.
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { onPath } from '../cli/locate';
import { LaunchError } from './config';

export interface JvmInfo { pid: number; description: string }

/** The jcmd next to the java being used, else on PATH. */
export function findJcmd(java: string | undefined, env: NodeJS.ProcessEnv): string {
  const exe = process.platform === 'win32' ? 'jcmd.exe' : 'jcmd';
  const candidates = [java ? path.join(path.dirname(java), exe) : undefined, env.JAVA_HOME ? path.join(env.JAVA_HOME, 'bin', exe) : undefined];
  for (const c of candidates) if (c && fs.existsSync(c)) return c;
  const found = onPath('jcmd', env);
  if (!found) throw new LaunchError('jcmd was not found (it comes with a JDK): set "javaHome" to a JDK 17 or newer, or put its bin folder on PATH.');
  return found;
}

function run(cmd: string, args: string[], timeoutMs: number): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: timeoutMs, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, out: `${stdout}${stderr}` });
    });
  });
}

/** Parses `jcmd -l`: "PID description" lines, without jcmd itself. */
export function parseJcmdList(text: string): JvmInfo[] {
  const out: JvmInfo[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\d+)\s*(.*)$/.exec(line.trim());
    if (!m) continue;
    if (/sun\.tools\.jcmd\.JCmd/.test(m[2])) continue;
    out.push({ pid: Number(m[1]), description: m[2].trim() || '(no main class)' });
  }
  return out;
}

export async function listJvms(jcmd: string): Promise<JvmInfo[]> {
  const r = await run(jcmd, ['-l'], 15000);
  if (r.code !== 0) throw new LaunchError(`jcmd -l failed: ${r.out.trim()}`);
  return parseJcmdList(r.out);
}

/** Loads the agent into the JVM `pid`; throws a LaunchError with jcmd's own words when it fails. */
export async function loadAgent(jcmd: string, pid: number, jar: string, options: string): Promise<void> {
  // jcmd's argument parser would read `out=…` as a named argument of the command: quote the agent options.
  if (options.includes('"')) throw new LaunchError(`agent options may not contain a double quote: ${options}`);
  const r = await run(jcmd, [String(pid), 'JVMTI.agent_load', jar, `"${options}"`], 30000);
  const text = r.out.trim();
  if (r.code !== 0 || /return code: -?[1-9]|Exception|Could not|not found|refused/i.test(text)) {
    throw new LaunchError(`Could not load the HeapLens agent into process ${pid}: ${text || `jcmd exited with code ${r.code}`}`);
  }
}

/** Writes the token where only this user can read it. */
export function writeTokenFile(dir: string, token: string): string {
  const file = path.join(dir, 'token');
  fs.writeFileSync(file, token, { mode: 0o600 });
  return file;
}
