// Registers the views: "HeapLens: Show Profile" (the live session, the workspace's saved profiles or a
// file), the session's actions behind the status bar item, and the *.heaplens custom editor. Every view
// shows what the one profile source (extension/editor/sources.ts) holds, the same the editor annotates.
import * as path from 'path';
import * as vscode from 'vscode';
import { EDITOR_VIEW_TYPE, ProfileEditorProvider } from './editor';
import { ProfilePanels, ProfileView, ShowOptions } from './panel';
import { Profile, ProfileFile } from '../../core/profile/types';
import { COMMANDS } from '../commands';
import type { ProfileSources } from '../editor/sources';
import type { LaunchApi } from '../launch/register';
import { snapshots } from '../launch/snapshots';
import { setting } from '../settings';
import { showLive } from './live-view';
import { profilePicks, savedProfiles } from './profile-picks';
import { sessionActionList } from './session-actions';

export interface PanelsApi {
  showProfile(profile: Profile | ProfileFile, opts?: ShowOptions): ProfileView;
  /** wires the views to the profile source and the sessions (once both exist) */
  connect(deps: { sources: ProfileSources; launch: LaunchApi }): void;
  /** the live flame tree of a session (the status bar item, Show Profile); undefined without a live channel */
  showLive(session: vscode.DebugSession): ProfileView | undefined;
}

const liveInterval = (): number => Math.max(250, setting('editor.liveUpdateInterval'));

export function registerPanels(context: vscode.ExtensionContext, output: vscode.OutputChannel): PanelsApi {
  const log = (line: string): void => output.appendLine(`[views] ${line}`);
  const panels = new ProfilePanels(context.extensionUri, log);
  let deps: { sources: ProfileSources; launch: LaunchApi } | undefined;

  const live = (session: vscode.DebugSession): ProfileView | undefined => {
    const source = deps?.sources.liveSource(session);
    if (!source) {
      void vscode.window.showInformationMessage(`HeapLens: "${session.name}" has no live connection (yet); its profile opens when the run ends.`);
      return undefined;
    }
    return showLive(panels, source, {
      name: session.name, intervalMs: liveInterval,
      snapshot: (gc) => void vscode.commands.executeCommand(COMMANDS.takeSnapshot, gc ? { gc: true } : undefined),
    });
  };

  const showFile = (file: string): ProfileView | undefined => {
    if (!deps) return undefined;
    const src = deps.sources.useFile(file);
    const profile = src.profile();
    if (!profile) {
      void vscode.window.showErrorMessage(`HeapLens: cannot read ${path.basename(file)}${src.error ? `: ${src.error}` : ''}`);
      return undefined;
    }
    return panels.showProfile(profile, { title: path.basename(file), key: file });
  };

  const showCommand = async (uri?: vscode.Uri): Promise<ProfileView | undefined> => {
    if (uri) return showFile(uri.fsPath);
    const running = deps?.launch.sessions() ?? [];
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    // a running session's own file is still being written: it is offered as the session, not as a saved profile
    const writing = new Set<string>();
    for (const s of running) {
      const info = (await Promise.resolve(s.customRequest('heaplens.info')).catch(() => undefined)) as { profile?: unknown } | undefined;
      if (typeof info?.profile === 'string') writing.add(info.profile);
    }
    const picks = profilePicks({
      live: running.map((s) => ({ id: s.id, name: s.name })), snapshots: snapshots(), saved: savedProfiles(folders).filter((f) => !writing.has(f.file)),
      now: Date.now(), relative: (f) => vscode.workspace.asRelativePath(f),
    });
    const pick = await vscode.window.showQuickPick(picks, { placeHolder: 'The profile to show: a running session, a saved profile or a file', matchOnDescription: true });
    if (!pick) return undefined;
    if (pick.pick === 'live') {
      const s = running.find((x) => x.id === pick.sessionId);
      return s ? live(s) : undefined;
    }
    if (pick.pick === 'file') return showFile(pick.file);
    const uris = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'HeapLens profiles': ['heaplens'] }, openLabel: 'Show Profile' });
    return uris?.[0] ? showFile(uris[0].fsPath) : undefined;
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.showProfile, (uri?: vscode.Uri) => showCommand(uri instanceof vscode.Uri ? uri : undefined)),
    vscode.commands.registerCommand(COMMANDS.sessionActions, () => sessionActions(deps?.launch, live)),
    vscode.window.registerCustomEditorProvider(EDITOR_VIEW_TYPE, new ProfileEditorProvider(context.extensionUri, log), {
      webviewOptions: { retainContextWhenHidden: false },
      supportsMultipleEditorsPerDocument: true,
    }),
  );
  return {
    showProfile: (profile, opts) => panels.showProfile(profile, opts),
    connect: (d) => { deps = d; },
    showLive: (session) => live(session),
  };
}

/** The status bar item's click: the session's live flame tree and actions. */
async function sessionActions(launch: LaunchApi | undefined, live: (s: vscode.DebugSession) => ProfileView | undefined): Promise<void> {
  const session = launch?.session();
  if (!session) {
    void vscode.window.showInformationMessage('HeapLens: no profiling session is running.');
    return;
  }
  const stats = launch!.lastStats();
  const items = sessionActionList(!!stats?.paused, !!launch!.live(session.id));
  const pick = await vscode.window.showQuickPick(items, { placeHolder: `HeapLens — ${session.name}` });
  if (!pick) return;
  if (pick.live) live(session);
  else if (pick.stop) await vscode.debug.stopDebugging(session);
  else if (pick.command) await vscode.commands.executeCommand(pick.command);
}
