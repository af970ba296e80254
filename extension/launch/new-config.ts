// "Add Configuration…" for HeapLens: one configuration, named so that it does not clash with the
// launch.json's others, running the current Java file's class from the build's real class folder
// (target/classes for Maven, build/classes/java/main for Gradle), or the file itself when there is no
// build. No `vscode` import.
import * as fs from 'fs';
import * as path from 'path';
import { mainClassOfSource } from './single-file';

export type Layout = 'maven' | 'gradle' | 'none';

/** The build layout of a workspace folder, from its build files. */
export function layoutOf(folder: string | undefined): Layout {
  if (!folder) return 'none';
  if (fs.existsSync(path.join(folder, 'pom.xml'))) return 'maven';
  if (['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'].some((f) => fs.existsSync(path.join(folder, f)))) return 'gradle';
  return 'none';
}

export const CLASS_FOLDERS: Record<Exclude<Layout, 'none'>, string> = {
  maven: '${workspaceFolder}/target/classes',
  gradle: '${workspaceFolder}/build/classes/java/main',
};

/** `base`, else `base (2)`, `base (3)` … : the first name not taken. */
export function uniqueName(base: string, taken: string[]): string {
  const names = new Set(taken);
  if (!names.has(base)) return base;
  for (let i = 2; ; i++) if (!names.has(`${base} (${i})`)) return `${base} (${i})`;
}

/** The one configuration Add Configuration inserts. */
export function newConfiguration(opts: { folder?: string; javaFile?: { name: string; text: string }; taken: string[] }): Record<string, unknown> {
  const layout = layoutOf(opts.folder);
  const main = opts.javaFile ? mainClassOfSource(opts.javaFile.text) : undefined;
  if (layout !== 'none' && main) {
    return {
      type: 'heaplens', request: 'launch', name: uniqueName(`Profile Memory: ${main.split('.').pop()}`, opts.taken), mainClass: main,
      classPaths: [CLASS_FOLDERS[layout]],
    };
  }
  // no build: the current file, compiled at launch (single-file.ts)
  return { type: 'heaplens', request: 'launch', name: uniqueName('Profile Memory: Current File', opts.taken), mainClass: '${file}' };
}
