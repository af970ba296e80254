// Tooltip content for a frame: full name and source, self and total per metric, allocations by type; for
// the CPU tree its samples and the CPU time they stand for.
import { ALLOCATION_METRICS, breakdownByType, FrameTree, METRIC_LABELS, ViewMetric } from '../../core/views/frames';
import { frameTitle } from '../../core/profile/names';
import { MethodEntry, TypeEntry } from '../../core/profile/types';
import { bytes, num, percent } from '../../core/format';
import { el } from './dom';

export interface TooltipInput {
  tree: FrameTree;
  methods: ReadonlyMap<number, MethodEntry>;
  types: ReadonlyMap<number, TypeEntry>;
  metric: ViewMetric;
  zoom: number;
  mine(method: number): boolean;
  rootLabel: string;
  /** set when the tree holds CPU samples (one every this many ms) instead of allocations */
  cpuIntervalMillis?: number;
}

function value(metric: ViewMetric, v: number): string {
  return metric === 'bytes' ? bytes(v) : num(v);
}

export function frameTooltip(t: TooltipInput, i: number): Node {
  const { tree } = t;
  const m = t.methods.get(tree.method[i]);
  const box = el('div', { class: 'tip' });
  box.append(el('div', { class: 'tip-title' }, m ? `${m.class.slice(m.class.lastIndexOf('.') + 1)}.${m.name}` : t.rootLabel));
  if (m) {
    box.append(el('div', { class: 'tip-full' }, frameTitle(m)));
    box.append(el('div', { class: 'tip-kind' }, t.mine(m.id) ? 'my code' : m.profiled ? 'JDK / library frame (profiled)' : 'JDK / library frame'));
  }
  const grid = el('table', { class: 'tip-values' });
  grid.append(el('tr', {}, el('th', {}, ''), el('th', {}, 'self'), el('th', {}, 'total')));
  const cpu = t.cpuIntervalMillis !== undefined;
  // a first section's tree holds its metric's values only: the others come with the whole profile
  const shown = cpu ? ['samples' as const] : tree.section ? ALLOCATION_METRICS.filter((k) => k === tree.section!.metric) : ALLOCATION_METRICS;
  for (const k of shown) {
    const row = el('tr', k === t.metric ? { class: 'current' } : {}, el('td', {}, METRIC_LABELS[k]),
      el('td', {}, value(k, tree.self[k][i])), el('td', {}, value(k, tree.total[k][i])));
    grid.append(row);
  }
  if (cpu) {
    // each sample stands for one interval in which the thread used CPU (the thread's own CPU ms are in the Threads view)
    const ms = (v: number): string => `${num(v * t.cpuIntervalMillis!)} ms`;
    grid.append(el('tr', {}, el('td', {}, `× ${t.cpuIntervalMillis} ms`), el('td', {}, ms(tree.self.samples[i])), el('td', {}, ms(tree.total.samples[i]))));
  }
  box.append(grid);
  const tot = tree.total[t.metric];
  const share = `${percent(tot[0] ? tot[i] / tot[0] : 0)} of all` + (t.zoom !== 0 && t.zoom !== i ? `, ${percent(tot[t.zoom] ? tot[i] / tot[t.zoom] : 0)} of the zoomed frame` : '');
  box.append(el('div', { class: 'tip-share' }, `${METRIC_LABELS[t.metric]}: ${share}`));
  if (tree.section) {
    // a first section's tree: the records and the frames too small to draw come with the whole profile
    const more = tree.section.more[i];
    if (more > 0) box.append(el('div', { class: 'tip-share muted' }, `${num(more)} more, too small to draw`));
    box.append(el('div', { class: 'tip-share muted' }, 'Other values and allocated types: loading…'));
  }
  const types = breakdownByType(tree, i, 'total');
  if (types.length > 0) {
    const tt = el('table', { class: 'tip-types' });
    tt.append(el('tr', {}, el('th', {}, 'allocated type (total)'), el('th', {}, 'count'), el('th', {}, 'est. bytes')));
    for (const b of types.slice(0, 8)) {
      const name = t.types.get(b.type)?.name ?? `?${b.type}`;
      tt.append(el('tr', {}, el('td', {}, name), el('td', {}, num(b.count)), el('td', {}, bytes(b.bytes))));
    }
    if (types.length > 8) tt.append(el('tr', {}, el('td', { colspan: '3', class: 'muted' }, `… ${types.length - 8} more types`)));
    box.append(tt);
  }
  box.append(el('div', { class: 'tip-hint' }, 'click: zoom · double-click or Ctrl+click: open source'));
  return box;
}
