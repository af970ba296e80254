// Source mapping: a frame (class, method, source file, line) → the workspace file, and "reveal" there.
// Where it looks, in order: files found before; the Java extension's source roots; the launch
// configurations' `sourcePaths` and the `heaplens.sourcePaths` setting; conventional layouts (Maven,
// Gradle, plain src/); a search by file name ranked by package path. Library and JDK frames open through
// the Java extension (`vscode.java.resolveSourceUri`) when it is there, else the user is told the source
// is not available: never a silent no-op. The views use revealFrame for "open source".
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { bestMatch, expectedPath, sourceName } from '../panels/source-match';
import { CONVENTIONAL_ROOTS, expandRoot, findInRoots } from './source-roots';
import { setting } from '../settings';

export interface SourceFrame {
  class: string;
  /** method name (for messages and the Java extension's lookup) */
  method?: string;
  desc?: string;
  /** the class file's SourceFile (`Parser.java`) */
  file?: string;
  /** 1-based line */
  line?: number;
}

const EXCLUDE = '{**/node_modules/**,**/target/**,**/build/**,**/out/**,**/.git/**}';

function frameRef(f: SourceFrame): { class: string; method: string; desc: string; file?: string; line?: number } {
  return { class: f.class, method: f.method ?? '', desc: f.desc ?? '', file: f.file, line: f.line };
}

function exists(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function expand(p: string, folder: vscode.WorkspaceFolder | undefined): string {
  return expandRoot(p, folder?.uri.fsPath);
}

export class SourceMap {
  private readonly found = new Map<string, vscode.Uri>();

  /** Folders under which `package/File.java` is looked up directly. */
  async sourceRoots(): Promise<string[]> {
    const roots: string[] = [];
    if (vscode.extensions.getExtension('redhat.java')?.isActive) {
      try {
        const r = await vscode.commands.executeCommand<{ data?: Array<{ path: string }> }>('java.execute.workspaceCommand', 'java.project.listSourcePaths');
        for (const d of r?.data ?? []) roots.push(d.path);
      } catch {
        // not ready yet: the other ways still work
      }
    }
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const launches = vscode.workspace.getConfiguration('launch', folder).get<Array<Record<string, unknown>>>('configurations') ?? [];
      for (const c of launches) {
        if (c.type !== 'heaplens' || !Array.isArray(c.sourcePaths)) continue;
        for (const p of c.sourcePaths) if (typeof p === 'string') roots.push(expand(p, folder));
      }
      for (const p of setting('sourcePaths', folder.uri)) roots.push(expand(p, folder));
      for (const r of CONVENTIONAL_ROOTS) roots.push(path.join(folder.uri.fsPath, r));
    }
    return [...new Set(roots)];
  }

  /** The workspace file of a frame's class, or undefined. */
  async find(frame: SourceFrame): Promise<vscode.Uri | undefined> {
    const want = expectedPath(frameRef(frame));
    const cached = this.found.get(want);
    if (cached && exists(cached.fsPath)) return cached;
    const inRoot = findInRoots(frame, await this.sourceRoots(), exists);
    if (inRoot) return this.remember(want, vscode.Uri.file(inRoot));
    const byPath = await vscode.workspace.findFiles(`**/${want}`, EXCLUDE, 50);
    const candidates = byPath.length ? byPath : await vscode.workspace.findFiles(`**/${sourceName(frameRef(frame))}`, EXCLUDE, 200);
    const best = bestMatch(candidates.map((u) => u.fsPath), frameRef(frame));
    return best ? this.remember(want, candidates.find((u) => u.fsPath === best)!) : undefined;
  }

  /** Through the Java extension (libraries, the JDK): a jdt:// or file: URI, or undefined. */
  async resolveWithJava(frame: SourceFrame): Promise<vscode.Uri | undefined> {
    if (!vscode.extensions.getExtension('redhat.java')) return undefined;
    try {
      const line = `at ${frame.class}.${frame.method || 'unknown'}(${sourceName(frameRef(frame))}:${frame.line ?? 1})`;
      const uri = await vscode.commands.executeCommand<string>('java.execute.workspaceCommand', 'vscode.java.resolveSourceUri', line);
      return uri ? vscode.Uri.parse(uri) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Opens the frame's source at its line (the method's first line when no line is given). Resolves to
   * false after telling the user why when there is no source to show.
   */
  async reveal(frame: SourceFrame, opts: { preview?: boolean; viewColumn?: vscode.ViewColumn } = {}): Promise<boolean> {
    const uri = (await this.find(frame)) ?? (await this.resolveWithJava(frame));
    const what = `${frame.class}${frame.method ? `.${frame.method}` : ''}`;
    if (!uri) {
      void vscode.window.showInformationMessage(
        `HeapLens: source not available for ${what} (${expectedPath(frameRef(frame))} is not in this workspace${vscode.extensions.getExtension('redhat.java') ? ' and the Java extension has no source for it' : ''}).`);
      return false;
    }
    const line = Math.max(0, (frame.line ?? 1) - 1);
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      const l = Math.min(line, Math.max(0, doc.lineCount - 1));
      const text = doc.lineAt(l);
      const range = new vscode.Range(l, text.firstNonWhitespaceCharacterIndex, l, text.range.end.character);
      await vscode.window.showTextDocument(doc, { selection: range, preview: opts.preview ?? true, viewColumn: opts.viewColumn ?? vscode.ViewColumn.One });
      return true;
    } catch (e) {
      void vscode.window.showWarningMessage(`HeapLens: cannot open the source of ${what}: ${(e as Error).message}`);
      return false;
    }
  }

  private remember(key: string, uri: vscode.Uri): vscode.Uri {
    this.found.set(key, uri);
    return uri;
  }
}

/** One shared instance: the editor features and the views use the same cache. */
export const sourceMap = new SourceMap();

/** For the views' "open source": `revealFrame({ class, method, file, line })`. */
export function revealFrame(frame: SourceFrame): Promise<boolean> {
  return sourceMap.reveal(frame);
}
