// Binds one webview (a panel or a custom editor) to the HeapLens view app: its HTML, the profile it
// shows, and the webview's requests, which the extension decides on (open source, export, snapshot,
// choose a baseline).
import { defaultTree, TreeKind, withTree } from '../../core/profile/modes';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { collapsedText } from '../../core/export/collapsed';
import { cpuExportText } from '../../core/export/cpu-export';
import { loadProfile } from '../../core/profile/load';
import { trustedProfile } from '../../core/profile/trusted';
import { speedscope } from '../../core/export/speedscope';
import { pprofGzip } from '../../core/export/pprof-file';
import { Meta, Profile, ProfileFile } from '../../core/profile/types';
import { HostMessage, isWebviewMessage, WebviewMessage } from '../../core/protocol/webview-protocol';
import { panelHtml } from './html';
import { profileMessage } from './profile-message';
import { HeapViewData } from '../heap/view-data';
import { openSource } from './source';
import { COMMANDS } from '../commands';
import { snapshots } from '../launch/snapshots';
import { requestDumpAtNextRun } from '../launch/dump-next-run';
import { profilePicks, savedProfiles } from './profile-picks';

export interface ControllerOptions {
  title: string;
  live: boolean;
  /** the live session's snapshot request (absent for saved profiles) */
  snapshot?: (gc?: boolean) => void;
  log?: (line: string) => void;
  /** the file shown, when it is one (not offered as its own baseline) */
  file?: string;
  /** the file as a URI: its folder is a resource root, so that the page can fetch it (showFile) */
  fileUri?: vscode.Uri;
  /** the Heap view asked for the paths from GC roots to a class */
  heapPaths?: (className: string) => void;
}

export function fileOf(p: Profile | ProfileFile): ProfileFile {
  return 'format' in p ? p : p.file;
}

export class WebviewController implements vscode.Disposable {
  private ready = false;
  private profile?: ProfileFile;
  /** the profile as shown (indexed), when the caller had it so: the first tree is built from it */
  private loaded?: Profile;
  /** whether the webview has been sent a profile since it (re)loaded: only that first one carries a built tree */
  private painted = false;
  private baseline?: { profile: ProfileFile; title: string };
  private pending?: ReturnType<typeof setTimeout>;
  private lastSent = 0;
  private readonly subscriptions: vscode.Disposable[] = [];
  private heap?: { data: HeapViewData; reveal: boolean };
  private method?: HostMessage & { type: 'showMethod' };
  /** a saved file the page fetches itself (showFile): the host holds only its meta, and parses it on demand */
  private fetched?: { meta: Meta; url: string };
  /** the page could not fetch the file (a remote file system): it is sent as a message from then on */
  private fetchFailed = false;

  constructor(private readonly webview: vscode.Webview, extensionUri: vscode.Uri, private options: ControllerOptions) {
    const dist = vscode.Uri.joinPath(extensionUri, 'dist');
    const folder = options.fileUri && vscode.Uri.file(path.dirname(options.fileUri.fsPath));
    webview.options = { enableScripts: true, localResourceRoots: folder ? [dist, folder] : [dist] };
    webview.html = panelHtml({
      script: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      style: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
      codicons: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicons', 'codicon.css')).toString(),
      cspSource: webview.cspSource,
      title: options.title,
      // the page starts fetching the file as it loads; the host's first message (showFile) names the same URI
      profileUrl: options.fileUri && webview.asWebviewUri(options.fileUri).toString(),
    });
    this.subscriptions.push(webview.onDidReceiveMessage((m: unknown) => {
      if (isWebviewMessage(m)) void this.handle(m);
    }));
  }

  get title(): string {
    return this.options.title;
  }

  /** Shows a profile; live updates are throttled (at most one every `minMs`), the newest wins. */
  show(profile: Profile | ProfileFile, opts: { live?: boolean; title?: string; minMs?: number } = {}): void {
    this.profile = fileOf(profile);
    this.loaded = 'format' in profile ? undefined : profile;
    this.fetched = undefined;
    this.queue(opts);
  }

  private queue(opts: { live?: boolean; title?: string; minMs?: number }): void {
    if (opts.live !== undefined) this.options.live = opts.live;
    if (opts.title) this.options.title = opts.title;
    if (!this.ready || this.pending) return;
    const wait = (opts.minMs ?? 0) - (Date.now() - this.lastSent);
    if (wait <= 0) this.sendProfile();
    else this.pending = setTimeout(() => {
      this.pending = undefined;
      this.sendProfile();
    }, wait);
  }

  /**
   * Shows the saved file of the options (`fileUri`) by having the page fetch its bytes (docs/views.md, "Loading: a saved
   * profile fetched by the page"): no parse here, and no text through the message channel. `meta`: the file's, read
   * cheaply (load.ts loadProfileMeta). Each call has the page fetch the file again (a file still written).
   */
  showFile(meta: Meta, opts: { live?: boolean; minMs?: number } = {}): void {
    const uri = this.options.fileUri;
    if (!uri) throw new Error('showFile needs the options\' fileUri');
    if (this.fetchFailed) {
      this.show(loadProfile(uri.fsPath), opts);
      return;
    }
    this.fetched = { meta, url: this.webview.asWebviewUri(uri).toString() };
    this.profile = undefined;
    this.loaded = undefined;
    this.queue(opts);
  }

