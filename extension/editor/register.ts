// Wires the editor features: allocation CodeLens, hot allocation lines, the profile they show (status bar
// item and picker), the toggle commands, heaplens.focusMethod and heaplens.revealFrame. Returns the API
// the views and the tests use.
import { registerBudgets } from './budgets';
import { registerTestLenses } from './test-lenses';
import { registerLifetimeHints } from './lifetime-hints';
import * as path from 'path';
import * as vscode from 'vscode';
import { LaunchApi } from '../launch/register';
import { focusOnMethods } from '../../core/views/focus-tree';
import { PanelsApi } from '../panels/register';
import { focusMethod, registerFocusHandler, FocusHandler } from './focus';
import { HotLines, HotLineSettings, ShownHotLine } from './hot-lines';
import { AllocationLenses, isJavaDocument, LensSettings } from './lenses';
import { Outlines, RangeSource } from './outlines';
import { FocusRequest, FOCUS_COMMAND, isFocusRequest } from './refs';
import { SourceFrame, sourceMap } from './source-map';
import { ProfileSources } from './sources';
import { COMMANDS } from '../commands';
import { setting, updateSetting } from '../settings';

export interface EditorApi {
  /** makes a saved profile the one the editor annotations show (the views call it when they show a file) */
  useProfile(file: string): void;
  activeProfile(): { id: string; label: string } | undefined;
  /** "open source" for any view: the workspace file (or the Java extension's) at the frame's line */
  revealFrame(frame: SourceFrame): Promise<boolean>;
  /** the views' "show this method in the flame tree" */
  registerFocusHandler(h: FocusHandler): vscode.Disposable;
  /** what the hot-line decorations show in a document (tests) */
  hotLines(uri: vscode.Uri): ShownHotLine[];
  /** where a document's method ranges came from (tests) */
  outlineSource(doc: vscode.TextDocument): Promise<'parser' | 'symbols' | undefined>;
  /** the last focus requests the fallback handled (tests) */
  readonly focusRequests: FocusRequest[];
  /** the one profile source the editor, the views and the status bar follow */
  readonly sources: ProfileSources;
}

function lensSettings(): LensSettings {
  return { enabled: setting('codeLens.enabled'), inclusive: setting('codeLens.inclusive') === 'tooltip' ? 'tooltip' : 'lens' };
}

function hotLineSettings(): HotLineSettings {
  return {
    enabled: setting('hotLines.enabled'),
    count: Math.max(1, Math.min(100, Math.round(setting('hotLines.count')))),
    metric: setting('hotLines.metric') === 'bytes' ? 'bytes' : 'count',
    scope: setting('hotLines.scope') === 'all' ? 'all' : 'application',
    afterText: setting('hotLines.afterText'),
  };
}

async function toggle(key: 'codeLens.enabled' | 'hotLines.enabled'): Promise<void> {
  const now = setting(key);
  await updateSetting(key, !now);
  vscode.window.setStatusBarMessage(`HeapLens: ${key.startsWith('codeLens') ? 'allocation CodeLens' : 'hot allocation lines'} ${now ? 'off' : 'on'}`, 3000);
}

