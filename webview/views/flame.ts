// The flame tree component (used by the Flame tree and the Diff views): breadcrumb, canvas, tooltip,
// keyboard navigation and a screen-reader summary of the largest frames.
import { ancestry, childrenIndices, FrameTree } from '../../core/views/frames';
import { hitTest, layout, Layout, layoutInSteps, neighbour } from '../core/layout';
import { clear, el } from './dom';
import { MIN_WIDTH, paint, Palette } from './flame-paint';
import { readPalette } from './theme';
import { ViewMetric } from '../../core/views/frames';

export interface FlameModel {
  tree: FrameTree;
  metric: ViewMetric;
  zoom: number;
  selected: number;
  highlight: number;
  hit?: Uint8Array;
  color(i: number): string;
  /** short label drawn on the frame */
  label(i: number): string;
  /** the figure drawn after the label when the frame is wide enough */
  figure?(i: number): string;
  /** full name (breadcrumb titles, summary, announcements) */
  title(i: number): string;
  /** tooltip content */
  tooltip(i: number): Node;
  describe(i: number): string;
}

export interface FlameEvents {
  zoom(i: number): void;
  select(i: number): void;
  open(i: number): void;
  /** B on a frame: its callers and callees (absent: the key does nothing) */
  butterfly?(i: number): void;
}

const ROW = 18;

export class FlameView {
  readonly root: HTMLElement;
  private readonly crumbs = el('nav', { class: 'crumbs', 'aria-label': 'Zoom path' });
  private readonly scroller = el('div', { class: 'flame-scroll', tabindex: '0', role: 'application', 'aria-label': 'Flame tree: arrow keys move, Enter zooms, Backspace zooms out, O opens the source, B shows callers and callees' });
  private readonly canvas = el('canvas', { class: 'flame-canvas' });
  private readonly spacer = el('div', { class: 'flame-spacer' });
  private readonly tip = el('div', { class: 'tooltip', role: 'tooltip' });
  private readonly summary = el('ol', { class: 'sr-only flame-summary', 'aria-label': 'Largest frames' });
  private readonly live = el('div', { class: 'sr-only', 'aria-live': 'polite' });
  private readonly empty = el('div', { class: 'empty' });
  private model?: FlameModel;
  private lay?: Layout;
  private palette?: Palette;
  private pending = 0;
  private hover = -1;
  /** figures for tests and the benchmark: nodes painted, milliseconds of the last layout and paint */
  stats = { painted: 0, layoutMs: 0, paintMs: 0 };

  constructor(private readonly events: FlameEvents) {
    this.scroller.append(this.canvas, this.spacer);
    this.root = el('div', { class: 'flame' }, this.crumbs, this.scroller, this.empty, this.tip, this.summary, this.live);
    this.tip.hidden = true;
    this.empty.hidden = true;
    this.scroller.addEventListener('scroll', () => this.schedule());
    this.scroller.addEventListener('mousemove', (e) => this.onMove(e));
    this.scroller.addEventListener('mouseleave', () => this.hideTip());
    this.scroller.addEventListener('click', (e) => this.onClick(e));
    this.scroller.addEventListener('dblclick', (e) => {
      const i = this.nodeAt(e);
      if (i >= 0) this.events.open(i);
    });
    this.scroller.addEventListener('keydown', (e) => this.onKey(e));
    new ResizeObserver(() => this.schedule()).observe(this.scroller);
  }

  /** New data or state: lays out again only when the tree, metric or zoom changed. */
  set(model: FlameModel): void {
    const prev = this.model;
    this.model = model;
    if (!prev || !this.lay || prev.tree !== model.tree || prev.metric !== model.metric || this.lay.zoom !== model.zoom) {
      this.layOut(prev?.tree === model.tree);
      this.renderCrumbs();
      this.renderSummary();
    }
    this.paintNow();
  }

