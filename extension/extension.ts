// The VS Code extension entry point: the "Profile Memory" debug type (extension/launch) and, with later
// work, the views and the profile editor.
import * as vscode from 'vscode';
import { LaunchApi, registerLaunch } from './launch/register';

/** What activate() returns (used by the in-host tests and by other extensions). */
export interface HeapLensApi {
  launch: LaunchApi;
}

export function activate(context: vscode.ExtensionContext): HeapLensApi {
  const output = vscode.window.createOutputChannel('HeapLens');
  context.subscriptions.push(output);
  output.appendLine(`HeapLens ${context.extension.packageJSON.version as string} activated`);
  return { launch: registerLaunch(context, output) };
}

export function deactivate(): void {
  // Nothing to release: everything is registered in context.subscriptions.
}
