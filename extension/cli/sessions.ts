// Running `heaplens run` sessions, so that `heaplens heapdump` can reach them: one private directory per run
// under $TMPDIR/heaplens-sessions-$UID/<cli pid>/ holding the agent's port file and the channel token (0600).
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readPortFile } from '../channel/portfile';

export interface CliSession {
  dir: string;
  portFile: string;
  tokenFile: string;
  token: string;
}

export function sessionsRoot(env: NodeJS.ProcessEnv): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return path.join(env.HEAPLENS_SESSIONS ?? os.tmpdir(), `heaplens-sessions-${uid}`);
}

export function createSession(env: NodeJS.ProcessEnv, details: Record<string, unknown>): CliSession {
  const root = sessionsRoot(env);
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  const dir = path.join(root, String(process.pid));
  fs.rmSync(dir, { recursive: true, force: true });     // a stale directory of an earlier process with this pid
  fs.mkdirSync(dir, { mode: 0o700 });
  const token = randomBytes(32).toString('hex');
  const tokenFile = path.join(dir, 'token');
  fs.writeFileSync(tokenFile, token, { mode: 0o600 });
  fs.writeFileSync(path.join(dir, 'session.json'), JSON.stringify({ cliPid: process.pid, started: new Date().toISOString(), ...details }));
  return { dir, portFile: path.join(dir, 'port.json'), tokenFile, token };
}

export function removeSession(s: CliSession): void {
  fs.rmSync(s.dir, { recursive: true, force: true });
}

export interface RunningSession {
  dir: string;
  port: number;
  jvmPid: number;
  token: string;
  /** the command line the session runs (for messages) */
  what: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sessions whose JVM runs and whose channel is open. */
export function runningSessions(env: NodeJS.ProcessEnv): RunningSession[] {
  const root = sessionsRoot(env);
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return [];
  }
  const out: RunningSession[] = [];
  for (const name of names) {
    const dir = path.join(root, name);
    const port = readPortFile(path.join(dir, 'port.json'));
    if (!port || !alive(port.pid)) continue;
    let token: string;
    let what = '';
    try {
      token = fs.readFileSync(path.join(dir, 'token'), 'utf8').trim();
      const info = JSON.parse(fs.readFileSync(path.join(dir, 'session.json'), 'utf8')) as { args?: string[] };
      what = (info.args ?? []).join(' ');
    } catch {
      continue;
    }
    out.push({ dir, port: port.port, jvmPid: port.pid, token, what });
  }
  return out;
}