  /** Lays out what the canvas at its present width can draw: the subtrees below a frame too narrow to draw are left out. */
  private layOut(reuse: boolean): void {
    const m = this.model;
    if (!m) return;
    const width = this.scroller.clientWidth || 800;
    const t0 = performance.now();
    const ahead = this.ahead;
    this.ahead = undefined;
    // a layout made ahead (layOutAhead) for this tree, metric and zoom, with frames at least as narrow as this width needs
    const fits = ahead && ahead.tree === m.tree && ahead.lay.metric === m.metric && ahead.lay.zoom === m.zoom && ahead.lay.minWidth <= MIN_WIDTH / 2 / width;
    this.lay = fits ? ahead.lay : layout(m.tree, m.metric, m.zoom, reuse ? this.lay : undefined, MIN_WIDTH / 2 / width);
    this.stats.layoutMs = performance.now() - t0;
  }

  private ahead?: { tree: FrameTree; lay: Layout };

  /**
   * The first layout of a large tree in slices, before set() (app.ts runs them in tasks of their own): set() then takes it
   * instead of laying out in the paint's task. Laid out for the window's width, which the canvas does not exceed: a
   * narrower canvas draws the same frames from it (the painter skips those under half a pixel).
   */
  *layOutAhead(tree: FrameTree, metric: ViewMetric, zoom: number): Generator<void> {
    const width = Math.max(window.innerWidth || 0, this.scroller.clientWidth || 800);
    const lay = yield* layoutInSteps(tree, metric, zoom, undefined, MIN_WIDTH / 2 / width, 20_000);
    this.ahead = { tree, lay };
  }

  /** Theme changed: colours are read again at the next paint. */
  themeChanged(): void {
    this.palette = undefined;
    this.schedule();
  }

  focus(): void {
    this.scroller.focus();
  }

