// The VS Code extension entry point. Views, the "Profile Memory" debug type and the profile editor
// arrive with later work; for now activation only records that HeapLens is present.
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('HeapLens');
  context.subscriptions.push(output);
  output.appendLine(`HeapLens ${context.extension.packageJSON.version as string} activated`);
}

export function deactivate(): void {
  // Nothing to release: everything is registered in context.subscriptions.
}
