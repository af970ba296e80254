// Every HeapLens setting, typed, with its default: the code reads settings only through `setting()`, and
// test/unit/settings.test.ts checks this table against package.json's contributions (keys and defaults).
import * as vscode from 'vscode';
import { SETTINGS, SettingKey } from './settings-table';

export { SETTINGS };
export type { SettingKey };

/** The value of a setting for `scope` (a folder's URI for folder-scoped settings), else its default. */
export function setting<K extends SettingKey>(key: K, scope?: vscode.Uri): (typeof SETTINGS)[K] {
  return vscode.workspace.getConfiguration('heaplens', scope).get(key, SETTINGS[key]) as (typeof SETTINGS)[K];
}

/** Writes a setting where the user has it (folder, workspace), else in the user settings. */
export async function updateSetting<K extends SettingKey>(key: K, value: (typeof SETTINGS)[K], scope?: vscode.Uri): Promise<void> {
  const c = vscode.workspace.getConfiguration('heaplens', scope);
  const info = c.inspect(key);
  const target = info?.workspaceFolderValue !== undefined ? vscode.ConfigurationTarget.WorkspaceFolder
    : info?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await c.update(key, value, target);
}
