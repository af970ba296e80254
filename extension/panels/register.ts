// Registers the views: the "HeapLens: Show Profile" command and the *.heaplens custom editor; returns
// the API a live session uses to show and update its profile.
import * as vscode from 'vscode';
import { EDITOR_VIEW_TYPE, ProfileEditorProvider } from './editor';
import { ProfilePanels, ProfileView, ShowOptions } from './panel';
import { Profile, ProfileFile } from '../model/types';
import { COMMANDS } from '../commands';

export interface PanelsApi {
  showProfile(profile: Profile | ProfileFile, opts?: ShowOptions): ProfileView;
}

export function registerPanels(context: vscode.ExtensionContext, output: vscode.OutputChannel): PanelsApi {
  const log = (line: string): void => output.appendLine(`[views] ${line}`);
  const panels = new ProfilePanels(context.extensionUri, log);
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.showProfile, (uri?: vscode.Uri) => panels.showCommand(uri instanceof vscode.Uri ? uri : undefined)),
    vscode.window.registerCustomEditorProvider(EDITOR_VIEW_TYPE, new ProfileEditorProvider(context.extensionUri, log), {
      webviewOptions: { retainContextWhenHidden: false },
      supportsMultipleEditorsPerDocument: true,
    }),
  );
  return { showProfile: (profile, opts) => panels.showProfile(profile, opts) };
}
