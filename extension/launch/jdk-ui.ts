// The JDK in VS Code: the `heaplens.javaHome` setting, the check before a launch (an error with the way to
// fix it, never a silent failure), "HeapLens: Check the Java Runtime" and "Choose a JDK…".
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { HeapLensConfig } from './config';
import { checkJdk, JdkCheck, JdkChecks, JDK_ORDER, MIN_JAVA, describeSource } from './jdk';
import { COMMANDS } from '../commands';
import { setting } from '../settings';

export const JAVA_HOME_SETTING = 'heaplens.javaHome';
export const SETTING_LABEL = 'from the "heaplens.javaHome" setting';
const CHOOSE = 'Choose a JDK…';
const OPEN_SETTINGS = 'Open Settings';

/** The setting, with ~ and ${workspaceFolder} expanded; undefined when empty. */
export function javaHomeSetting(folder: vscode.WorkspaceFolder | undefined): string | undefined {
  const raw = setting('javaHome', folder?.uri).trim();
  if (!raw) return undefined;
  const ws = folder?.uri.scheme === 'file' ? folder.uri.fsPath : vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  let p = raw.replace(/^~(?=$|[\\/])/, os.homedir());
  if (ws) p = p.replace(/\$\{workspaceFolder\}/g, ws);
  return path.resolve(ws ?? os.homedir(), p);
}

/** A configuration without javaHome/javaExec gets the setting's JDK (before the Java extension picks one). */
export function applyJavaHomeSetting(folder: vscode.WorkspaceFolder | undefined, cfg: HeapLensConfig): boolean {
  if (cfg.javaHome || cfg.javaExec) return false;
  const home = javaHomeSetting(folder);
  if (!home) return false;
  cfg.javaHome = home;
  return true;
}

/** The launch's environment as far as finding java goes (JAVA_HOME/PATH from "env" count). */
export function checkEnv(cfg: HeapLensConfig): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(cfg.env ?? {})) {
    if (v === null || v === undefined) delete env[k];
    else env[k] = String(v);
  }
  return env;
}

/** The launch configuration whose own "javaHome"/"javaExec" named the JDK that failed (the setting cannot override it). */
export interface LaunchJdkFix { folder: vscode.WorkspaceFolder | undefined; name: string; field: 'javaHome' | 'javaExec' }

/** Shows a JDK problem with its two ways out; when the launch configuration named the JDK, the fix goes there. */
export async function showJdkProblem(message: string, fix?: LaunchJdkFix): Promise<void> {
  const pick = await vscode.window.showErrorMessage(`HeapLens: ${message}`, CHOOSE, fix ? 'Open launch.json' : OPEN_SETTINGS);
  if (pick === CHOOSE) await chooseJdk(fix);
  else if (pick === OPEN_SETTINGS) await vscode.commands.executeCommand('workbench.action.openSettings', JAVA_HOME_SETTING);
  else if (pick) await vscode.commands.executeCommand('workbench.action.debug.configure');
}

/** Sets "javaHome" (and drops "javaExec") in the named heaplens configuration of launch.json; false when it is not there. */
export async function fixLaunchConfiguration(fix: LaunchJdkFix, jdk: string): Promise<boolean> {
  const launch = vscode.workspace.getConfiguration('launch', fix.folder?.uri);
  const configs = launch.get<Array<Record<string, unknown>>>('configurations') ?? [];
  const at = configs.findIndex((c) => c.type === 'heaplens' && c.name === fix.name);
  if (at < 0) return false;
  const { javaExec: _dropped, ...rest } = configs[at];
  const next = configs.map((c, i) => (i === at ? { ...rest, javaHome: jdk } : c));
  const info = launch.inspect('configurations');
  const target = info?.workspaceFolderValue !== undefined ? vscode.ConfigurationTarget.WorkspaceFolder
    : info?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await launch.update('configurations', next, target);
  return true;
}

/**
 * A folder picker; a JDK that passes the check becomes the user's heaplens.javaHome, or, when a launch
 * configuration's own "javaHome"/"javaExec" failed, that configuration's "javaHome" (which wins over the setting).
 */
export async function chooseJdk(fix?: LaunchJdkFix): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFolders: true, canSelectFiles: false, canSelectMany: false,
    openLabel: 'Use this JDK', title: `HeapLens: the folder of a JDK ${MIN_JAVA} or newer (it holds bin/java)`,
  });
  const folder = picked?.[0]?.fsPath;
  if (!folder) return undefined;
  const r = checkJdk({ javaHome: folder }, process.env);
  if (!r.ok) {
    await showJdkProblem(r.message);
    return undefined;
  }
  if (fix) {
    if (await fixLaunchConfiguration(fix, folder)) {
      void vscode.window.showInformationMessage(`HeapLens: the launch configuration "${fix.name}" now runs Java ${r.jdk.version} ("javaHome": ${folder}).`);
      return folder;
    }
    void vscode.window.showWarningMessage(`HeapLens: "${fix.name}" is not in launch.json (a configuration made on the fly): the JDK goes into the "heaplens.javaHome" setting instead.`);
  }
  // always the user settings: a JDK is a property of this machine, not of the workspace
  await vscode.workspace.getConfiguration('heaplens').update('javaHome', folder, vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(`HeapLens will run Java ${r.jdk.version} from ${folder} ("heaplens.javaHome" in your user settings).`);
  return folder;
}

/** One line on what a launch without javaHome/javaExec would run (the walkthrough's "Check" button). */
export function describeCheck(r: JdkCheck, fromSetting: boolean): string {
  if (!r.ok) return r.message;
  const from = fromSetting ? SETTING_LABEL : describeSource(r.jdk.source);
  return `HeapLens will run Java ${r.jdk.version}: ${r.jdk.java} (${from}) for a launch configuration without "javaHome". The order HeapLens looks in: ${JDK_ORDER}.`;
}

/** "HeapLens: Check the Java Runtime": what a launch would run; the fix when it cannot. */
export function registerJdkCommands(ctx: vscode.ExtensionContext, checks: JdkChecks, log: (m: string) => void): void {
  ctx.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.checkJava, async () => {
      const folder = vscode.workspace.workspaceFolders?.[0];
      const cfg: HeapLensConfig = { type: 'heaplens', request: 'launch', name: 'check' } as HeapLensConfig;
      const fromSetting = applyJavaHomeSetting(folder, cfg);
      const r = checks.check(cfg, process.env, fromSetting ? SETTING_LABEL : undefined);
      const text = describeCheck(r, fromSetting);
      log(`Java check: ${text}`);
      if (!r.ok) {
        await showJdkProblem(r.message);
        return r;
      }
      const pick = await vscode.window.showInformationMessage(text, CHOOSE);
      if (pick === CHOOSE) await chooseJdk();
      return r;
    }),
    vscode.commands.registerCommand(COMMANDS.chooseJdk, () => chooseJdk()),
  );
}
