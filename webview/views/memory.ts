// The memory chart: heap used and committed, collections (pauses that stop the program tall, concurrent cycles
// low) and the allocation rate over the run, with snapshot marks. Drawn from the profile's `memory` section, the
// same for a live session (the channel's news appended with each update) and a saved profile.
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { memoryOf, MemorySection, memorySeries, MemorySeries } from '../../core/profile/memory';
import { ProfileFile } from '../../core/profile/types';
import { bytes, num } from '../../core/format';
import { AppContext, View } from '../context';
import { clear, el } from './dom';

const W = 900;
const LANE = { heap: 170, gc: 60, rate: 90 };
const M = { left: 70, right: 16, top: 10, gap: 26, bottom: 30 };

function seconds(t: number): string {
  return t >= 120 ? `${(t / 60).toFixed(t >= 600 ? 0 : 1)} min` : `${t.toFixed(t >= 10 ? 0 : 1)} s`;
}

export class MemoryView implements View {
  readonly root: HTMLElement;
  private readonly info = el('div', { class: 'view-info mem-summary' });
  private readonly chart = el('div', { class: 'mem-chart' });
  private readonly legend = el('div', { class: 'legend' });
  private readonly empty = el('div', { class: 'empty' });
  private cache?: { file: ProfileFile; section?: MemorySection; series?: MemorySeries; error?: string };

  constructor() {
    this.root = el('section', { class: 'view view-memory', 'aria-label': 'Memory' }, this.info, this.empty, this.chart, this.legend);
  }

  render(ctx: AppContext): void {
    const file = ctx.data.file;
    if (this.cache?.file !== file) {
      try {
        const section = memoryOf(file);
        this.cache = { file, section, series: section && section.samples.length > 0 ? memorySeries(section) : undefined };
      } catch (e) {
        this.cache = { file, error: (e as Error).message };
      }
    }
    const c = this.cache;
    const s = c.series;
    for (const e of [this.info, this.chart, this.legend]) e.hidden = !s;
    this.empty.hidden = !!s;
    if (!s) {
      this.empty.textContent = c.error ? `Cannot show the memory chart: ${c.error}.`
        : c.section ? 'No memory sample yet: the first comes half a second after the program starts.'
          : 'This profile has no memory chart: it was recorded with memoryInterval=0 or by an older agent.';
      return;
    }
    const peak = Math.max(...s.used);
    const lastCommitted = s.committed[s.committed.length - 1];
    const stw = s.pauses.filter((p) => p.stopsTheWorld);
    const total = s.t[s.t.length - 1];
    const mean = total > 0 && s.allocationRate.length > 1 ? s.allocationRate.slice(1).reduce((a, b) => a + b, 0) / (s.allocationRate.length - 1) : 0;
    this.info.textContent = `${seconds(total)} of the run${ctx.live ? ' so far' : ''}: heap used peaked at ${bytes(peak)} (committed now ${bytes(lastCommitted)}); `
      + `${num(s.gcCount)} collections took ${num(s.gcMillis)} ms${stw.length ? `, the longest pause ${num(s.longestPause)} ms` : ''}; `
      + `allocation ${bytes(mean)}/s on average. One sample every ${num(c.section!.intervalMillis)} ms.`;
    this.draw(s);
  }

