// Which profile the editor annotations show: the live profile of a running session (updates throttled)
// or a saved profile, whichever the user opened (or brought to the front) last. Saved profiles are
// followed through their editor tabs: opening a *.heaplens file makes it the active profile, closing its
// last tab removes it (the annotations then show the previous one, or clear).
import * as path from 'path';
import * as vscode from 'vscode';
import { LiveSession } from '../channel/session';
import { EVENTS } from '../launch/adapter';
import { LaunchApi } from '../launch/register';
import { loadProfile } from '../../core/profile/load';
import { defaultTree, withTree } from '../../core/profile/modes';
import { Profile } from '../../core/profile/types';
import { SourceRef } from './refs';

export { SourceRef } from './refs';

export interface ProfileSource {
  readonly id: string;
  readonly ref: SourceRef;
  readonly label: string;
  /** changes whenever the data changes */
  readonly revision: number;
  /** why the profile cannot be read, when it cannot */
  readonly error?: string;
  /** the profile (cached per revision); undefined when it cannot be read */
  profile(): Profile | undefined;
}

class FileSource implements ProfileSource {
  readonly ref: SourceRef;
  revision = 0;
  private cached: Profile | undefined;
  private loadedRevision = -1;
  error: string | undefined;
  /** followed through editor tabs: removed when its last tab closes */
  fromTab = false;

  constructor(readonly file: string) {
    this.ref = { kind: 'file', file };
  }
  get id(): string { return `file:${this.file}`; }
  get label(): string { return path.basename(this.file); }
  profile(): Profile | undefined {
    if (this.loadedRevision !== this.revision) {
      this.loadedRevision = this.revision;
      try {
        // a profile without exact data (sampled mode, an imported JFR recording) shows its estimates
        const loaded = loadProfile(this.file);
        this.cached = withTree(loaded, defaultTree(loaded));
        this.error = undefined;
      } catch (e) {
        // a file caught mid-rewrite keeps the last good profile; the next change brings a whole one
        this.error = (e as Error).message;
      }
    }
    return this.cached;
  }
}

export class LiveSource implements ProfileSource {
  readonly ref: SourceRef;
  revision = 0;
  ended = false;
  private cached: Profile | undefined;
  private builtRevision = -1;

  constructor(readonly sessionId: string, private readonly name: string, readonly live: LiveSession) {
    this.ref = { kind: 'live', sessionId };
  }
  get id(): string { return `live:${this.sessionId}`; }
  get label(): string { return `${this.name} (${this.ended ? 'ended' : 'live'})`; }
  profile(): Profile | undefined {
    if (this.builtRevision !== this.revision) {
      this.builtRevision = this.revision;
      this.cached = this.live.profile.toProfile();
    }
    return this.cached;
  }
}

const isProfileUri = (uri: vscode.Uri | undefined): uri is vscode.Uri => !!uri && uri.scheme === 'file' && uri.fsPath.endsWith('.heaplens');

function tabUri(tab: vscode.Tab): vscode.Uri | undefined {
  const input = tab.input;
  if (input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputText) return input.uri;
  return undefined;
}

