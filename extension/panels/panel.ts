// The "HeapLens" panel: one per profile source, opened by the command or by a live session through
// showProfile(); live updates are throttled and the view keeps its zoom and selection across them.
import * as vscode from 'vscode';
import { Profile, ProfileFile } from '../../core/profile/types';
import { WebviewController } from './controller';

export interface ShowOptions {
  /** a live session's profile: updates follow */
  live?: boolean;
  title?: string;
  /** the same key shows in the same panel (default: the title) */
  key?: string;
  /** minimum milliseconds between two updates sent to the webview (default 500 when live) */
  throttleMs?: number;
  snapshot?: (gc?: boolean) => void;
}

/** What a caller (the live session) holds on to. */
export interface ProfileView {
  update(profile: Profile | ProfileFile): void;
  status(text: string, live?: boolean): void;
  readonly disposed: boolean;
  onDidDispose(cb: () => void): void;
  reveal(): void;
  /** the Callers & callees view on one method (matched by class, name and descriptor) */
  showMethod(frame: { class: string; method: string; desc: string }): void;
  dispose(): void;
}

export class ProfilePanels {
  private readonly open = new Map<string, ProfileView>();

  constructor(private readonly extensionUri: vscode.Uri, private readonly log: (line: string) => void) {}

  /** The open view of a key, if any. */
  get(key: string): ProfileView | undefined {
    const v = this.open.get(key);
    return v && !v.disposed ? v : undefined;
  }

  showProfile(profile: Profile | ProfileFile, opts: ShowOptions = {}): ProfileView {
    const title = opts.title ?? 'HeapLens';
    const key = opts.key ?? title;
    const have = this.open.get(key);
    if (have && !have.disposed) {
      have.update(profile);
      have.reveal();
      return have;
    }
    const panel = vscode.window.createWebviewPanel('heaplens.profile', `HeapLens: ${title}`, vscode.ViewColumn.Active, {
      enableScripts: true, retainContextWhenHidden: false, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist')],
    });
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'dist', 'codicons', 'codicon.svg');
    const ctl = new WebviewController(panel.webview, this.extensionUri, { title, live: opts.live ?? false, snapshot: opts.snapshot, log: this.log });
    const throttle = opts.throttleMs ?? (opts.live ? 500 : 0);
    ctl.show(profile, { minMs: throttle });
    let disposed = false;
    const listeners: Array<() => void> = [];
    panel.onDidDispose(() => {
      disposed = true;
      ctl.dispose();
      this.open.delete(key);
      for (const l of listeners) l();
    });
    const view: ProfileView = {
      update: (p) => ctl.show(p, { minMs: throttle }),
      status: (text, live) => ctl.status(text, live),
      get disposed() {
        return disposed;
      },
      onDidDispose: (cb) => listeners.push(cb),
      reveal: () => panel.reveal(undefined, true),
      showMethod: (frame) => ctl.showMethod(frame),
      dispose: () => panel.dispose(),
    };
    this.open.set(key, view);
    return view;
  }
}
