// "Open source" for a frame: the class's file in the workspace, at the method's (or the site's) line.
// Until the editor integration maps frames itself, the file is found by name (the class file's
// SourceFile attribute) under a folder path that matches the package.
import * as vscode from 'vscode';
import { FrameRef } from '../../webview/protocol';

/** `com.acme.Parser$Inner` + `Parser.java` → `com/acme/Parser.java`. */
export function expectedPath(frame: FrameRef): string | undefined {
  const file = frame.file ?? `${frame.class.slice(frame.class.lastIndexOf('.') + 1).split('$')[0]}.java`;
  const dot = frame.class.lastIndexOf('.');
  const pkg = dot < 0 ? '' : frame.class.slice(0, dot).replace(/\./g, '/');
  return pkg ? `${pkg}/${file}` : file;
}

/** Ranks candidate files: a path ending in the package path first, then the shortest path. */
export function bestMatch(candidates: readonly string[], frame: FrameRef): string | undefined {
  const want = expectedPath(frame);
  if (!want) return undefined;
  const norm = (p: string): string => p.replace(/\\/g, '/');
  const inPackage = candidates.filter((c) => norm(c).endsWith(`/${want}`) || norm(c) === want);
  const pool = inPackage.length > 0 ? inPackage : candidates;
  return [...pool].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0];
}

export async function openSource(frame: FrameRef): Promise<boolean> {
  const name = frame.file ?? `${frame.class.slice(frame.class.lastIndexOf('.') + 1).split('$')[0]}.java`;
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
