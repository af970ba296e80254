// Debug configuration provider for `heaplens`: defaults, workspace trust, the Java extension's
// resolution, and the internal block the adapter needs (profile folder, agent location).
import * as path from 'path';
import * as vscode from 'vscode';
import { HeapLensConfig } from './config';
import { newConfiguration } from './new-config';
import { takeDumpAtNextRun } from './dump-next-run';
import { resolveWithJavaExtension } from './java-extension';
import { JdkChecks } from './jdk';
import { applyJavaHomeSetting, checkEnv, LaunchJdkFix, SETTING_LABEL, showJdkProblem } from './jdk-ui';
import { resolveProjectLaunch } from './project-launch';
import { findProject } from '../project/project';

export const RESTRICTED = 'HeapLens does not run programs in a restricted workspace. Trust this workspace (Workspaces: Manage Workspace Trust) to profile it.';

export const INITIAL: vscode.DebugConfiguration[] = [
  { type: 'heaplens', request: 'launch', name: 'Profile Memory', mainClass: '${file}' },
];

export class HeapLensConfigurationProvider implements vscode.DebugConfigurationProvider {
  constructor(private readonly ctx: vscode.ExtensionContext, private readonly log: (m: string) => void,
    private readonly jdks = new JdkChecks(), private readonly reportError: (m: string) => void = () => undefined,
    private readonly output?: vscode.OutputChannel) {}

  /** Add Configuration…: one configuration (new-config.ts), named apart from the launch.json's others. */
  provideDebugConfigurations(folder?: vscode.WorkspaceFolder): vscode.DebugConfiguration[] {
    const doc = vscode.window.activeTextEditor?.document;
    const ws = folder ?? (doc ? vscode.workspace.getWorkspaceFolder(doc.uri) : undefined) ?? vscode.workspace.workspaceFolders?.[0];
    const taken = (vscode.workspace.getConfiguration('launch', ws?.uri).get<Array<{ name?: string }>>('configurations') ?? []).map((c) => String(c.name));
    return [newConfiguration({
      folder: ws?.uri.scheme === 'file' ? ws.uri.fsPath : undefined,
      javaFile: doc?.languageId === 'java' ? { name: doc.fileName, text: doc.getText() } : undefined,
      taken,
    }) as vscode.DebugConfiguration];
  }

  /** The Run and Debug view's dynamic list: the current file and attaching to a running JVM. */
  dynamicConfigurations(): vscode.DebugConfiguration[] {
    const configs: vscode.DebugConfiguration[] = [];
    const doc = vscode.window.activeTextEditor?.document;
    if (doc?.languageId === 'java') {
      configs.push({ type: 'heaplens', request: 'launch', name: `Profile Memory: ${path.basename(doc.fileName)}`, mainClass: doc.fileName });
    }
    configs.push({ type: 'heaplens', request: 'attach', name: 'Profile Memory: Attach to a running JVM', processId: '${command:heaplens.pickJavaProcess}' });
    return configs;
  }

  resolveDebugConfiguration(_folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): vscode.DebugConfiguration | undefined {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showErrorMessage(RESTRICTED);
      return undefined;
    }
    if (!config.type && !config.request && !config.name) {
      const doc = vscode.window.activeTextEditor?.document;
      const ws = _folder ?? vscode.workspace.workspaceFolders?.[0];
      // F5 in a Maven or Gradle project: the project's class path and main class (project-launch.ts)
      if (doc?.languageId !== 'java' && ws?.uri.scheme === 'file' && findProject(ws.uri.fsPath, ws.uri.fsPath)) {
        return { type: 'heaplens', request: 'launch', name: 'Profile Memory: Project' };
      }
      if (doc?.languageId !== 'java') {
        void vscode.window.showErrorMessage('HeapLens: open a Java file, or add a "Profile Memory" configuration to launch.json.');
        return undefined;
      }
      return { type: 'heaplens', request: 'launch', name: 'Profile Memory: Current File', mainClass: doc.fileName };
    }
    config.type = 'heaplens';
    config.request ??= 'launch';
    config.name ??= 'Profile Memory';
    if (config.request === 'attach' && (config.processId === undefined || config.processId === '')) {
      config.processId = '${command:heaplens.pickJavaProcess}';
    }
    return config;
  }

  async resolveDebugConfigurationWithSubstitutedVariables(folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): Promise<vscode.DebugConfiguration | undefined> {
    const cfg = config as unknown as HeapLensConfig;
    if (config.request === 'attach' && !config.processId) return undefined; // the picker was dismissed
    // the configuration's own JDK: a failure is fixed in launch.json, since it wins over the setting
    const own: LaunchJdkFix | undefined = cfg.javaExec ? { folder, name: config.name, field: 'javaExec' }
      : cfg.javaHome ? { folder, name: config.name, field: 'javaHome' } : undefined;
    // heaplens.javaHome before the Java extension: a JDK the user chose for HeapLens wins over the project's
    const fromSetting = applyJavaHomeSetting(folder, cfg);
    await resolveWithJavaExtension(folder, cfg, this.log);
    let java: string | undefined;
    if (config.request !== 'attach') {
      // A missing or too old JDK is found here, at first use, with the way to fix it (not as a JVM crash)
      const jdk = this.jdks.check(cfg, checkEnv(cfg), fromSetting ? SETTING_LABEL : undefined);
      if (!jdk.ok) {
        this.log(`error: ${jdk.message}`);
        this.reportError(jdk.message);
        void showJdkProblem(jdk.message, own);
        return undefined;
      }
      this.log(`HeapLens: Java ${jdk.jdk.version} (${jdk.jdk.java})`);
      java = jdk.jdk.java;
    }
    const ws = folder ?? vscode.workspace.workspaceFolders?.[0];
    const wsPath = ws && ws.uri.scheme === 'file' ? ws.uri.fsPath : undefined;
    if (java && this.output && !(await resolveProjectLaunch(cfg, java, wsPath, this.output, this.reportError, path.join(this.ctx.globalStorageUri.fsPath, 'cache')))) {
      return undefined;
    }
    cfg.__heaplens = {
      profileDir: wsPath ? path.join(wsPath, '.heaplens') : path.join(this.ctx.globalStorageUri.fsPath, 'profiles'),
      distDir: this.ctx.asAbsolutePath('dist'),
      workspaceFolder: wsPath,
      trusted: vscode.workspace.isTrusted,
      client: `vscode ${vscode.version}`,
    };
    // "Why is it still alive?" asked for a heap dump at the end of this run (dump-next-run.ts)
    const dump = config.request === 'launch' ? takeDumpAtNextRun(cfg, cfg.__heaplens.profileDir) : undefined;
    if (dump) {
      cfg.heapDumpAtExit = dump;
      this.log(`HeapLens: this run dumps the heap when it ends (${dump}), as asked from "Why is it still alive?"`);
    }
    return config;
  }
}
