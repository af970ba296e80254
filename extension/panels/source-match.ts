// Which workspace file holds a frame's class (pure: unit-tested without VS Code).
import { FrameRef } from '../../core/protocol/webview-protocol';

/** A file name that is safe in a workspace search pattern: no folder part, no glob syntax, not "." or "..". */
function plainFileName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  return /^[^\\/*?{}[\]!,]+$/.test(name) && name !== '.' && name !== '..' ? name : undefined;
}

/**
 * The source file name: the class file's SourceFile, else the top-level class name + `.java`. Both come from a
 * profile, which may have been crafted: a name with a path or glob syntax in it is not used, so the workspace
 * search built from it never looks beyond files of that one name (docs/reliability.md).
 */
export function sourceName(frame: FrameRef): string {
  const fromClass = plainFileName(`${frame.class.slice(frame.class.lastIndexOf('.') + 1).split('$')[0]}.java`) ?? 'Unknown.java';
  return plainFileName(frame.file) ?? fromClass;
}

/** `com.acme.Parser$Inner` + `Parser.java` → `com/acme/Parser.java`. */
export function expectedPath(frame: FrameRef): string {
  const dot = frame.class.lastIndexOf('.');
  const pkg = dot < 0 ? '' : frame.class.slice(0, dot).replace(/\./g, '/');
  return pkg ? `${pkg}/${sourceName(frame)}` : sourceName(frame);
}

/** Ranks candidate files: a path ending in the package path first, then the shortest path. */
export function bestMatch(candidates: readonly string[], frame: FrameRef): string | undefined {
  const want = expectedPath(frame);
  const norm = (p: string): string => p.replace(/\\/g, '/');
  const inPackage = candidates.filter((c) => norm(c).endsWith(`/${want}`) || norm(c) === want);
  const pool = inPackage.length > 0 ? inPackage : candidates;
  return [...pool].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0];
}