export function registerEditor(ctx: vscode.ExtensionContext, output: vscode.OutputChannel, deps: { launch?: LaunchApi; views?: PanelsApi }): EditorApi {
  const log = (m: string): void => output.appendLine(m);
  // live updates: at most once per interval, and never more than a fifth of the time spent recomputing
  let lastCostMs = 0;
  const sources = new ProfileSources(deps.launch, () => Math.max(250, setting('editor.liveUpdateInterval'), 5 * lastCostMs), log);
  const outlines = new Outlines(() => setting('codeLens.methodRanges') as RangeSource, log,
    vscode.Uri.joinPath(ctx.extensionUri, 'dist', 'outline-worker.js').fsPath);
  const lenses = new AllocationLenses(sources, outlines, lensSettings);
  const hot = new HotLines(vscode.Uri.joinPath(ctx.extensionUri, 'media'), sources, hotLineSettings);
  const status = vscode.window.createStatusBarItem('heaplens.editorProfile', vscode.StatusBarAlignment.Right, 90);
  status.name = 'HeapLens: profile shown in the editor';
  status.command = COMMANDS.selectEditorProfile;
  const focusRequests: FocusRequest[] = [];

  const updateStatus = (): void => {
    const src = sources.active();
    const editor = vscode.window.activeTextEditor;
    if (!src || !editor || !isJavaDocument(editor.document)) {
      status.hide();
      return;
    }
    status.text = `$(flame) ${src.label}`;
    status.tooltip = `HeapLens: the allocation CodeLens and hot lines show ${src.label}. Click to choose another profile or turn them off.`;
    status.show();
  };
  const refresh = (): void => {
    const t0 = Date.now();
    lenses.refresh();
    hot.update();
    updateStatus();
    lastCostMs = Date.now() - t0;
  };

  // Without a handler from the views: the HeapLens panel with a profile focused on the method(s), all their
  // contexts merged (core/views/focus-tree.ts).
  const fallbackFocus = async (req: FocusRequest): Promise<boolean> => {
    focusRequests.push(req);
    const src = sources.all().find((s) => (req.source.kind === 'file' && s.ref.kind === 'file' && s.ref.file === req.source.file)
      || (req.source.kind === 'live' && s.ref.kind === 'live' && s.ref.sessionId === req.source.sessionId));
    const profile = src?.profile();
    const name = `${req.frames[0].class.replace(/^.*\./, '')}.${req.frames[0].method}`;
    if (!src || !profile || !deps.views) {
      void vscode.window.showWarningMessage(`HeapLens: cannot show ${name}: its profile is no longer open.`);
      return false;
    }
    const wanted = new Set(req.frames.map((f) => `${f.class}.${f.method}${f.desc}`));
    const ids = [...profile.methods.values()].filter((m) => wanted.has(`${m.class}.${m.name}${m.desc}`))
      .sort((a, b) => Number(a.name.startsWith('lambda$')) - Number(b.name.startsWith('lambda$'))).map((m) => m.id);
    const focused = focusOnMethods(profile, ids, `${name}: all contexts`);
    if (!focused) {
      void vscode.window.showInformationMessage(`HeapLens: ${name} never ran in ${src.label}.`);
      return false;
    }
    deps.views.showProfile(focused, { title: `${name} · ${src.label}`, key: `focus:${src.id}` });
    return true;
  };

  // "Callers and callees" from a lens: the whole profile in its own panel, on the Callers & callees view of the method
  const callersCallees = (req: unknown): boolean => {
    if (!isFocusRequest(req)) {
      void vscode.window.showWarningMessage('HeapLens: "Callers and callees" needs a method (use the CodeLens over a method).');
      return false;
    }
    const src = sources.all().find((s) => (req.source.kind === 'file' && s.ref.kind === 'file' && s.ref.file === req.source.file)
      || (req.source.kind === 'live' && s.ref.kind === 'live' && s.ref.sessionId === req.source.sessionId));
    const profile = src?.profile();
    const f = req.frames[0];
    const name = `${f.class.replace(/^.*\./, '')}.${f.method}`;
    if (!src || !profile || !deps.views) {
      void vscode.window.showWarningMessage(`HeapLens: cannot show ${name}: its profile is no longer open.`);
      return false;
    }
    const view = deps.views.showProfile(profile, { title: `Callers & callees · ${src.label}`, key: `callers:${src.id}` });
    view.showMethod({ class: f.class, method: f.method, desc: f.desc });
    return true;
  };

  ctx.subscriptions.push(...registerBudgets(sources));
  ctx.subscriptions.push(...registerLifetimeHints(sources));
  ctx.subscriptions.push(...registerTestLenses(ctx, output, (file) => void sources.useFile(path.resolve(file)), deps.launch?.errors));
  ctx.subscriptions.push(
    sources, outlines, lenses, hot, status,
    vscode.languages.registerCodeLensProvider([{ language: 'java' }, { pattern: '**/*.java' }], lenses),
    sources.onDidChange(refresh),
    vscode.window.onDidChangeVisibleTextEditors(() => hot.update()),
    vscode.window.onDidChangeActiveTextEditor(updateStatus),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('heaplens.codeLens') || e.affectsConfiguration('heaplens.hotLines') || e.affectsConfiguration('heaplens.editor')) refresh();
    }),
    vscode.commands.registerCommand(FOCUS_COMMAND, async (req: unknown) => {
      if (!isFocusRequest(req)) {
        void vscode.window.showWarningMessage('HeapLens: focusMethod needs a method (use the CodeLens or a hot line\'s hover).');
        return false;
      }
      return focusMethod(req, fallbackFocus);
    }),
    vscode.commands.registerCommand(COMMANDS.showCallersCallees, callersCallees),
    vscode.commands.registerCommand(COMMANDS.revealFrame, (frame: SourceFrame) => sourceMap.reveal(frame)),
    vscode.commands.registerCommand(COMMANDS.toggleCodeLens, () => toggle('codeLens.enabled')),
    vscode.commands.registerCommand(COMMANDS.toggleHotLines, () => toggle('hotLines.enabled')),
    vscode.commands.registerCommand(COMMANDS.selectEditorProfile, async () => {
      type Item = vscode.QuickPickItem & { run: () => unknown };
      const active = sources.active();
      const items: Item[] = sources.all().map((s) => ({
        label: `${s === active ? '$(check) ' : ''}${s.label}`, description: s.ref.kind === 'file' ? vscode.workspace.asRelativePath(s.ref.file) : 'live session',
        run: () => sources.select(s.id),
      }));
      items.push({ label: '$(folder-opened) Open a saved profile…', run: async () => {
        const uris = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'HeapLens profiles': ['heaplens'] } });
        if (uris?.[0]) sources.useFile(uris[0].fsPath);
      } });
      if (active) items.push({ label: `$(close) Stop showing ${active.label}`, run: () => sources.remove(active.id) });
      items.push({ label: `$(eye-closed) Toggle allocation CodeLens`, run: () => toggle('codeLens.enabled') });
      items.push({ label: `$(eye-closed) Toggle hot allocation lines`, run: () => toggle('hotLines.enabled') });
      const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Profile shown by the allocation CodeLens and hot lines' });
      await pick?.run();
    }),
  );
  refresh();
  return {
    useProfile: (file) => void sources.useFile(path.resolve(file)),
    activeProfile: () => {
      const s = sources.active();
      return s ? { id: s.id, label: s.label } : undefined;
    },
    revealFrame: (frame) => sourceMap.reveal(frame),
    registerFocusHandler: (h) => registerFocusHandler(h),
    hotLines: (uri) => hot.shownIn(uri),
    outlineSource: async (doc) => (await outlines.get(doc))?.source,
    focusRequests,
    sources,
  };
}