  /** Shows one method's callers and callees (kept until the webview is ready; sent after the profile). */
  showMethod(frame: { class: string; method: string; desc: string }): void {
    this.method = { type: 'showMethod', view: 'butterfly', frame };
    this.post(this.method);
  }

  /** Shows a heap dump's analysis in the Heap view (kept until the webview is ready). */
  showHeap(data: HeapViewData, reveal = true): void {
    this.heap = { data, reveal };
    this.post({ type: 'heap', heap: data, reveal });
  }

  status(text: string, live?: boolean): void {
    if (live !== undefined) this.options.live = live;
    this.post({ type: 'status', text, live });
  }

  private sendProfile(): void {
    if (this.fetched) {
      this.lastSent = Date.now();
      this.painted = true;
      this.post({ type: 'profile', url: this.fetched.url, title: this.options.title, live: this.options.live, keepState: true });
      return;
    }
    if (!this.profile) return;
    this.lastSent = Date.now();
    // a page that paints afresh gets the first tree built here, as the HTML report does (profile-message.ts); an
    // update of a page already drawn gets the text, which it parses (large ones in its load worker) under its own
    // options: docs/views.md, "Loading: the panels' built first tree"
    const build = !this.painted;
    this.painted = true;
    this.post(profileMessage(this.loaded ?? trustedProfile(this.profile), { title: this.options.title, live: this.options.live, build }));
  }

  private post(msg: HostMessage): void {
    if (this.ready) void this.webview.postMessage(msg);
  }

  private async handle(msg: WebviewMessage): Promise<void> {
    switch (msg.type) {
      case 'ready':
        // a webview that (re)loads (a hidden panel shown again) paints afresh
        this.ready = true;
        this.painted = false;
        this.sendProfile();
        if (this.baseline) this.post({ type: 'baseline', ...this.baseline });
        if (this.heap) this.post({ type: 'heap', heap: this.heap.data, reveal: this.heap.reveal });
        if (this.method) this.post(this.method);
        return;
      case 'fetchFailed':
        this.fetchFailedOnce(msg.message);
        return;
      case 'heapPaths':
        if (this.options.heapPaths) this.options.heapPaths(msg.className);
        else await vscode.commands.executeCommand(COMMANDS.showRetention, { className: msg.className });
        return;
      case 'heapDump':
        await vscode.commands.executeCommand(COMMANDS.takeHeapDump);
        return;
      case 'navigate':
        await openSource(msg.frame);
        return;
      case 'whyAlive':
        await whyAlive(msg.className, dumpAtExit(this.profile ?? this.fetched), (this.profile ?? this.fetched)?.meta?.final === true && !this.options.live);
        return;
      case 'snapshot':
        if (this.options.snapshot) this.options.snapshot(msg.gc === true);
        else void vscode.window.showInformationMessage('HeapLens: snapshots are taken from a running "Profile Memory" session.');
        return;
      case 'export':
        await this.export(msg.format, msg.metric, msg.tree);
        return;
      case 'pickBaseline':
        await this.pickBaseline();
        return;
    }
  }

  /** The page could not fetch the file: one line in the log, and the file goes as a message, as before the fetch. */
  private fetchFailedOnce(message: string): void {
    if (!this.fetched || !this.options.fileUri) return;
    this.options.log?.(`${this.options.title}: the page could not fetch the file (${message}); sending it as a message`);
    this.fetchFailed = true;
    try {
      this.show(loadProfile(this.options.fileUri.fsPath));
    } catch (e) {
      this.status(`cannot read ${this.options.title}: ${(e as Error).message}`);
    }
  }

  /** The whole profile, parsed here only when a request needs it (an export) for a file the page fetched. */
  private wholeProfile(): ProfileFile | undefined {
    if (!this.profile && this.fetched && this.options.fileUri) {
      try {
        this.profile = loadProfile(this.options.fileUri.fsPath).file;
      } catch (e) {
        void vscode.window.showErrorMessage(`HeapLens: ${(e as Error).message}`);
      }
    }
    return this.profile;
  }

