// What a click on the status bar's HeapLens item offers: the running session's live flame tree and its
// actions, in one quick pick (a click never pauses silently).
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import type { LaunchApi } from '../launch/register';
import { ProfileView } from './panel';

export interface SessionAction { label: string; description?: string; command?: string; live?: true; stop?: true }

/** The actions for a session in the given state (tested: the order and the pause/resume choice). */
export function sessionActionList(paused: boolean, hasLive: boolean): SessionAction[] {
  const list: SessionAction[] = [];
  if (hasLive) list.push({ label: '$(flame) Show Live Flame Tree', description: 'follows the running program', live: true });
  list.push(paused
    ? { label: '$(debug-continue) Resume Profiling', command: COMMANDS.resumeProfiling }
    : { label: '$(debug-pause) Pause Profiling', description: 'the program keeps running', command: COMMANDS.pauseProfiling });
  list.push({ label: '$(device-camera) Take Snapshot', description: 'a copy of the profile so far, kept after the run', command: COMMANDS.takeSnapshot });
  list.push({ label: '$(settings-gear) Switch Profiling Mode…', command: COMMANDS.switchMode });
  list.push({ label: '$(trash) Force Garbage Collection', command: COMMANDS.forceGc });
  list.push({ label: '$(debug-stop) Stop the Program', description: 'the profile is saved', stop: true });
  return list;
}

export async function sessionActions(launch: LaunchApi | undefined, live: (s: vscode.DebugSession) => ProfileView | undefined): Promise<void> {
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
