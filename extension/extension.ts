// The VS Code extension entry point: the "Profile Memory" debug type (extension/launch), the views
// (extension/panels: the HeapLens panel and the *.heaplens editor), the editor features (extension/editor:
// allocation CodeLens, hot allocation lines, source mapping).
import * as vscode from 'vscode';
import { EditorApi, registerEditor } from './editor/register';
import { LaunchApi, registerLaunch } from './launch/register';
import { PanelsApi, registerPanels } from './panels/register';
import { HeapApi, registerHeap } from './panels/heap-panel';
import { registerJfrEditor } from './panels/jfr-editor';

/** What activate() returns (used by the in-host tests and by other extensions). */
export interface HeapLensApi {
  launch: LaunchApi;
  /** showProfile(profile, { live }) → a view with update(profile) (throttled; zoom and selection kept) */
  views: PanelsApi;
  /** useProfile(file), revealFrame(frame), registerFocusHandler(h) for the flame tree's "focus method" */
  editor: EditorApi;
  /** heap dumps: the last one, what the Heap view shows */
  heap: HeapApi;
}

export function activate(context: vscode.ExtensionContext): HeapLensApi {
  const output = vscode.window.createOutputChannel('HeapLens');
  context.subscriptions.push(output);
  output.appendLine(`HeapLens ${context.extension.packageJSON.version as string} activated`);
  const views = registerPanels(context, output);
  const launch = registerLaunch(context, output);
  const editor = registerEditor(context, output, { launch, views });
  views.connect({ sources: editor.sources, launch });
  const heap = registerHeap(context, output, launch);
  // a .jfr opens in the same views, and its profile feeds the CodeLens and hot lines
  registerJfrEditor(context, output, (file) => editor.useProfile(file));
  return { launch, views, editor, heap };
}

export function deactivate(): void {
  // Nothing to release: everything is registered in context.subscriptions.
}