  private async export(format: 'collapsed' | 'speedscope' | 'pprof', metric: 'allocations' | 'objects' | 'bytes' | 'arrays' | 'elements' | 'samples', tree?: TreeKind): Promise<void> {
    const file = this.wholeProfile();
    if (!file) return;
    if (format === 'pprof') return this.exportPprof(tree);
    if (metric === 'samples' && !file.threadsProfile?.threads.some((t) => t.samples > 0)) {
      void vscode.window.showErrorMessage('HeapLens: this profile has no CPU samples to export.');
      return;
    }
    const stem = this.options.title.replace(/\.heaplens$/, '').replace(/[^\w.-]+/g, '_') || 'profile';
    const name = format === 'collapsed' ? `${stem}.${metric}.collapsed` : `${stem}.${metric}.speedscope.json`;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: format === 'collapsed' ? { 'Collapsed stacks': ['collapsed', 'txt'] } : { 'Speedscope JSON': ['json'] },
      saveLabel: 'Export',
    });
    if (!target) return;
    const loaded = trustedProfile(file);
    const profile = withTree(loaded, tree ?? defaultTree(loaded));
    const text = metric === 'samples' ? cpuExportText(file.threadsProfile, format, stem)
      : format === 'collapsed' ? collapsedText(profile, { metric, threads: false }) : JSON.stringify(speedscope(profile, { metric, name: stem }));
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    this.options.log?.(`exported ${format} (${metric}) to ${target.fsPath}`);
    void vscode.window.showInformationMessage(`HeapLens: exported to ${vscode.workspace.asRelativePath(target)}`);
  }

  /** Both allocations and bytes in one gzipped pprof file (core/export/pprof.ts). */
  private async exportPprof(tree?: TreeKind): Promise<void> {
    const file = this.wholeProfile();
    if (!file) return;
    const stem = this.options.title.replace(/\.heaplens$/, '').replace(/[^\w.-]+/g, '_') || 'profile';
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, `${stem}.pb.gz`) : undefined,
      filters: { 'pprof (gzipped)': ['gz', 'pprof'] }, saveLabel: 'Export',
    });
    if (!target) return;
    const loaded = trustedProfile(file);
    await vscode.workspace.fs.writeFile(target, pprofGzip(withTree(loaded, tree ?? defaultTree(loaded))));
    this.options.log?.(`exported pprof to ${target.fsPath}`);
    void vscode.window.showInformationMessage(`HeapLens: exported to ${vscode.workspace.asRelativePath(target)}`);
  }

  /** The Diff tab's "compare with": this window's snapshots, the workspace's saved profiles, or a file. */
  private async pickBaseline(): Promise<void> {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    const shown = this.options.file;
    const picks = profilePicks({
      live: [], snapshots: snapshots().filter((s) => s.file !== shown),
      saved: savedProfiles(folders).filter((f) => f.file !== shown), now: Date.now(), relative: (f) => vscode.workspace.asRelativePath(f),
    });
    const pick = await vscode.window.showQuickPick(picks, { placeHolder: 'The baseline profile (before) to compare this one with', matchOnDescription: true });
    let file = pick?.pick === 'file' ? pick.file : undefined;
    if (pick?.pick === 'browse') {
      const uris = await vscode.window.showOpenDialog({
        canSelectMany: false, filters: { 'HeapLens profiles': ['heaplens'] }, openLabel: 'Compare with',
        title: 'HeapLens: the baseline profile (before)',
      });
      file = uris?.[0]?.fsPath;
    }
    if (!file || !fs.existsSync(file)) return;
    try {
      this.baseline = { profile: loadProfile(file).file, title: path.basename(file) };
      this.post({ type: 'baseline', ...this.baseline });
    } catch (e) {
      void vscode.window.showErrorMessage(`HeapLens: ${(e as Error).message}`);
    }
  }

  dispose(): void {
    if (this.pending) clearTimeout(this.pending);
    for (const s of this.subscriptions) s.dispose();
  }
}

/**
 * "Why is it still alive?" on a leak suspect: heap retention (heap dumps) is the `heaplens.showRetention` command,
 * contributed separately; without it the user is told so instead of nothing happening.
 */
/** The heap dump the agent wrote when this profile's program ended (launch field / option heapDumpAtExit), if it is there. */
export function dumpAtExit(profile: { meta?: Meta } | undefined): string | undefined {
  const f = profile?.meta?.options?.heapDumpAtExit;
  return typeof f === 'string' && fs.existsSync(f) ? f : undefined;
}

export async function whyAlive(className: string, file?: string, finished = false): Promise<void> {
  if (!file && finished) {
    // a finished program cannot be dumped any more: say what the answer needs, and offer it for the next run
    const NEXT = 'Dump the Heap at the End of the Next Run';
    const OPEN = 'Open a Heap Dump…';
    const pick = await vscode.window.showInformationMessage(
      `HeapLens: what keeps ${className} alive is read from a heap dump, and this profile's program ended without one. `
      + 'The next "Profile Memory" run can dump the heap as it ends; its profile then answers the question.', NEXT, OPEN);
    if (pick === NEXT) {
      requestDumpAtNextRun();
      vscode.window.setStatusBarMessage('HeapLens: the next run dumps the heap when it ends', 8000);
    } else if (pick === OPEN) {
      await vscode.commands.executeCommand(COMMANDS.showRetention, { className });
    }
    return;
  }
  const commands = await vscode.commands.getCommands(true);
  if (!commands.includes(COMMANDS.showRetention)) {
    void vscode.window.showInformationMessage(`HeapLens: heap retention is not available in this build, so what keeps ${className} alive cannot be shown.`);
    return;
  }
  // the program's own dump at exit when there is one; else showRetention dumps the live session or asks for a dump
  await vscode.commands.executeCommand(COMMANDS.showRetention, file ? { className, file } : { className });
}
