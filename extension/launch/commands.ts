// HeapLens commands around profiling sessions: pause/resume/snapshot/GC/reset, open a profile, profile a
// `java` launch configuration, and the JVM picker used by attach configurations.
import * as path from 'path';
import * as vscode from 'vscode';
import { findJcmd, listJvms } from './attach';
import { javaHomeSetting } from './jdk-ui';
import { RecentProfiles } from './recent';
import { COMMANDS } from '../commands';
import { freezeSnapshot } from './snapshots';

/** The modes as the "Switch Profiling Mode" picker offers them (costs: docs/modes.md). */
const MODE_PICKS: Array<vscode.QuickPickItem & { mode: string }> = [
  { mode: 'exact', label: 'exact', description: 'call trees + every allocation', detail: 'Per-thread method call trees, exact counts. The highest overhead.' },
  { mode: 'sites', label: 'sites', description: 'every allocation per site, no call tree', detail: 'Exact counts per allocation site and thread; calling traces for a sample.' },
  { mode: 'sampled', label: 'sampled', description: 'low overhead, estimates: for everyday use', detail: 'HotSpot\'s heap sampler picks an allocation every ~64 KiB on average (agent option sampleBytes), with its calling trace; each type\'s estimate has its interval.' },
  { mode: 'paused', label: 'paused', description: 'record nothing', detail: 'The classes run their original code until the next switch.' },
];

/** The HeapLens session the command applies to: the active one, else the most recent one. */
export function targetSession(sessions: ReadonlyMap<string, vscode.DebugSession>): vscode.DebugSession | undefined {
  const active = vscode.debug.activeDebugSession;
  if (active?.type === 'heaplens') return active;
  return [...sessions.values()].pop();
}

async function request(sessions: ReadonlyMap<string, vscode.DebugSession>, op: string, args?: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const s = targetSession(sessions);
  if (!s) {
    void vscode.window.showWarningMessage('HeapLens: no profiling session is running. Start a "Profile Memory" configuration first.');
    return undefined;
  }
  try {
    return ((await s.customRequest(`heaplens.${op}`, args)) ?? {}) as Record<string, unknown>;
  } catch (e) {
    void vscode.window.showErrorMessage(`HeapLens: ${op} failed: ${(e as Error).message}`);
    return undefined;
  }
}

export async function openProfile(recent: RecentProfiles): Promise<void> {
  type Item = vscode.QuickPickItem & { file?: string };
  const items: Item[] = recent.list().map((r) => ({
    label: `$(file) ${path.basename(r.file)}`, description: r.label, detail: r.file, file: r.file,
  }));
  items.push({ label: '$(folder-opened) Browse…', description: 'choose a .heaplens file' });
  const pick = await vscode.window.showQuickPick(items, { placeHolder: items.length > 1 ? 'Recent profiles' : 'No recent profiles yet', matchOnDetail: true });
  if (!pick) return;
  let file = pick.file;
  if (!file) {
    const uris = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'HeapLens profiles': ['heaplens'] }, openLabel: 'Open Profile' });
    file = uris?.[0]?.fsPath;
  }
  if (!file) return;
  await recent.add(file, 'opened');
  await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file));
}

/** Runs a `java` launch configuration of the workspace under HeapLens. */
export async function profileJavaConfiguration(): Promise<void> {
  type Item = vscode.QuickPickItem & { folder: vscode.WorkspaceFolder | undefined; config: vscode.DebugConfiguration };
  const items: Item[] = [];
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const folder of folders.length ? folders : [undefined]) {
    const configs = vscode.workspace.getConfiguration('launch', folder).get<vscode.DebugConfiguration[]>('configurations') ?? [];
    for (const c of configs) {
      if (c.type === 'java' && (c.request ?? 'launch') === 'launch') items.push({ label: c.name, description: folder?.name, folder, config: c });
    }
  }
  if (items.length === 0) {
    void vscode.window.showWarningMessage('HeapLens: there is no "java" launch configuration in this workspace to profile. Add a "Profile Memory" configuration instead.');
    return;
  }
  const pick = items.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { placeHolder: 'Java launch configuration to profile' });
  if (!pick) return;
  const config: vscode.DebugConfiguration = { ...pick.config, type: 'heaplens', request: 'launch', name: `Profile Memory: ${pick.config.name}` };
  // a session HeapLens starts itself can keep VS Code's Run and Debug view (empty Variables, Watch, Call Stack) shut
  await vscode.debug.startDebugging(pick.folder, config, { suppressDebugView: true });
}

