// The Heap panel and the heap commands: "Take Heap Dump" (the running session's agent writes an HPROF file),
// "Open Heap Dump", and `heaplens.showRetention` ({ className }): the paths from GC roots to that class, from a
// fresh dump of the running session, else the last dump, else one the user picks.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { HeapAnalysis } from '../heap/analysis';
import { heapViewData, HeapViewData } from '../heap/view-data';
import { LaunchApi } from '../launch/register';
import { WebviewController } from './controller';

export interface RetentionResult {
  file: string;
  className?: string;
  /** the paths as `root -> step -> … -> class` lines */
  paths: string[];
  instances: number;
}

export interface HeapApi {
  /** the dump shown last (taken or opened) */
  lastDump(): string | undefined;
  /** what the Heap view shows now (for tests) */
  shown(): HeapViewData | undefined;
}

class HeapPanel {
  private panel?: vscode.WebviewPanel;
  private ctl?: WebviewController;
  private analysis?: { file: string; mtime: number; heap: HeapAnalysis };
  data?: HeapViewData;

  constructor(private readonly extensionUri: vscode.Uri, private readonly log: (l: string) => void) {}

  private open(): WebviewController {
    if (this.panel && this.ctl) {
      this.panel.reveal(undefined, false);
      return this.ctl;
    }
    const panel = vscode.window.createWebviewPanel('heaplens.heap', 'HeapLens: Heap', vscode.ViewColumn.Active, {
      enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist')],
    });
    const ctl = new WebviewController(panel.webview, this.extensionUri, {
      title: 'Heap', live: false, log: this.log,
      heapPaths: (className) => void this.show(this.analysis!.file, className),
    });
    panel.onDidDispose(() => {
      ctl.dispose();
      this.panel = undefined;
      this.ctl = undefined;
    });
    this.panel = panel;
    this.ctl = ctl;
    return ctl;
  }

  /** Reads the dump (once per file version) in the extension host. */
  analyse(file: string): HeapAnalysis {
    const mtime = fs.statSync(file).mtimeMs;
    if (this.analysis?.file === file && this.analysis.mtime === mtime) return this.analysis.heap;
    this.analysis?.heap.close();
    const t = Date.now();
    const heap = HeapAnalysis.open(file);
    this.log(`heap dump ${file}: ${heap.objectCount} objects read in ${Date.now() - t} ms`);
    this.analysis = { file, mtime, heap };
    return heap;
  }

  async show(file: string, className?: string): Promise<HeapViewData> {
    const data = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `HeapLens: reading ${path.basename(file)}` },
      async () => heapViewData(this.analyse(file), file, path.basename(file), className));
    this.data = data;
    this.open().showHeap(data, true);
    return data;
  }

  dispose(): void {
    this.analysis?.heap.close();
    this.panel?.dispose();
  }
}

export function registerHeap(context: vscode.ExtensionContext, output: vscode.OutputChannel, launch: LaunchApi): HeapApi {
  const log = (line: string): void => output.appendLine(`[heap] ${line}`);
  const panel = new HeapPanel(context.extensionUri, log);
  let last: string | undefined;

  /** Asks the running session's agent for a dump next to its profile; undefined when no session runs. */
  const takeDump = async (): Promise<string | undefined> => {
    const session = launch.session();
    if (!session) return undefined;
    const info = (await session.customRequest('heaplens.info')) as { profile?: string };
    const dir = info.profile ? path.dirname(info.profile) : fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-heap-'));
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
    const file = path.join(dir, `heap-${stamp}.hprof`);
    const r = (await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'HeapLens: dumping the heap' },
      () => session.customRequest('heaplens.heapDump', { file }))) as { file: string; bytes: number; millis: number };
    log(`heap dump written to ${r.file} (${r.bytes} bytes, ${r.millis} ms)`);
    last = r.file;
    return r.file;
  };

  const pickDump = async (): Promise<string | undefined> => {
    const uris = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'HPROF heap dumps': ['hprof'] }, openLabel: 'Open Heap Dump' });
    return uris?.[0]?.fsPath;
  };

  const fail = (e: unknown): undefined => {
    void vscode.window.showErrorMessage(`HeapLens: ${(e as Error).message}`);
    return undefined;
  };

  context.subscriptions.push(
    { dispose: () => panel.dispose() },
    vscode.commands.registerCommand('heaplens.takeHeapDump', async () => {
      try {
        const file = await takeDump();
        if (!file) {
          void vscode.window.showWarningMessage('HeapLens: no profiling session is running. Start a "Profile Memory" configuration first, or open a dump with "HeapLens: Open Heap Dump".');
          return undefined;
        }
        await panel.show(file);
        return file;
      } catch (e) {
        return fail(e);
      }
    }),
    vscode.commands.registerCommand('heaplens.openHeapDump', async (uri?: vscode.Uri) => {
      const file = uri instanceof vscode.Uri ? uri.fsPath : await pickDump();
      if (!file) return undefined;
      try {
        last = file;
        await panel.show(file);
        return file;
      } catch (e) {
        return fail(e);
      }
    }),
    vscode.commands.registerCommand('heaplens.showRetention', async (args?: { className?: string; file?: string }): Promise<RetentionResult | undefined> => {
      try {
        let file = args?.file;
        if (!file) file = (await takeDump()) ?? last;
        if (!file) file = await pickDump();
        if (!file) return undefined;
        last = file;
        let className = args?.className;
        if (!className) {
          const rows = panel.analyse(file).histogram();
          const pick = await vscode.window.showQuickPick(rows.slice(0, 2000).map((r) => ({
            label: r.className, description: `${r.objects} objects, ${r.retainedBytes} bytes retained`,
          })), { placeHolder: 'Class whose objects you want to trace to the GC roots', matchOnDescription: false });
          className = pick?.label;
          if (!className) return undefined;
        }
        const data = await panel.show(file, className);
        return {
          file, className: data.paths?.className ?? className, instances: data.paths?.instances ?? 0,
          paths: (data.paths?.paths ?? []).map((p) => p.join(' -> ')),
        };
      } catch (e) {
        return fail(e);
      }
    }),
  );
  return { lastDump: () => last, shown: () => panel.data };
}
