// What a click on the status bar's HeapLens item offers: the running session's live flame tree and its
// actions, in one quick pick (a click never pauses silently). No `vscode` import (the list is tested).
import { COMMANDS } from '../commands';

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
