// The read-only custom editor for *.heaplens files: the same views as the panel. The page fetches the file's bytes
// itself (controller.ts showFile): the host reads only the file's `meta` (load.ts loadProfileMeta), never the whole
// profile. A profile that the agent is still writing (it rewrites the file about once a second) is followed as it
// changes: each change has the page fetch it again, the newest only.
import * as path from 'path';
import * as vscode from 'vscode';
import { loadProfileMeta, parseProfile, profileText } from '../../core/profile/load';
import { WebviewController } from './controller';

export const EDITOR_VIEW_TYPE = 'heaplens.profileEditor';

class ProfileDocument implements vscode.CustomDocument {
  constructor(readonly uri: vscode.Uri) {}
  dispose(): void {
    // nothing held
  }
}

export class ProfileEditorProvider implements vscode.CustomReadonlyEditorProvider<ProfileDocument> {
  constructor(private readonly extensionUri: vscode.Uri, private readonly log: (line: string) => void) {}

  openCustomDocument(uri: vscode.Uri): ProfileDocument {
    return new ProfileDocument(uri);
  }

  async resolveCustomEditor(doc: ProfileDocument, panel: vscode.WebviewPanel): Promise<void> {
    const title = path.basename(doc.uri.fsPath);
    // a file on another file system (not `file:`) is read here and sent as a message, as before the fetch
    const local = doc.uri.scheme === 'file';
    const ctl = new WebviewController(panel.webview, this.extensionUri, { title, live: false, log: this.log, file: doc.uri.fsPath, fileUri: local ? doc.uri : undefined });
    const load = async (): Promise<void> => {
      try {
        if (!local) {
          const profile = parseProfile(profileText(await vscode.workspace.fs.readFile(doc.uri)));
          ctl.show(profile, { live: !profile.file.meta.final, minMs: 1000 });
          ctl.status(profile.file.meta.final ? '' : 'the JVM is still writing this profile: following it', !profile.file.meta.final);
          return;
        }
        const meta = loadProfileMeta(doc.uri.fsPath);
        const final = meta.final === true;
        ctl.showFile(meta, { live: !final, minMs: 1000 });
        if (!final) ctl.status('the JVM is still writing this profile: following it', true);
        else ctl.status('', false);
      } catch (e) {
        // a file caught mid-rewrite is not an error worth a dialog: the next change brings a whole one
        this.log(`${title}: ${(e as Error).message}`);
        ctl.status(`cannot read ${title}: ${(e as Error).message}`);
      }
    };
    await load();
    const dir = vscode.Uri.file(path.dirname(doc.uri.fsPath));
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, path.basename(doc.uri.fsPath)));
    panel.onDidDispose(() => {
      watcher.dispose();
      ctl.dispose();
    });
    const reload = (): void => void load();
    watcher.onDidChange(reload);
    watcher.onDidCreate(reload);
  }
}
