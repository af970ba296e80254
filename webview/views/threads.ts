// Threads: every thread with its totals (and the merge of all); selecting one shows its own tree. With the
// threads profile: CPU samples per thread, the chosen thread's CPU tree as a text outline (readable at a glance
// beside the contention figures, and by a screen reader) with "Open in flame tree" for the interactive one,
// monitor contention and deadlocks.
import { VIEW_METRICS, ViewMetric } from '../../core/views/frames';
import { bytes, num, percent } from '../../core/format';
import { AppContext, View } from '../context';
import { button, el } from './dom';
import { allocationsPatch } from './flame-tab';
import { Column, renderTable } from './table';
import { cpuTree, CpuTreeNode, LockContention, ThreadCpu, ThreadsProfile } from '../../core/profile/threads-profile';

interface ThreadRow {
  id: number;
  name: string;
  state: string;
  totals: Record<ViewMetric, number>;
}

export class ThreadsView implements View {
  readonly root: HTMLElement;
  private readonly info = el('div', { class: 'muted view-info' }, 'Select a thread to show its own flame tree (Enter or click).');
  private readonly body = el('div', { class: 'table-wrap' });
  private readonly activity = el('div', { class: 'thread-activity' });
  private cpuThread = -1;

  constructor() {
    this.root = el('section', { class: 'view view-threads', 'aria-label': 'Threads' }, this.info, this.body, this.activity);
  }

  render(ctx: AppContext): void {
    const s = ctx.state;
    const p = ctx.data.profile;
    const totalsOf = (thread: number): Record<ViewMetric, number> => {
      const t = ctx.data.tree({ thread, myCode: false, collapseRecursion: false, inverted: false });
      return Object.fromEntries(VIEW_METRICS.map((k) => [k, t.total[k][0]])) as Record<ViewMetric, number>;
    };
    const rows: ThreadRow[] = [
      { id: -1, name: 'All threads (merged)', state: `${p.threads.length} threads`, totals: totalsOf(-1) },
      ...p.threads.map((t) => ({
        id: t.id, name: t.name, state: `${t.alive ? 'alive' : 'ended'}${t.daemon ? ', daemon' : ''}`, totals: totalsOf(t.id),
      })),
    ];
    const all = rows[0].totals;
    const n = (k: ViewMetric) => (a: ThreadRow, b: ThreadRow) => a.totals[k] - b.totals[k];
    const cols: Array<Column<ThreadRow>> = [
      { key: 'name', label: 'thread', cell: (r) => r.name, compare: (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) },
      { key: 'state', label: 'state', cell: (r) => r.state },
      { key: 'objects', label: 'objects', numeric: true, cell: (r) => num(r.totals.objects), compare: n('objects') },
      { key: 'arrays', label: 'arrays', numeric: true, cell: (r) => num(r.totals.arrays), compare: n('arrays') },
      { key: 'elements', label: 'elements', numeric: true, cell: (r) => num(r.totals.elements), compare: n('elements') },
      { key: 'bytes', label: 'est. bytes', numeric: true, cell: (r) => bytes(r.totals.bytes), title: (r) => `${num(r.totals.bytes)} bytes`, compare: n('bytes') },
      { key: 'share', label: 'share (bytes)', numeric: true, cell: (r) => percent(all.bytes ? r.totals.bytes / all.bytes : 0), compare: n('bytes') },
      { key: 'calls', label: 'calls', numeric: true, cell: (r) => num(r.totals.calls), compare: n('calls') },
    ];
    renderTable(this.body, rows, cols, {
      caption: 'Threads',
      onActivate: (r) => ctx.update({ thread: r.id, zoom: [], selected: null, view: 'flame', ...allocationsPatch(ctx) }),
      isSelected: (r) => r.id === s.thread,
    });
    this.renderActivity(ctx, ctx.data.file.threadsProfile);
  }

