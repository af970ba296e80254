// Wires the `heaplens` debug type into VS Code: configuration provider, inline adapter, custom events
// (status bar, saved profiles, errors), commands. Returns what tests and other features may query.
import * as vscode from 'vscode';
import { LiveSession } from '../channel/session';
import { EVENTS, HeapLensDebugSession, StatsBody } from './adapter';
import { registerCommands, targetSession } from './commands';
import { Deadlock, deadlockSummary, deadlockText } from '../../core/profile/threads-profile';
import { JdkChecks } from './jdk';
import { registerJdkCommands } from './jdk-ui';
import { HeapLensConfigurationProvider } from './provider';
import { RecentProfiles } from './recent';
import { ProfilingStatus } from './status-bar';
import { COMMANDS } from '../commands';
import { setting } from '../settings';

export interface LaunchApi {
  recentProfiles(): string[];
  /** the live model of a running session (by vscode.DebugSession id) */
  live(sessionId: string): LiveSession | undefined;
  statusText(): string | undefined;
  lastStats(): StatsBody | undefined;
  /** error messages shown to the user, newest last (for tests) */
  errors: string[];
  /** deadlocks the agents reported (threads=true), oldest first */
  deadlocks: Deadlock[];
  /** the session commands apply to: the active HeapLens session, else the newest */
  session(): vscode.DebugSession | undefined;
  /** the running HeapLens sessions, oldest first */
  sessions(): vscode.DebugSession[];
}

export function registerLaunch(ctx: vscode.ExtensionContext, output: vscode.OutputChannel): LaunchApi {
  const log = (m: string): void => output.appendLine(m);
  const recent = new RecentProfiles(ctx.globalState);
  const status = new ProfilingStatus();
  const sessions = new Map<string, vscode.DebugSession>();
  const lives = new Map<string, LiveSession>();
  const errors: string[] = [];
  const deadlocks: Deadlock[] = [];
  const jdks = new JdkChecks();
  const provider = new HeapLensConfigurationProvider(ctx, log, jdks, (m) => errors.push(m), output);
  registerJdkCommands(ctx, jdks, log);
  ctx.subscriptions.push(
    status,
    vscode.debug.registerDebugConfigurationProvider('heaplens', provider),
    vscode.debug.registerDebugConfigurationProvider('heaplens', { provideDebugConfigurations: () => provider.dynamicConfigurations() },
      vscode.DebugConfigurationProviderTriggerKind.Dynamic),
    vscode.debug.registerDebugAdapterDescriptorFactory('heaplens', {
      createDebugAdapterDescriptor(session) {
        const adapter = new HeapLensDebugSession({ onLive: (live) => lives.set(session.id, live) });
        // A failed launch/attach is shown by VS Code itself; keep its text too (output channel, tests).
        adapter.onDidSendMessage((m) => {
          const r = m as { type?: string; command?: string; success?: boolean; message?: string };
          if (r.type === 'response' && !r.success && (r.command === 'launch' || r.command === 'attach') && r.message) {
            errors.push(r.message.replace(/^HeapLens: /, ''));
            log(`error: ${r.message}`);
          }
        });
        return new vscode.DebugAdapterInlineImplementation(adapter as unknown as vscode.DebugAdapter);
      },
    }),
    vscode.debug.onDidStartDebugSession((s) => {
      if (s.type !== 'heaplens') return;
      sessions.set(s.id, s);
      status.started(s);
    }),
    vscode.debug.onDidTerminateDebugSession((s) => {
      if (s.type !== 'heaplens') return;
      sessions.delete(s.id);
      lives.delete(s.id);
      status.ended(s);
    }),
    vscode.debug.onDidReceiveDebugSessionCustomEvent(async (e) => {
      if (e.session.type !== 'heaplens') return;
      if (e.event === EVENTS.stats) {
        status.update(e.session, e.body as StatsBody);
      } else if (e.event === EVENTS.saved) {
        const file = String(e.body.file);
        await recent.add(file, e.session.name);
        log(`profile saved: ${file}`);
        // the run's result in front of the user without a click (heaplens.openProfileWhenRunEnds); the focus stays put
        if (setting('openProfileWhenRunEnds')) {
          await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), 'heaplens.profileEditor', { preserveFocus: true, preview: false })
            .then(undefined, (err: Error) => log(`could not open ${file}: ${err.message}`));
        }
        void vscode.window.showInformationMessage(`HeapLens: profile saved to ${vscode.workspace.asRelativePath(file)}`, 'Open', 'Show All').then(async (choice) => {
          if (choice === 'Open') await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file));
          if (choice === 'Show All') await vscode.commands.executeCommand(COMMANDS.openProfile);
        });
      } else if (e.event === EVENTS.channelLost) {
        // The program runs on and its agent keeps writing the file: show that file, which the editor follows.
        lives.delete(e.session.id);
        const file = String(e.body.profile);
        log(`live channel lost (${String(e.body.reason)}): following ${file}`);
        void vscode.window.showWarningMessage(`HeapLens: the live connection to "${e.session.name}" was lost (${String(e.body.reason)}). `
          + 'The program keeps running; its profile file is shown instead and updated as the agent rewrites it.');
        await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), 'heaplens.profileEditor');
      } else if (e.event === EVENTS.deadlock) {
        const d = e.body as Deadlock;
        const key = (x: Deadlock): string => `${x.time}:${x.threads.map((t) => t.id).join(',')}`;
        if (deadlocks.some((x) => key(x) === key(d))) return;    // sent again to a client that connected late
        deadlocks.push(d);
        log(deadlockText(d));
        void vscode.window.showWarningMessage(`HeapLens: deadlock in ${e.session.name}: ${deadlockSummary(d)}`, 'Show Stacks').then((choice) => {
          if (choice) output.show(true);
        });
      } else if (e.event === EVENTS.error) {
        const message = String(e.body.message);
        errors.push(message);
        log(`error: ${message}`);
        void vscode.window.showErrorMessage(`HeapLens: ${message}`, 'Open launch.json').then((choice) => {
          if (choice) void vscode.commands.executeCommand('workbench.action.debug.configure');
        });
      }
    }),
  );
  registerCommands(ctx, sessions, recent);
  return {
    recentProfiles: () => recent.list().map((r) => r.file),
    live: (id) => lives.get(id),
    statusText: () => status.shown ? `${status.shown.objects}` : undefined,
    lastStats: () => status.shown,
    errors,
    deadlocks,
    session: () => targetSession(sessions),
    sessions: () => [...sessions.values()],
  };
}