  schedule(): void {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => {
      this.pending = 0;
      this.paintNow();
    });
  }

  /**
   * What the first paint does once whatever the tree (the page's first layout, the canvas context, its font): done while
   * the load worker reads a large profile and this thread would otherwise wait, so the first paint is only the paint.
   */
  warmUp(): void {
    void this.scroller.clientWidth;
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    this.palette ??= readPalette(this.root);
    ctx.font = this.palette.font;
    ctx.measureText('abcdefghijklmnopqrstuvwxyzABCDEFGHIJ.');
    ctx.fillText('HeapLens 0123456789 · %', -1000, -1000);
  }

  /** Paints synchronously (also used by the measurement page). */
  paintNow(): void {
    const m = this.model;
    if (!m || !this.lay) return;
    const t0 = performance.now();
    const width = this.scroller.clientWidth || 800;
    // a wider canvas draws narrower frames: lay out again when some it would draw were left out
    if (this.lay.minWidth > MIN_WIDTH / 2 / width) this.layOut(true);
    const lay = this.lay;
    const height = Math.max(1, Math.min(this.scroller.clientHeight || 400, lay.rows * ROW));
    this.spacer.style.height = `${Math.max(0, lay.rows * ROW - height)}px`;
    const dpr = window.devicePixelRatio || 1;
    if (this.canvas.width !== Math.round(width * dpr) || this.canvas.height !== Math.round(height * dpr)) {
      this.canvas.width = Math.round(width * dpr);
      this.canvas.height = Math.round(height * dpr);
      this.canvas.style.width = `${width}px`;
      this.canvas.style.height = `${height}px`;
    }
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.palette ??= readPalette(this.root);
    const painted = paint(ctx, {
      tree: m.tree, lay, width, height, scrollTop: this.scroller.scrollTop, rowHeight: ROW, color: m.color, label: m.label, figure: m.figure,
      hit: m.hit, selected: m.selected, highlight: m.highlight, palette: this.palette,
    });
    this.stats.painted = painted;
    this.stats.paintMs = performance.now() - t0;
    this.canvas.dataset.painted = String(painted);
    const nothing = lay.scale === 0;
    this.empty.textContent = nothing ? `Nothing to show for this metric here (${m.metric} is 0).` : '';
    this.empty.hidden = !nothing;
  }

  /** Scrolls so that node i's row is visible. */
  reveal(i: number): void {
    const m = this.model;
    if (!m) return;
    const row = m.tree.depth[i] - m.tree.depth[m.zoom];
    const top = row * ROW;
    const s = this.scroller;
    if (top < s.scrollTop || top + ROW > s.scrollTop + s.clientHeight) s.scrollTop = Math.max(0, top - s.clientHeight / 2);
  }

  private nodeAt(e: MouseEvent): number {
    if (!this.model || !this.lay) return -1;
    const r = this.canvas.getBoundingClientRect();
    const fx = (e.clientX - r.left) / r.width;
    const row = Math.floor((e.clientY - r.top + this.scroller.scrollTop) / ROW);
    return hitTest(this.model.tree, this.lay, fx, row);
  }

  private onMove(e: MouseEvent): void {
    const i = this.nodeAt(e);
    if (i < 0 || !this.model) return this.hideTip();
    if (i !== this.hover) {
      this.hover = i;
      clear(this.tip);
      this.tip.append(this.model.tooltip(i));
    }
    this.tip.hidden = false;
    const box = this.root.getBoundingClientRect();
    const tw = this.tip.offsetWidth;
    const th = this.tip.offsetHeight;
    let x = e.clientX - box.left + 14;
    let y = e.clientY - box.top + 14;
    if (x + tw > box.width) x = Math.max(0, e.clientX - box.left - tw - 14);
    if (y + th > box.height) y = Math.max(0, e.clientY - box.top - th - 14);
    this.tip.style.left = `${x}px`;
    this.tip.style.top = `${y}px`;
    this.scroller.style.cursor = 'pointer';
  }

  private hideTip(): void {
    this.hover = -1;
    this.tip.hidden = true;
    this.scroller.style.cursor = '';
  }

  private onClick(e: MouseEvent): void {
    const i = this.nodeAt(e);
    if (i < 0) return;
    if (e.ctrlKey || e.metaKey) this.events.open(i);
    else this.events.zoom(i);
  }

  private onKey(e: KeyboardEvent): void {
    const m = this.model;
    if (!m || !this.lay) return;
    const sel = m.selected >= 0 ? m.selected : m.zoom;
    const dirs: Record<string, 'up' | 'down' | 'left' | 'right'> = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };
    let handled = true;
    if (dirs[e.key]) {
      const next = neighbour(m.tree, this.lay, sel, dirs[e.key]);
      this.events.select(next);
      this.reveal(next);
      this.live.textContent = m.describe(next);
    } else if (e.key === 'Enter') {
      this.events.zoom(sel);
    } else if (e.key === 'Backspace' || e.key === 'Escape') {
      this.events.zoom(m.zoom === 0 ? 0 : m.tree.parent[m.zoom]);
    } else if (e.key === 'Home') {
      this.events.zoom(0);
    } else if (e.key === 'o' || e.key === 'O') {
      this.events.open(sel);
    } else if ((e.key === 'b' || e.key === 'B') && this.events.butterfly) {
      this.events.butterfly(sel);
    } else {
      handled = false;
    }
    if (handled) e.preventDefault();
  }

  private renderCrumbs(): void {
    const m = this.model!;
    clear(this.crumbs);
    const path = ancestry(m.tree, m.zoom);
    path.forEach((i, k) => {
      if (k > 0) this.crumbs.append(el('span', { class: 'crumb-sep', 'aria-hidden': 'true' }, '›'));
      const b = el('button', { type: 'button', class: 'crumb', title: m.title(i) }, m.label(i));
      if (i === m.zoom) b.setAttribute('aria-current', 'true');
      b.addEventListener('click', () => this.events.zoom(i));
      this.crumbs.append(b);
    });
  }

  private renderSummary(): void {
    const m = this.model!;
    clear(this.summary);
    const total = m.tree.total[m.metric];
    const kids = childrenIndices(m.tree, m.zoom).filter((i) => total[i] > 0).sort((a, b) => total[b] - total[a]).slice(0, 10);
    this.summary.dataset.zoom = m.title(m.zoom);
    for (const i of kids) this.summary.append(el('li', { 'data-frame': m.title(i) }, m.describe(i)));
  }
}