  /** CPU samples, the CPU tree of one thread, monitors and deadlocks (agent option threads=true). */
  private renderActivity(ctx: AppContext, tp: ThreadsProfile | undefined): void {
    clear(this.activity);
    if (!tp) {
      this.activity.append(el('p', { class: 'muted' }, 'No CPU samples or monitor data: profile with threads sampling on (heaplens run --threads, or "threads": true in the launch configuration).'));
      return;
    }
    for (const d of tp.deadlocks) {
      const box = el('div', { class: 'deadlock', role: 'alert' }, el('h2', { class: 'heap-title' }, `Deadlock (${new Date(d.time).toLocaleTimeString()})`));
      for (const t of d.threads) {
        box.append(el('div', { class: 'deadlock-thread' }, `"${t.name}" holds ${t.holds.join(', ') || 'nothing'} and waits for ${t.waitsFor ?? '?'} held by "${t.heldBy ?? '?'}"`));
        box.append(el('pre', { class: 'stack' }, t.stack.map((f) => `  at ${f}`).join('\n')));
      }
      this.activity.append(box);
    }
    const running = tp.threads.filter((t) => t.samples > 0 || t.blockedCount > 0);
    if (this.cpuThread < 0 || !tp.threads.some((t) => t.id === this.cpuThread)) {
      this.cpuThread = [...tp.threads].sort((a, b) => b.samples - a.samples)[0]?.id ?? -1;
    }
    this.activity.append(el('h2', { class: 'heap-title' },
      tp.source === 'jfr' ? `CPU: JFR execution samples, every ${tp.intervalMillis} ms of each thread running Java code (${num(tp.samples)} samples)`
        : `CPU samples: every ${tp.intervalMillis} ms, charged only to threads that used CPU in the interval (${num(tp.samples)} samples)`));
    const ccols: Array<Column<ThreadCpu>> = [
      { key: 'name', label: 'thread', cell: (r) => r.name },
      { key: 'samples', label: 'CPU samples', numeric: true, cell: (r) => num(r.samples), compare: (a, b) => a.samples - b.samples },
      { key: 'cpu', label: 'CPU ms', numeric: true, cell: (r) => num(Math.round(r.cpuNanos / 1e6)), compare: (a, b) => a.cpuNanos - b.cpuNanos },
      { key: 'blocked', label: 'blocked (times)', numeric: true, cell: (r) => num(r.blockedCount), compare: (a, b) => a.blockedCount - b.blockedCount },
      { key: 'blockedMs', label: 'blocked ms', numeric: true, cell: (r) => num(r.blockedMillis), compare: (a, b) => a.blockedMillis - b.blockedMillis },
      { key: 'waited', label: 'waited (times)', numeric: true, cell: (r) => num(r.waitedCount) },
    ];
    const cpuWrap = el('div', { class: 'table-wrap compact' });
    this.activity.append(cpuWrap);
    renderTable(cpuWrap, running.length ? running : tp.threads, ccols, {
      caption: 'CPU samples per thread', sort: { key: 'samples', desc: true },
      onActivate: (r) => { this.cpuThread = r.id; this.renderActivity(ctx, tp); },
      isSelected: (r) => r.id === this.cpuThread,
    });
    const chosen = tp.threads.find((t) => t.id === this.cpuThread);
    if (chosen) {
      const tree = cpuTree(chosen.cpu);
      this.activity.append(el('h2', { class: 'heap-title' }, `CPU tree of "${chosen.name}" (samples, inclusive)`));
      const open = (thread: number): void => ctx.update({ view: 'flame', metric: 'samples', thread, zoom: [], selected: null });
      if (tree.samples) {
        this.activity.append(el('div', { class: 'toolbar cpu-actions' },
          button('Open in flame tree', 'flame', () => open(chosen.id), `Show the CPU samples of "${chosen.name}" in the Flame tree tab`),
          button('All threads in flame tree', 'flame', () => open(-1), 'Show the CPU samples of all threads merged in the Flame tree tab')));
      }
      const ul = el('ul', { class: 'cpu-tree' });
      for (const c of tree.children) ul.append(cpuItem(c, tree.samples || 1, 0));
      this.activity.append(tree.samples ? ul : el('p', { class: 'muted' }, 'No CPU samples for this thread.'));
    }
    this.activity.append(el('h2', { class: 'heap-title' }, `Monitor contention (${tp.locks.length} locks threads were seen blocked on)`));
    if (tp.locks.length === 0) {
      this.activity.append(el('p', { class: 'muted' }, 'No thread was seen blocked on a monitor.'));
      return;
    }
    const lcols: Array<Column<LockContention>> = [
      { key: 'lock', label: 'lock', clip: true, cell: (r) => r.lock, title: (r) => r.lock },
      { key: 'obs', label: 'blocked samples', numeric: true, cell: (r) => num(r.observations), compare: (a, b) => a.observations - b.observations },
      { key: 'ms', label: '≈ blocked ms', numeric: true, cell: (r) => num(r.sampledBlockedMillis) },
      { key: 'episodes', label: 'blocked (times)', numeric: true, cell: (r) => num(r.episodes) },
      { key: 'waiters', label: 'waiting threads (samples)', wide: true, cell: (r) => r.waiters.map((w) => `${w.thread} (${w.observations})`).join(', ') },
      { key: 'owners', label: 'held by', clip: true, cell: (r) => r.owners.join(', ') },
      { key: 'where', label: 'where they wait', clip: true, cell: (r) => r.stacks[0]?.frames.slice(0, 2).join(' ← ') ?? '', title: (r) => r.stacks[0]?.frames.join('\n') ?? '' },
    ];
    const lockWrap = el('div', { class: 'table-wrap compact' });
    this.activity.append(lockWrap);
    renderTable(lockWrap, tp.locks, lcols, { caption: 'Monitor contention', sort: { key: 'obs', desc: true } });
  }
}

function cpuItem(n: CpuTreeNode, total: number, depth: number): HTMLElement {
  const share = n.samples / total;
  const label = el('span', { class: 'cpu-frame' }, `${n.frame}`);
  const figures = el('span', { class: 'muted' }, ` ${num(n.samples)} samples · ${percent(share)}${n.self ? ` · self ${num(n.self)}` : ''}`);
  const kids = n.children.filter((c) => c.samples / total >= 0.005);
  if (kids.length === 0) return el('li', {}, label, figures);
  const details = el('details', {}, el('summary', {}, label, figures));
  if (depth < 16 && share >= 0.05) details.open = true;
  const ul = el('ul', { class: 'cpu-tree' });
  for (const c of kids) ul.append(cpuItem(c, total, depth + 1));
  details.append(ul);
  return el('li', {}, details);
}

function clear(node: Element): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}
