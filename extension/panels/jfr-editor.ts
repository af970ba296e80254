// Opening a .jfr in VS Code (custom editor, also "Open With…"): the recording is read by the JDK-side reader in
// the agent jar with the JDK HeapLens would launch (heaplens.javaHome, JAVA_HOME, PATH), turned into a profile
// (extension/jfr), saved next to the workspace's profiles (.heaplens/ in the first folder, else the extension's
// storage) and shown in the profile views; the CodeLens and hot lines then follow it like any opened profile.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { readRecording } from '../jfr/read-recording';
import { checkJdk } from '../launch/jdk';
import { javaHomeSetting } from '../launch/jdk-ui';
import { validateProfile } from '../../core/profile/parse';
import { WebviewController } from './controller';
import { withFirstSection } from '../../core/profile/first-section';

export const JFR_VIEW_TYPE = 'heaplens.jfrEditor';

/** Build output folders of the usual layouts: they let the reader size the program's own classes (--cp). */
const CLASS_DIRS = ['target/classes', 'build/classes/java/main', 'build/classes/kotlin/main', 'bin', 'out/production'];

class JfrDocument implements vscode.CustomDocument {
  constructor(readonly uri: vscode.Uri) {}
  dispose(): void {
    // nothing held
  }
}

export class JfrEditorProvider implements vscode.CustomReadonlyEditorProvider<JfrDocument> {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: (line: string) => void,
    private readonly useProfile: (file: string) => void,
  ) {}

  openCustomDocument(uri: vscode.Uri): JfrDocument {
    return new JfrDocument(uri);
  }

  async resolveCustomEditor(doc: JfrDocument, panel: vscode.WebviewPanel): Promise<void> {
    const title = path.basename(doc.uri.fsPath);
    const ctl = new WebviewController(panel.webview, this.context.extensionUri, { title, live: false, log: this.log });
    panel.onDidDispose(() => ctl.dispose());
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri) ?? vscode.workspace.workspaceFolders?.[0];
    const jdk = checkJdk({ javaHome: javaHomeSetting(folder) }, process.env);
    if (!jdk.ok) {
      ctl.status(`cannot read ${title}: ${jdk.message}`);
      void vscode.window.showErrorMessage(`HeapLens: cannot read ${title}: ${jdk.message}`);
      return;
    }
    ctl.status(`reading ${title} with Java ${jdk.jdk.version}…`, true);
    try {
      const t0 = Date.now();
      const classpath = classDirs(folder).join(path.delimiter);
      const local = await localCopy(doc.uri, this.context.globalStorageUri.fsPath);
      const profile = await readRecording(local, {
        java: jdk.jdk.java, agentJar: vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'heaplens-agent.jar').fsPath, classpath,
      });
      const out = this.profileFile(folder, title);
      fs.mkdirSync(path.dirname(out), { recursive: true });
      // the first section right after meta: the editor paints from it before the rest is in (docs/format.md)
      fs.writeFileSync(out + '.tmp', JSON.stringify(withFirstSection(profile)));
      fs.renameSync(out + '.tmp', out);
      this.log(`${title}: imported in ${Date.now() - t0} ms to ${out}; ${profile.transform.warnings.join('; ') || 'no warnings'}`);
      ctl.show(validateProfile(profile), { live: false });
      const ev = profile.meta.imported?.events ?? {};
      ctl.status(`JFR recording: ${Object.entries(ev).map(([k, n]) => `${n.toLocaleString('en-US')} ${k.replace(/^jdk\./, '')}`).join(', ') || 'no samples'}`);
      this.useProfile(out);
    } catch (e) {
      const msg = (e as Error).message;
      this.log(`${title}: ${msg}`);
      ctl.status(`cannot read ${title}: ${msg}`);
      void vscode.window.showErrorMessage(`HeapLens: cannot read ${title}: ${msg}`);
    }
  }

  /** .heaplens/NAME.jfr.heaplens in the recording's workspace folder, else in the extension's storage. */
  private profileFile(folder: vscode.WorkspaceFolder | undefined, name: string): string {
    const base = folder?.uri.scheme === 'file' ? path.join(folder.uri.fsPath, '.heaplens') : this.context.globalStorageUri.fsPath;
    return path.join(base, `${name}.heaplens`);
  }
}

/** The recording as a file the reader's JVM can open: itself, or a copy when it lives elsewhere (another file system provider). */
async function localCopy(uri: vscode.Uri, storage: string): Promise<string> {
  if (uri.scheme === 'file') return uri.fsPath;
  const copy = path.join(storage, 'jfr', path.basename(uri.path));
  fs.mkdirSync(path.dirname(copy), { recursive: true });
  fs.writeFileSync(copy, await vscode.workspace.fs.readFile(uri));
  return copy;
}

function classDirs(folder: vscode.WorkspaceFolder | undefined): string[] {
  if (folder?.uri.scheme !== 'file') return [];
  return CLASS_DIRS.map((d) => path.join(folder.uri.fsPath, d)).filter((d) => fs.existsSync(d));
}

export function registerJfrEditor(context: vscode.ExtensionContext, output: vscode.OutputChannel, useProfile: (file: string) => void): void {
  const log = (line: string): void => output.appendLine(`[jfr] ${line}`);
  context.subscriptions.push(vscode.window.registerCustomEditorProvider(JFR_VIEW_TYPE, new JfrEditorProvider(context, log, useProfile), {
    webviewOptions: { retainContextWhenHidden: false },
    supportsMultipleEditorsPerDocument: true,
  }));
}
