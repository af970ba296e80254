// Where a frame's source file can be: the pure half of source-map.ts (unit-tested). No `vscode` import.
import * as path from 'path';
import { expectedPath } from '../panels/source-match';

/** Conventional source roots under a workspace folder, most specific first: Maven/Gradle, Android-style, plain. */
export const CONVENTIONAL_ROOTS = ['src/main/java', 'src/test/java', 'app/src/main/java', 'src/main/kotlin', 'src', '.'];

/** `${workspaceFolder}/src` → an absolute path; relative paths are taken from the folder. */
export function expandRoot(p: string, folder: string | undefined): string {
  const base = folder ?? '';
  const out = p.replace(/\$\{workspaceFolder\}/g, base).replace(/\$\{workspaceRoot\}/g, base);
  return path.isAbsolute(out) || !base ? out : path.join(base, out);
}

/** `com/acme/Parser.java` for a frame of `com.acme.Parser$Inner` compiled from Parser.java. */
export function relativeSource(frame: { class: string; file?: string }): string {
  return expectedPath({ class: frame.class, method: '', desc: '', file: frame.file });
}

/** The first root that holds the frame's file (`exists` is the file test), as an absolute path. */
export function findInRoots(frame: { class: string; file?: string }, roots: readonly string[], exists: (p: string) => boolean): string | undefined {
  const rel = relativeSource(frame);
  for (const root of roots) {
    const p = path.join(root, rel);
    if (exists(p)) return p;
  }
  return undefined;
}
