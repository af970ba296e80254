// The Heap panel and the heap commands: "Take Heap Dump" (the running session's agent writes an HPROF file),
// "Open Heap Dump", and `heaplens.showRetention` ({ className }): the paths from GC roots to that class, from a
// fresh dump of the running session, else the last dump, else one the user picks. The dump is analysed in a
// worker thread (extension/heap/heap-worker.ts), never in the extension host's own thread.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { HeapProgress } from '../heap/analysis';
import type { HeapViewData } from '../heap/view-data';
import { HeapCancelled, HeapWorker } from '../heap/worker-host';
import { LaunchApi } from '../launch/register';
import { WebviewController } from './controller';
import { COMMANDS } from '../commands';

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

/** Where each phase ends on the progress bar (percent); the passes move within their span by bytes read. */
const PHASES: Record<HeapProgress['phase'], { label: string; from: number; to: number }> = {
  index: { label: 'reading the dump (pass 1 of 2)', from: 0, to: 40 },
  graph: { label: 'building the reference graph (pass 2 of 2)', from: 40, to: 80 },
  dominators: { label: 'computing dominators and retained sizes', from: 80, to: 95 },
  paths: { label: 'finding the shortest paths from GC roots', from: 95, to: 99 },
};

function progressText(p: HeapProgress): { message: string; percent: number } {
  const ph = PHASES[p.phase];
  if (!p.total) return { message: ph.label, percent: ph.from };
  const mb = (b: number): string => (b / 1048576).toFixed(0);
  return { message: `${ph.label}: ${mb(p.bytes)} of ${mb(p.total)} MB`, percent: ph.from + ((ph.to - ph.from) * p.bytes) / p.total };
}

class HeapPanel {
  private panel?: vscode.WebviewPanel;
  private ctl?: WebviewController;
  private analysis?: { file: string; mtime: number; heap: HeapWorker };
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
      heapPaths: (className) => {
        const file = this.data?.file;
        if (file) this.show(file, className).catch((e) => reportFailure(e));
      },
    });
    panel.onDidDispose(() => {
      ctl.dispose();
      this.panel = undefined;
      this.ctl = undefined;
      this.release();                          // closing the view frees the worker and its memory
    });
    this.panel = panel;
    this.ctl = ctl;
    return ctl;
  }

  /** The worker holding `file` (started once per file version; another dump replaces it). */
  private worker(file: string): HeapWorker {
    const mtime = fs.statSync(file).mtimeMs;
    const a = this.analysis;
    if (a?.file === file && a.mtime === mtime && a.heap.usable) return a.heap;
    this.release();
    const t = Date.now();
    const heap = new HeapWorker(vscode.Uri.joinPath(this.extensionUri, 'dist', 'heap-worker.js').fsPath, file);
    heap.opened.then((d) => this.log(`heap dump ${file}: ${d.objects} objects, ${d.references} references read in ${Date.now() - t} ms (worker thread)`),
      (e: Error) => this.log(`heap dump ${file}: ${e.message}`));
    this.analysis = { file, mtime, heap };
    return heap;
  }

  private release(): void {
    this.analysis?.heap.dispose();
    this.analysis = undefined;
  }

  /** Frees the worker when no Heap view shows its dump (e.g. the class pick was dismissed before any view). */
  releaseUnlessShown(): void {
    if (!this.panel) this.release();
  }

  /** Runs one request on the dump's worker under a cancellable progress notification (cancel ends the worker). */
  async withWorker<T>(file: string, run: (heap: HeapWorker) => Promise<T>): Promise<T> {
    const heap = this.worker(file);
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `HeapLens: ${path.basename(file)}`, cancellable: true },
      async (progress, token) => {
        let shown = 0;
        heap.onProgress = (p) => {
          const { message, percent } = progressText(p);
          progress.report({ message, increment: Math.max(0, percent - shown) });
          shown = Math.max(shown, percent);
        };
        const sub = token.onCancellationRequested(() => heap.cancel());
        try {
          return await run(heap);
        } finally {
          sub.dispose();
          heap.onProgress = undefined;
        }
      });
  }

  async show(file: string, className?: string): Promise<HeapViewData> {
    const data = await this.withWorker(file, (heap) => heap.view(path.basename(file), className));
    this.data = data;
    this.open().showHeap(data, true);
    return data;
  }

  dispose(): void {
    this.release();
    this.panel?.dispose();
  }
}

/** A failure becomes an error message; a cancel only a note in the status bar. */
function reportFailure(e: unknown): undefined {
  if (e instanceof HeapCancelled) vscode.window.setStatusBarMessage(`HeapLens: ${e.message}`, 5000);
  else void vscode.window.showErrorMessage(`HeapLens: ${(e as Error).message}`);
  return undefined;
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

  const fail = reportFailure;

  context.subscriptions.push(
    { dispose: () => panel.dispose() },
    vscode.commands.registerCommand(COMMANDS.takeHeapDump, async () => {
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
    vscode.commands.registerCommand(COMMANDS.openHeapDump, async (uri?: vscode.Uri) => {
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
    vscode.commands.registerCommand(COMMANDS.showRetention, async (args?: { className?: string; file?: string }): Promise<RetentionResult | undefined> => {
      try {
        let file = args?.file;
        if (!file) file = (await takeDump()) ?? last;
        if (!file) file = await pickDump();
        if (!file) return undefined;
        last = file;
        let className = args?.className;
        if (!className) {
          const { rows } = await panel.withWorker(file, (heap) => heap.histogram(2000));
          const pick = await vscode.window.showQuickPick(rows.map((r) => ({
            label: r.className, description: `${r.objects} objects, ${r.retainedBytes} bytes retained`,
          })), { placeHolder: 'Class whose objects you want to trace to the GC roots', matchOnDescription: false });
          className = pick?.label;
          if (!className) {
            panel.releaseUnlessShown();
            return undefined;
          }
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