  private draw(s: MemorySeries): void {
    clear(this.chart);
    const end = Math.max(1e-3, s.t[s.t.length - 1], ...s.pauses.map((p) => p.t + p.millis / 1000));
    const x = scaleLinear().domain([0, end]).range([M.left, W - M.right]);
    const heapTop = M.top;
    const gcTop = heapTop + LANE.heap + M.gap;
    const rateTop = gcTop + LANE.gc + M.gap;
    const H = rateTop + LANE.rate + M.bottom;
    const yHeap = scaleLinear().domain([0, Math.max(1, ...s.committed, ...s.used)]).nice().range([heapTop + LANE.heap, heapTop]);
    const maxPause = Math.max(1, ...s.pauses.map((p) => p.millis));
    const yGc = scaleLinear().domain([0, maxPause]).nice().range([gcTop + LANE.gc, gcTop]);
    const yRate = scaleLinear().domain([0, Math.max(1, ...s.allocationRate)]).nice().range([rateTop + LANE.rate, rateTop]);
    const svg = select(this.chart).append('svg').attr('viewBox', `0 0 ${W} ${H}`).attr('class', 'mem')
      .attr('role', 'img').attr('aria-label', 'Heap used and committed, collections and allocation rate over time');
    const path = (xs: number[], ys: number[], y: (v: number) => number): string => xs.map((t, i) => `${i ? 'L' : 'M'}${x(t).toFixed(1)},${y(ys[i]).toFixed(1)}`).join('');
    // heap: used as an area under committed as a line
    const area = `${path(s.t, s.used, yHeap)}L${x(s.t[s.t.length - 1]).toFixed(1)},${yHeap(0)}L${x(s.t[0]).toFixed(1)},${yHeap(0)}Z`;
    svg.append('path').attr('class', 'mem-used').attr('d', area);
    svg.append('path').attr('class', 'mem-committed').attr('d', path(s.t, s.committed, yHeap));
    // collections: a bar per collection, as tall as it lasted
    svg.selectAll('rect.mem-gc').data(s.pauses).join('rect')
      .attr('class', (p) => (p.stopsTheWorld ? 'mem-gc' : 'mem-gc mem-gc-concurrent'))
      .attr('x', (p) => x(p.t) - 1).attr('width', (p) => Math.max(2, x(p.t + p.millis / 1000) - x(p.t)))
      .attr('y', (p) => yGc(p.millis)).attr('height', (p) => yGc(0) - yGc(p.millis))
      .append('title').text((p) => `${p.collector} (${p.cause}) at ${seconds(p.t)}: ${num(p.millis)} ms${p.stopsTheWorld ? ' pause' : ', concurrent'}, freed ${bytes(p.freed)}`);
    // allocation rate
    svg.append('path').attr('class', 'mem-rate').attr('d', path(s.t, s.allocationRate, yRate));
    // snapshot marks across every lane
    for (const m of s.marks) {
      const g = svg.append('g').attr('class', 'mem-mark');
      g.append('line').attr('x1', x(m.t)).attr('x2', x(m.t)).attr('y1', heapTop).attr('y2', rateTop + LANE.rate);
      g.append('text').attr('x', x(m.t) + 3).attr('y', heapTop + 10).text(m.what);
    }
    // axes: three ticks per lane, time along the bottom
    const yAxis = (y: ReturnType<typeof scaleLinear<number, number>>, label: string, fmt: (v: number) => string, top: number): void => {
      for (const v of y.ticks(3)) {
        svg.append('text').attr('class', 'axis').attr('x', M.left - 6).attr('y', y(v) + 3).attr('text-anchor', 'end').text(fmt(v));
        svg.append('line').attr('class', 'grid').attr('x1', M.left).attr('x2', W - M.right).attr('y1', y(v)).attr('y2', y(v));
      }
      svg.append('text').attr('class', 'lane-title').attr('x', M.left).attr('y', top - 4).text(label);
    };
    yAxis(yHeap, 'Heap: used (area) and committed (line)', (v) => bytes(v), heapTop + 8);
    yAxis(yGc, 'Collections: duration in ms (solid bars stop the program; pale ones run beside it)', (v) => `${num(v)} ms`, gcTop);
    yAxis(yRate, 'Allocation rate', (v) => `${bytes(v)}/s`, rateTop);
    for (const t of x.ticks(8)) {
      svg.append('text').attr('class', 'axis').attr('x', x(t)).attr('y', H - 10).attr('text-anchor', 'middle').text(seconds(t));
    }
    clear(this.legend);
    const item = (cls: string, text: string): HTMLElement => el('span', { class: 'legend-item' }, el('span', { class: `swatch ${cls}` }), text);
    // only what the chart holds: no legend entry for marks or concurrent cycles that are not there
    this.legend.append(item('sw-used', 'heap used'), item('sw-committed', 'heap committed'), item('sw-gc', 'collection that stops the program'),
      ...(s.pauses.some((p) => !p.stopsTheWorld) ? [item('sw-gc-concurrent', 'concurrent collection')] : []),
      item('sw-rate', 'allocation rate'), ...(s.marks.length ? [item('sw-mark', 'snapshot')] : []));
  }
}
