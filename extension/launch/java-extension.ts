// When the Java extension (redhat.java, with the Java debugger's server plugin) is installed, resolve the
// main class, classpath and java executable through its workspace commands; otherwise leave the fields.
import * as vscode from 'vscode';
import { HeapLensConfig } from './config';

const EXEC = 'java.execute.workspaceCommand';

interface MainClassOption { mainClass: string; projectName?: string; filePath?: string }

export function javaExtensionPresent(): boolean {
  return vscode.extensions.getExtension('redhat.java') !== undefined;
}

async function exec<T>(command: string, ...args: unknown[]): Promise<T | undefined> {
  return vscode.commands.executeCommand<T>(EXEC, command, ...args);
}

/** Fills mainClass/projectName, classPaths/modulePaths and javaExec from the Java extension where missing. */
export async function resolveWithJavaExtension(folder: vscode.WorkspaceFolder | undefined, cfg: HeapLensConfig, log: (m: string) => void): Promise<void> {
  const ext = vscode.extensions.getExtension('redhat.java');
  if (!ext || cfg.request !== 'launch') return;
  try {
    if (!ext.isActive) await ext.activate();
    if (!cfg.mainClass && !cfg.jar) {
      const mains = (await exec<MainClassOption[]>('vscode.java.resolveMainClass', folder?.uri.toString())) ?? [];
      let pick: MainClassOption | undefined = mains[0];
      if (mains.length > 1) {
        const chosen = await vscode.window.showQuickPick(mains.map((m) => ({ label: m.mainClass, description: m.projectName, m })), { placeHolder: 'Main class to profile' });
        pick = chosen?.m;
      }
      if (pick) {
        cfg.mainClass = pick.mainClass;
        cfg.projectName ??= pick.projectName;
      }
    }
    const main = cfg.mainClass;
    const isFileOrJar = !main || /\.(java|jar)$/i.test(main) || cfg.jar !== undefined;
    const wantsClasspath = !cfg.classPaths || cfg.classPaths.some((c) => c.startsWith('$'));
    if (main && !isFileOrJar && wantsClasspath) {
      const cp = await exec<[string[], string[]]>('vscode.java.resolveClasspath', main, cfg.projectName);
      if (cp) {
        const keep = (cfg.classPaths ?? []).filter((c) => !c.startsWith('$'));
        cfg.modulePaths = [...(cfg.modulePaths ?? []), ...cp[0]];
        cfg.classPaths = [...keep, ...cp[1]];
      }
    }
    if (!cfg.javaExec && !cfg.javaHome && main) {
      const java = await exec<string>('vscode.java.resolveJavaExecutable', main, cfg.projectName);
      if (java) cfg.javaExec = java;
    }
  } catch (e) {
    log(`HeapLens: the Java extension could not resolve the launch (${(e as Error).message}); using the configuration's fields as given`);
  }
}
