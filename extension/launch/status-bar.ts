// The status bar item shown while a HeapLens session profiles: objects/s, total objects, paused state.
import * as vscode from 'vscode';
import type { StatsBody } from './adapter';
import { COMMANDS } from '../commands';

export function compact(n: number): string {
  if (n < 1000) return String(Math.round(n));
  const units = ['k', 'M', 'G', 'T'];
  let v = n;
  let i = -1;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)}${units[i]}`;
}

export class ProfilingStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('heaplens.status', vscode.StatusBarAlignment.Left, 50);
  private readonly sessions = new Map<string, { name: string; stats?: StatsBody }>();
  private current: string | undefined;

  constructor() {
    this.item.name = 'HeapLens profiling';
  }

  started(session: vscode.DebugSession): void {
    this.sessions.set(session.id, { name: session.name });
    this.current = session.id;
    this.render();
  }

  update(session: vscode.DebugSession, stats: StatsBody): void {
    const s = this.sessions.get(session.id) ?? { name: session.name };
    s.stats = stats;
    this.sessions.set(session.id, s);
    this.current = session.id;
    this.render();
  }

  ended(session: vscode.DebugSession): void {
    this.sessions.delete(session.id);
    if (this.current === session.id) this.current = [...this.sessions.keys()].pop();
    this.render();
  }

  /** The stats shown now (for tests and commands). */
  get shown(): StatsBody | undefined {
    return this.current ? this.sessions.get(this.current)?.stats : undefined;
  }

  private render(): void {
    const s = this.current ? this.sessions.get(this.current) : undefined;
    void vscode.commands.executeCommand('setContext', 'heaplens.profiling', !!s);
    void vscode.commands.executeCommand('setContext', 'heaplens.paused', !!s?.stats?.paused);
    if (!s) {
      this.item.hide();
      return;
    }
    const st = s.stats;
    if (!st) {
      this.item.text = '$(loading~spin) HeapLens: starting…';
    } else if (st.mode === 'accounts') {
      // no call tree in this mode: the accounts' own counts, once the first accounts snapshot is written
      const a = st.accounted;
      this.item.text = a
        ? `$(pulse) HeapLens: ${compact(a.objects)} accounted${a.liveObjects !== undefined ? ` · ${compact(a.liveObjects)} live` : ''}`
        : '$(pulse) HeapLens: waiting for the first accounts snapshot';
    } else if (st.paused) {
      this.item.text = `$(debug-pause) HeapLens: paused · ${compact(st.objects)} objects`;
    } else {
      const mode = st.mode && st.mode !== 'exact' ? ` ${st.mode}` : '';
      this.item.text = `$(pulse) HeapLens${mode}: ${compact(st.objectsPerSecond)} obj/s · ${compact(st.objects)} objects`;
    }
    this.item.tooltip = st
      ? [
        `HeapLens — ${s.name}`,
        `Mode: ${st.mode ?? 'exact'}${st.mode === 'sampled' ? ' (counts are estimates)' : ''} — "HeapLens: Switch Profiling Mode" changes it`,
        ...((st.mode ?? 'exact') === 'exact' ? ['Exact counts cost about 2× CPU; for everyday use, "sampled" costs about 1.05× (estimates with their intervals)'] : []),
        ...(st.accounted ? [`${st.accounted.objects.toLocaleString()} objects (~${compact(st.accounted.bytes)}B) charged to ${st.accounted.accounts} accounts`
          + (st.accounted.liveObjects !== undefined ? `, ${st.accounted.liveObjects.toLocaleString()} live (~${compact(st.accounted.liveBytes ?? 0)}B)` : '')] : []),
        `${st.objects.toLocaleString()} objects${typeof st.arrays === 'number' ? ` and ${st.arrays.toLocaleString()} arrays` : ' (arrays not counted)'}, ~${compact(st.bytes)}B in all (estimated)`,
        `${compact(st.objectsPerSecond)} objects/s, ~${compact(st.bytesPerSecond)}B/s`,
        `${st.nodes.toLocaleString()} call-tree nodes${st.coalesced ? `, ${st.coalesced} updates coalesced` : ''}`,
        'Click for the live flame tree and the session\'s actions',
      ].join('\n')
      : `HeapLens — ${s.name}: waiting for the agent`;
    this.item.command = COMMANDS.sessionActions;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
