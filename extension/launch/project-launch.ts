// F5 on a Maven or Gradle project: a launch without `classPaths` gets the module's class path and main class from
// extension/project (the build tool runs only when the cache is stale or the classes are), with a progress
// notification, a picker for several main classes, and errors in the user's words (the build's output shown).
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { ProjectError } from '../project/errors';
import { classOfSource, findProject } from '../project/project';
import { defaultCacheDir, resolveProject } from '../project/resolve';
import { setting } from '../settings';
import { HeapLensConfig } from './config';

/** The file or folder a launch starts from: the `mainClass` source file, `cwd`, the active Java editor, the workspace folder. */
export function projectStart(cfg: HeapLensConfig, wsPath: string | undefined): string | undefined {
  if (cfg.mainClass && /\.java$/i.test(cfg.mainClass)) return path.resolve(wsPath ?? '.', cfg.mainClass);
  if (cfg.cwd) return path.resolve(wsPath ?? '.', cfg.cwd);
  const doc = vscode.window.activeTextEditor?.document;
  if (doc?.languageId === 'java' && doc.uri.scheme === 'file' && (!wsPath || doc.uri.fsPath.startsWith(wsPath + path.sep))) return doc.uri.fsPath;
  return wsPath;
}

/** True when the launch is for a build's class path: no jar, no class path given (or only the Java extension's tokens). */
export function wantsProject(cfg: HeapLensConfig): boolean {
  if (cfg.request !== 'launch' || cfg.jar || (cfg.mainClass && /\.jar$/i.test(cfg.mainClass))) return false;
  return !cfg.classPaths || cfg.classPaths.every((c) => typeof c === 'string' && c.startsWith('$'));
}

/**
 * Fills classPaths, mainClass and cwd from the project. Resolves to false when the launch must not go on (the error
 * was shown, or the user dismissed the picker); true otherwise (also when there is no project: the launch goes on
 * as configured).
 */
export async function resolveProjectLaunch(cfg: HeapLensConfig, java: string, wsPath: string | undefined, output: vscode.OutputChannel,
  reportError: (m: string) => void, cacheDir?: string): Promise<boolean> {
  if (!wantsProject(cfg)) return true;
  // a single-file program outside the build's sources stays a single-file launch
  if (cfg.mainClass && /\.java$/i.test(cfg.mainClass) && !path.resolve(wsPath ?? '.', cfg.mainClass).includes(`${path.sep}src${path.sep}main${path.sep}`)) return true;
  const start = projectStart(cfg, wsPath);
  if (!start || !fs.existsSync(start) || !findProject(start, wsPath)) return true;
  const compile = cfg.compileBeforeLaunch ?? setting('project.compileBeforeLaunch');
  try {
    const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'HeapLens', cancellable: true }, async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      progress.report({ message: 'reading the project…' });
      return resolveProject({
        start, compile, java, env: process.env, boundary: wsPath, cacheDir: cacheDir ?? defaultCacheDir(process.env), signal: abort.signal,
        onOutput: (t) => output.append(t),
        onStep: (t) => {
          output.appendLine(`HeapLens: ${t}`);
          if (!t.includes(' -D')) progress.report({ message: t });
        },
      });
    });
    let main = cfg.mainClass?.trim();
    if (main && /\.java$/i.test(main)) {
      const file = path.resolve(wsPath ?? '.', main);
      const cls = classOfSource(file, fs.readFileSync(file, 'utf8'));
      main = r.mainClasses.includes(cls) ? cls : undefined;
    }
    if (!main) {
      if (r.mainClasses.length === 0) throw new ProjectError('noMainClass', `The module ${r.module.name} has no class with a main method (public static void main(String[] args)). Open the class to profile, or set "mainClass".`);
      if (r.mainClasses.length === 1) main = r.mainClasses[0];
      else {
        const pick = await vscode.window.showQuickPick(r.mainClasses.map((c) => ({ label: c, description: r.module.name })), { placeHolder: `Main class of ${r.module.name} to profile` });
        if (!pick) return false;
        main = pick.label;
      }
    }
    cfg.mainClass = main;
    cfg.classPaths = r.module.runtime;
    cfg.cwd ??= r.module.dir;
    output.appendLine(`HeapLens: ${r.project.kind === 'maven' ? 'Maven' : 'Gradle'} module ${r.module.name}: ${main}, ${r.module.runtime.length} class path entries${r.ranBuild ? '' : ' (cached)'}`);
    return true;
  } catch (e) {
    if (!(e instanceof ProjectError)) throw e;
    if (e.output) output.appendLine(e.output);
    output.appendLine(`error: ${e.message}`);
    reportError(e.message);
    void vscode.window.showErrorMessage(`HeapLens: ${e.message}${e.output ? ' (see the output)' : ''}`, ...(e.output ? ['Show Build Output'] : [])).then((c) => {
      if (c) output.show(true);
    });
    return false;
  }
}
