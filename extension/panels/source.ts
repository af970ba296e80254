// "Open source" for a frame: the class's file in the workspace, at the method's (or the site's) line.
// Until the editor integration maps frames itself, the file is found by name (the class file's
// SourceFile attribute) under a folder path that matches the package.
import * as vscode from 'vscode';
import { FrameRef } from '../../core/protocol/webview-protocol';
import { bestMatch, expectedPath, sourceName } from './source-match';

export async function openSource(frame: FrameRef): Promise<boolean> {
  const name = sourceName(frame);
  const found = await vscode.workspace.findFiles(`**/${name}`, '{**/node_modules/**,**/target/**,**/build/classes/**}', 200);
  const best = bestMatch(found.map((u) => u.fsPath), frame);
  if (!best) {
    void vscode.window.showInformationMessage(`HeapLens: the source of ${frame.class}.${frame.method} (${expectedPath(frame)}) is not in this workspace.`);
    return false;
  }
  const uri = found.find((u) => u.fsPath === best)!;
  const line = Math.max(0, (frame.line ?? 1) - 1);
  const range = new vscode.Range(line, 0, line, 0);
  await vscode.window.showTextDocument(uri, { selection: range, preview: true, viewColumn: vscode.ViewColumn.One });
  return true;
}
