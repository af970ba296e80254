// Which build a folder or a file belongs to: the Maven reactor (the topmost pom.xml above it) or the Gradle
// build (the folder with settings.gradle, else build.gradle), and the module that holds it. No `vscode` import.
import * as fs from 'fs';
import * as path from 'path';

export type BuildKind = 'maven' | 'gradle';

export interface BuildProject {
  kind: BuildKind;
  /** where the build is run from: the reactor's root pom, or Gradle's settings folder */
  root: string;
  /** the module folder holding the start path (the root itself for a single-module build) */
  module?: string;
}

const GRADLE_SETTINGS = ['settings.gradle', 'settings.gradle.kts'];
const GRADLE_BUILD = ['build.gradle', 'build.gradle.kts'];

const has = (dir: string, names: readonly string[]): boolean => names.some((n) => fs.existsSync(path.join(dir, n)));

function isDir(p: string): boolean {
  try { return fs.statSync(p).isDirectory(); } catch { return false; }
}

/**
 * The build above `start` (a file or a folder), looking no higher than `boundary` (the workspace folder) when
 * given. The module is the nearest folder with its own pom.xml / build file; the root the topmost.
 */
export function findProject(start: string, boundary?: string): BuildProject | undefined {
  let dir = isDir(start) ? path.resolve(start) : path.dirname(path.resolve(start));
  const stop = boundary ? path.resolve(boundary) : undefined;
  let mavenModule: string | undefined, mavenRoot: string | undefined;
  let gradleModule: string | undefined, gradleRoot: string | undefined;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'pom.xml'))) {
      mavenModule ??= dir;
      mavenRoot = dir;
    }
    if (has(dir, GRADLE_BUILD) || has(dir, GRADLE_SETTINGS)) {
      if (has(dir, GRADLE_BUILD)) gradleModule ??= dir;
      if (has(dir, GRADLE_SETTINGS)) gradleRoot = dir;
      else gradleRoot ??= dir;
    }
    const up = path.dirname(dir);
    if (up === dir || (stop && dir === stop)) break;
    dir = up;
  }
  if (mavenRoot) return { kind: 'maven', root: mavenRoot, module: mavenModule };
  if (gradleRoot) return { kind: 'gradle', root: gradleRoot, module: gradleModule ?? gradleRoot };
  return undefined;
}

/** `com.acme.Main` for `src/main/java/com/acme/Main.java` whose text says `package com.acme;`. */
export function classOfSource(file: string, text: string): string {
  const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''));
  const name = path.basename(file, '.java');
  return pkg ? `${pkg[1]}.${name}` : name;
}

/** A build wrapper script (mvnw, gradlew) from the module's folder up to the project's root; undefined when none. */
export function findWrapper(root: string, module: string, wrapper: string): string | undefined {
  for (let dir = path.resolve(module); ; dir = path.dirname(dir)) {
    const w = path.join(dir, wrapper);
    if (fs.existsSync(w)) return w;
    if (dir === path.resolve(root) || path.dirname(dir) === dir) return undefined;
  }
}