export class ProfileSources implements vscode.Disposable {
  /** most recently opened or brought to the front last */
  private stack: Array<FileSource | LiveSource> = [];
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly watchers = new Map<string, vscode.FileSystemWatcher>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** live sessions the user stopped showing: not brought back by their next update */
  private readonly dismissed = new Set<string>();
  /** fires when the active profile changes or its data does (live data at most once per interval) */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly launch: LaunchApi | undefined, private readonly intervalMs: () => number, private readonly log: (m: string) => void) {
    this.disposables.push(
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        for (const tab of e.opened) this.onTabOpened(tab);
        for (const tab of e.changed) if (tab.isActive) this.onTabOpened(tab);
        if (e.closed.length) this.dropClosedFiles();
      }),
      vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
        if (e.session.type !== 'heaplens') return;
        this.attachLive(e.session);
        if (e.event === EVENTS.saved && typeof e.body?.file === 'string') this.onSaved(e.session.id, e.body.file);
      }),
      vscode.debug.onDidTerminateDebugSession((s) => {
        const src = this.stack.find((x): x is LiveSource => x instanceof LiveSource && x.sessionId === s.id);
        if (src) {
          src.ended = true;
          this.changed(src);
        }
      }),
    );
    for (const group of vscode.window.tabGroups.all) for (const tab of group.tabs) this.onTabOpened(tab);
  }

  active(): ProfileSource | undefined {
    return this.stack[0];
  }

  all(): ProfileSource[] {
    return [...this.stack];
  }

  /**
   * Makes a saved profile the active one (the views call this when they show a file). With `fromTab`, it
   * is forgotten when its last editor tab closes.
   */
  useFile(file: string, fromTab = false): ProfileSource {
    let src = this.stack.find((x): x is FileSource => x instanceof FileSource && x.file === file);
    if (!src) {
      src = new FileSource(file);
      this.watch(src);
      // only a profile first opened in a tab goes with its tab; a session's saved profile (opened at the run's
      // end) stays until another replaces it or the user drops it from the picker
      src.fromTab = fromTab;
    }
    this.promote(src);
    return src;
  }

  /**
   * The live source of a running session (created and made active when it is not known yet), for the views
   * that follow the same session as the editor; undefined when the session has no live channel.
   */
  liveSource(session: vscode.DebugSession): LiveSource | undefined {
    this.dismissed.delete(session.id);
    this.attachLive(session);
    return this.stack.find((x): x is LiveSource => x instanceof LiveSource && x.sessionId === session.id);
  }

  /** Brings a source to the front (the "choose profile" command). */
  select(id: string): void {
    const src = this.stack.find((x) => x.id === id);
    if (src) this.promote(src);
  }

  /** Forgets a source (a closed profile). */
  remove(id: string): void {
    const i = this.stack.findIndex((x) => x.id === id);
    if (i < 0) return;
    const [src] = this.stack.splice(i, 1);
    if (src instanceof LiveSource) this.dismissed.add(src.sessionId);
    this.watchers.get(src.id)?.dispose();
    this.watchers.delete(src.id);
    this.log(`editor: profile ${src.label} closed`);
    this.emitter.fire();
  }

  private promote(src: FileSource | LiveSource): void {
    const was = this.stack[0];
    this.stack = [src, ...this.stack.filter((x) => x !== src)];
    if (was !== src) {
      this.log(`editor: annotations now show ${src.label}`);
      this.emitter.fire();
    }
  }

  private onTabOpened(tab: vscode.Tab): void {
    const uri = tabUri(tab);
    if (isProfileUri(uri)) this.useFile(uri.fsPath, true);
  }

  private dropClosedFiles(): void {
    const open = new Set<string>();
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const uri = tabUri(tab);
        if (isProfileUri(uri)) open.add(uri.fsPath);
      }
    }
    for (const src of this.stack) if (src instanceof FileSource && !open.has(src.file) && src.fromTab) this.remove(src.id);
  }

  private watch(src: FileSource): void {
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(src.file)), path.basename(src.file)));
    const bump = (): void => {
      src.revision++;
      this.changed(src);
    };
    w.onDidChange(bump);
    w.onDidCreate(bump);
    this.watchers.set(src.id, w);
  }

  private attachLive(session: vscode.DebugSession): void {
    if (this.dismissed.has(session.id) || this.stack.some((x) => x instanceof LiveSource && x.sessionId === session.id)) return;
    const live = this.launch?.live(session.id);
    if (!live) return;
    const src = new LiveSource(session.id, session.name, live);
    live.on('update', () => {
      src.revision++;
      this.changed(src);
    });
    this.promote(src);
  }

  /** The session's profile was saved: the file replaces the live source in place (same data, final). */
  private onSaved(sessionId: string, file: string): void {
    const i = this.stack.findIndex((x) => x instanceof LiveSource && x.sessionId === sessionId);
    if (i < 0) return;
    const src = new FileSource(file);
    this.stack[i] = src;
    this.watch(src); // kept until it is closed from the "choose profile" picker or replaced
    this.changed(src);
  }

  /** Data changed: tell listeners if it is the active source, at most once per interval. */
  private changed(src: ProfileSource): void {
    if (this.stack[0] !== src || this.timers.has(src.id)) return;
    this.timers.set(src.id, setTimeout(() => {
      this.timers.delete(src.id);
      if (this.stack[0] === src) this.emitter.fire();
    }, src instanceof LiveSource && !src.ended ? this.intervalMs() : 50));
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const w of this.watchers.values()) w.dispose();
    for (const d of this.disposables) d.dispose();
    this.emitter.dispose();
  }
}
