// Running `heaplens run` sessions, so that `heaplens heapdump` can reach them: one private directory per run
// under $TMPDIR/heaplens-sessions-$UID/<cli pid>/ holding the agent's port file and the channel token (0600).
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pidAlive as alive, readPortFile } from '../channel/portfile';

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

/** The sessions folder cannot be trusted (another user's, or a link): nothing is written to it or read from it. */
export class UnsafeSessionsRoot extends Error {}

function myUid(): number {
  return typeof process.getuid === 'function' ? process.getuid() : -1;
}

/**
 * Why a folder found in the shared temp dir may not hold sessions (tokens, ports), or undefined when it may:
 * it must be a real folder (no symbolic link) owned by this user. `uid` -1: a system without owners (Windows).
 */
export function rootProblem(st: Pick<fs.Stats, 'uid' | 'mode' | 'isDirectory' | 'isSymbolicLink'>, uid: number): string | undefined {
  if (st.isSymbolicLink()) return 'is a symbolic link';
  if (!st.isDirectory()) return 'is not a folder';
  if (uid >= 0 && st.uid !== uid) return `belongs to another user (uid ${st.uid}, mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/** Checks the sessions folder (see rootProblem) and makes it private (0700) if it is ours but open to others. */
function trustedRoot(root: string): void {
  const st = fs.lstatSync(root);
  const problem = rootProblem(st, myUid());
  if (problem) throw new UnsafeSessionsRoot(`the sessions folder ${root} ${problem}: not used (remove it, or set HEAPLENS_SESSIONS to a folder of your own)`);
  if (myUid() >= 0 && (st.mode & 0o077) !== 0) fs.chmodSync(root, 0o700);
}

export function createSession(env: NodeJS.ProcessEnv, details: Record<string, unknown>): CliSession {
  const root = sessionsRoot(env);
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  trustedRoot(root);
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

/** The parent pid of a process (Linux /proc), or undefined where that cannot be read. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/**
 * Sessions whose JVM runs and whose channel is open. A session counts only while its `heaplens run` (the folder's
 * name) runs too and, where the system says, is the JVM's parent: a stale folder whose JVM pid was reused by an
 * unrelated JVM is never chosen.
 */
export function runningSessions(env: NodeJS.ProcessEnv): RunningSession[] {
  const root = sessionsRoot(env);
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return [];
  }
  trustedRoot(root);
  const out: RunningSession[] = [];
  for (const name of names) {
    const dir = path.join(root, name);
    const cliPid = Number(name);
    if (!Number.isInteger(cliPid) || cliPid <= 0 || !alive(cliPid)) continue;
    try {
      if (rootProblem(fs.lstatSync(dir), myUid())) continue;
    } catch {
      continue;
    }
    const port = readPortFile(path.join(dir, 'port.json'));
    if (!port || !alive(port.pid)) continue;
    const parent = parentOf(port.pid);
    if (parent !== undefined && parent !== cliPid) continue;
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
