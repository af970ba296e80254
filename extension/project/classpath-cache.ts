// The resolved class paths of a build, kept in `<root>/.heaplens/project-classpath.json` until a build file
// changes (any pom.xml / build.gradle / settings.gradle of the build: path, size and content hash), so a second
// F5 starts the program without running the build tool. No `vscode` import.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

export interface ModuleClasspath {
  /** the module's folder */
  dir: string;
  /** its name: Maven's artifactId, Gradle's project path */
  name: string;
  /** the main classes folder(s) */
  outputDirs: string[];
  testOutputDirs: string[];
  /** what runs the program: its own classes first, then the dependencies (sibling modules' classes, jars) */
  runtime: string[];
  /** runtime plus the test classes and test-scoped dependencies */
  test: string[];
  /** a parent that only lists modules (Maven packaging "pom"): never what runs */
  aggregator?: boolean;
}

export interface CacheFile { key: string; modules: ModuleClasspath[] }

const BUILD_FILES = new Set(['pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts', 'gradle.properties']);
const SKIP = new Set(['node_modules', 'target', 'build', '.git', '.gradle', '.heaplens', 'out', 'bin', '.idea', '.vscode', 'src']);

/** Every build file of the build under `root` (modules nest at most a few levels; sources are not searched). */
export function buildFiles(root: string, depth = 6): string[] {
  const out: string[] = [];
  const walk = (dir: string, d: number): void => {
    let entries: fs.Dirent[];
    try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
    for (const e of entries) {
      if (e.isFile() && BUILD_FILES.has(e.name)) out.push(path.join(dir, e.name));
      else if (e.isDirectory() && d > 0 && !SKIP.has(e.name) && !e.name.startsWith('.')) walk(path.join(dir, e.name), d - 1);
    }
  };
  walk(root, depth);
  return out.sort();
}

/** The cache key: the build files' names and contents (and the tool that resolved them). */
export function cacheKey(root: string, tool: string): string {
  const h = createHash('sha256').update(tool);
  for (const f of buildFiles(root)) h.update(`\0${path.relative(root, f)}\0`).update(fs.readFileSync(f, 'utf8'));
  return h.digest('hex');
}

export function cacheFile(root: string): string {
  return path.join(root, '.heaplens', 'project-classpath.json');
}

export function readCache(root: string, key: string): ModuleClasspath[] | undefined {
  try {
    const c = JSON.parse(fs.readFileSync(cacheFile(root), 'utf8')) as CacheFile;
    return c.key === key && Array.isArray(c.modules) ? c.modules : undefined;
  } catch {
    return undefined;
  }
}

export function writeCache(root: string, key: string, modules: ModuleClasspath[]): void {
  const file = cacheFile(root);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(`${file}.tmp`, JSON.stringify({ key, modules } satisfies CacheFile, null, 1));
    fs.renameSync(`${file}.tmp`, file);
  } catch {
    // a read-only project: resolve again next time
  }
}

/** Calls `visit` for every regular file under `dir`, depth first; folders that cannot be read are skipped. */
export function forEachFile(dir: string, visit: (file: string, name: string) => void): void {
  let entries: fs.Dirent[];
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) forEachFile(p, visit);
    else if (e.isFile()) visit(p, e.name);
  }
}

/** The newest modification time of the files under `dir` (0 when there are none). */
export function newestMtime(dir: string): number {
  let newest = 0;
  forEachFile(dir, (p) => { newest = Math.max(newest, fs.statSync(p).mtimeMs); });
  return newest;
}

/**
 * True when the module's classes are older than its sources or its build file, or missing: then a launch compiles
 * first. `sources` are the module's source folders (src/main/java, src/main/resources …).
 */
export function classesStale(outputDirs: readonly string[], sources: readonly string[], buildFile?: string): boolean {
  const built = Math.max(0, ...outputDirs.map(newestMtime));
  const src = Math.max(0, ...sources.map(newestMtime));
  if (src === 0) return false;
  if (built === 0) return true;
  const pom = buildFile && fs.existsSync(buildFile) ? fs.statSync(buildFile).mtimeMs : 0;
  return src > built || pom > built;
}
