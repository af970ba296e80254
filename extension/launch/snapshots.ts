// "Take Snapshot": the agent writes the profile now (to the session's own file, which the run goes on
// rewriting); the extension freezes a copy under a name of its own next to it, so the snapshot survives
// the run and can be diffed against the final profile. The session's snapshots are kept here, newest
// last, for the Diff tab's baseline picker. No `vscode` import.
import * as fs from 'fs';
import * as path from 'path';
import { loadProfile } from '../../core/profile/load';

export interface Snapshot { file: string; session: string; n: number; time: number }

const taken: Snapshot[] = [];

/** `dir/LiveDemo-20261125-031500.heaplens`, 2, 03:15:10 → `dir/LiveDemo-20261125-031500.snapshot-2-031510.heaplens`. */
export function snapshotName(profile: string, n: number, at: Date): string {
  const two = (x: number): string => String(x).padStart(2, '0');
  const stem = path.basename(profile).replace(/\.heaplens$/, '');
  return path.join(path.dirname(profile), `${stem}.snapshot-${n}-${two(at.getHours())}${two(at.getMinutes())}${two(at.getSeconds())}.heaplens`);
}

/**
 * Copies the profile the agent just wrote to its snapshot name. The copy is read back once (the one
 * validation of these bytes): a copy caught while the agent rewrote the file is taken again, up to 3 times.
 */
export function freezeSnapshot(profile: string, session: string, at = new Date()): Snapshot {
  const n = taken.filter((s) => s.session === session).length + 1;
  const file = snapshotName(profile, n, at);
  let last: Error | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    fs.copyFileSync(profile, file);
    try {
      loadProfile(file);
      const snap = { file, session, n, time: at.getTime() };
      taken.push(snap);
      return snap;
    } catch (e) {
      last = e as Error;
    }
  }
  fs.rmSync(file, { force: true });
  throw new Error(`the snapshot could not be copied whole: ${last?.message}`);
}

/** The snapshots taken in this window that still exist, newest first (of one session when given). */
export function snapshots(session?: string): Snapshot[] {
  return taken.filter((s) => (!session || s.session === session) && fs.existsSync(s.file)).reverse();
}
