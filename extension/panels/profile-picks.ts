// What "HeapLens: Show Profile" and the Diff tab's baseline picker offer: the running sessions (live),
// this window's snapshots, the workspace's saved profiles (.heaplens/, newest first) and "Browse…".
// No `vscode` import: the lists are built here and tested; the commands show them.
import * as fs from 'fs';
import * as path from 'path';

export interface SavedProfile { file: string; mtime: number }

export type ProfilePick =
  | { pick: 'live'; label: string; description: string; sessionId: string }
  | { pick: 'file'; label: string; description: string; file: string }
  | { pick: 'browse'; label: string; description: string };

/** The *.heaplens files of each folder's `.heaplens/` (a missing folder is no error), newest first. */
export function savedProfiles(workspaceFolders: string[]): SavedProfile[] {
  const out: SavedProfile[] = [];
  for (const root of workspaceFolders) {
    const dir = path.join(root, '.heaplens');
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.endsWith('.heaplens')) continue;
      const file = path.join(dir, name);
      try {
        const st = fs.statSync(file);
        if (st.isFile()) out.push({ file, mtime: st.mtimeMs });
      } catch {
        // gone between the listing and the stat: not offered
      }
    }
  }
  return out.sort((a, b) => b.mtime - a.mtime || a.file.localeCompare(b.file));
}

/** "3 min ago" for a modification time, as the picker describes a file. */
export function ago(mtime: number, now: number): string {
  const s = Math.max(0, Math.round((now - mtime) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

/**
 * The picker's rows: live sessions first, then the given snapshots (already newest first), then the saved
 * profiles that are not snapshots already listed, then Browse…. `relative` shows a file as the user knows it.
 */
export function profilePicks(opts: {
  live: Array<{ id: string; name: string }>;
  snapshots?: Array<{ file: string; n: number }>;
  saved: SavedProfile[];
  now: number;
  relative: (file: string) => string;
  max?: number;
}): ProfilePick[] {
  const picks: ProfilePick[] = opts.live.map((s) => ({ pick: 'live' as const, label: `$(pulse) ${s.name}`, description: 'running: live flame tree', sessionId: s.id }));
  const listed = new Set<string>();
  for (const s of opts.snapshots ?? []) {
    listed.add(s.file);
    picks.push({ pick: 'file', label: `$(device-camera) ${path.basename(s.file)}`, description: `snapshot ${s.n} of this session`, file: s.file });
  }
  for (const f of opts.saved.filter((x) => !listed.has(x.file)).slice(0, opts.max ?? 20)) {
    picks.push({ pick: 'file', label: `$(file) ${path.basename(f.file)}`, description: `${opts.relative(f.file)} · ${ago(f.mtime, opts.now)}`, file: f.file });
  }
  picks.push({ pick: 'browse', label: '$(folder-opened) Browse…', description: 'choose a .heaplens file' });
  return picks;
}
