// The list of recent profiles (saved sessions and opened files), kept in the extension's global state.
import * as fs from 'fs';
import * as vscode from 'vscode';

const KEY = 'heaplens.recentProfiles';
const MAX = 20;

export interface RecentProfile { file: string; time: number; label: string }

export class RecentProfiles {
  constructor(private readonly state: vscode.Memento) {}

  /** Existing files, newest first. */
  list(): RecentProfile[] {
    return (this.state.get<RecentProfile[]>(KEY) ?? []).filter((r) => fs.existsSync(r.file));
  }

  async add(file: string, label: string): Promise<void> {
    const rest = this.list().filter((r) => r.file !== file);
    await this.state.update(KEY, [{ file, time: Date.now(), label }, ...rest].slice(0, MAX));
  }
}