/**
 * The attach picker. It runs where the extension runs: on the remote host or in the container when the window is
 * connected to one (the extension is a workspace extension, docs/launch.md "Remote hosts and containers"), so jcmd
 * lists that machine's JVMs; only the quick pick itself is shown by the local UI. jcmd comes from the
 * heaplens.javaHome setting's JDK (a container's JDK is often not on PATH), else JAVA_HOME or PATH.
 */
export async function pickJavaProcess(): Promise<string | undefined> {
  let jvms;
  const where = vscode.env.remoteName ? ` on the ${vscode.env.remoteName} host this window is connected to` : '';
  try {
    const home = javaHomeSetting(vscode.workspace.workspaceFolders?.[0]);
    const java = home ? path.join(home, 'bin', process.platform === 'win32' ? 'java.exe' : 'java') : undefined;
    jvms = await listJvms(findJcmd(java, process.env));
  } catch (e) {
    void vscode.window.showErrorMessage(`HeapLens: cannot list Java processes${where}: ${(e as Error).message}`);
    return undefined;
  }
  const mine = process.pid;
  const items = jvms.filter((j) => j.pid !== mine).map((j) => ({ label: String(j.pid), description: j.description, pid: j.pid }));
  if (items.length === 0) {
    void vscode.window.showWarningMessage(`HeapLens: no running Java process found${where} (jcmd -l lists none; it shows only JVMs of the same user).`);
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Java process to profile (the HeapLens agent is loaded into it)', matchOnDescription: true });
  return pick ? String(pick.pid) : undefined;
}

export function registerCommands(ctx: vscode.ExtensionContext, sessions: ReadonlyMap<string, vscode.DebugSession>, recent: RecentProfiles): void {
  const reg = (id: string, fn: (...a: unknown[]) => unknown): void => { ctx.subscriptions.push(vscode.commands.registerCommand(id, fn)); };
  reg(COMMANDS.pauseProfiling, () => request(sessions, 'pause'));
  reg(COMMANDS.resumeProfiling, () => request(sessions, 'resume'));
  reg(COMMANDS.resetProfiling, () => request(sessions, 'reset'));
  reg(COMMANDS.switchMode, async (mode?: unknown) => {
    const picked = typeof mode === 'string' ? mode : (await vscode.window.showQuickPick(MODE_PICKS, {
      placeHolder: 'Switch the profiling mode (the data so far is kept; the profile\'s timeline marks the switch)',
    }))?.mode;
    if (!picked) return;
    const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `HeapLens: switching to ${picked}…` },
      () => request(sessions, 'mode', { mode: picked }));
    if (!r) return;
    const how = typeof r.retransformed === 'number' ? ` (${r.retransformed} classes re-instrumented in ${String(r.retransformMillis)} ms)` : '';
    vscode.window.setStatusBarMessage(`HeapLens: now profiling in ${picked} mode${how}`, 6000);
  });
  reg(COMMANDS.forceGc, async () => {
    if (await request(sessions, 'gc')) vscode.window.setStatusBarMessage('HeapLens: garbage collection requested', 3000);
  });
  // `{ gc: true }` as argument: the agent runs a full GC first, so memory-account snapshots show only live objects
  reg(COMMANDS.takeSnapshot, async (arg?: unknown) => {
    const gc = typeof arg === 'object' && arg !== null && (arg as { gc?: unknown }).gc === true;
    const session = targetSession(sessions);
    const r = await request(sessions, 'snapshot', gc ? { gc: true } : undefined);
    const written = typeof r?.file === 'string' ? r.file : undefined;
    if (!written || !session) return;
    // the agent goes on rewriting its file: the snapshot is a copy under its own name (launch/snapshots.ts)
    let snap;
    try {
      snap = freezeSnapshot(written, session.id);
    } catch (e) {
      void vscode.window.showErrorMessage(`HeapLens: ${(e as Error).message}`);
      return;
    }
    await recent.add(snap.file, `snapshot ${snap.n} of ${session.name}`);
    const open = await vscode.window.showInformationMessage(`HeapLens: snapshot ${snap.n} saved as ${vscode.workspace.asRelativePath(snap.file)} (compare it in the Diff tab)`, 'Open');
    if (open) await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(snap.file), 'heaplens.profileEditor');
  });
  reg(COMMANDS.openProfile, () => openProfile(recent));
  reg(COMMANDS.profileJavaConfiguration, () => profileJavaConfiguration());
  reg(COMMANDS.pickJavaProcess, () => pickJavaProcess());
}
