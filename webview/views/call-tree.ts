// The call tree as an expandable, sortable table (IntelliJ's Call Tree, JProfiler's Allocation Call Tree). Rows are
// virtualised (only the rows in view are in the DOM), so a node with 10,000 children opens at once. Linked both ways
// with the flame tree through the shared selection: a selected frame's row is revealed here, Enter shows the row there.
import { CALL_COLUMNS, CallColumn, CallRow, callTableRows, expandedNodes, hottestPath, pathsToReveal } from '../../core/views/call-table';
import { findPath, FrameTree, pathOf } from '../../core/views/frames';
import { MethodEntry } from '../../core/profile/types';
import { shortFrame } from '../../core/profile/names';
import { bytes, num, percent } from '../../core/format';
import { AppContext } from '../context';
import { button, clear, el, select, toggle } from './dom';
import { ToolbarView } from './toolbar-view';
import { threadOptions } from './flame-tab';

const ROW = 22;
const LABELS: Record<CallColumn, string> = {
  name: 'Method', selfAllocations: 'Self allocations', totalAllocations: 'Total allocations', selfBytes: 'Self bytes', totalBytes: 'Total bytes', calls: 'Calls',
};

/** The share column: short enough for a narrow panel (0.042 % reads as "<0.1%"; the tooltip has the figures). */
function shareText(x: number): string {
  return x >= 0.001 ? percent(x) : x > 0 ? '<0.1%' : '0%';
}

function samePath(a: readonly number[] | null, b: readonly number[]): boolean {
  return a !== null && a.length === b.length && a.every((x, k) => x === b[k]);
}

export class CallTreeView extends ToolbarView {
  private readonly info = el('div', { class: 'muted view-info' });
  private readonly head = el('div', { class: 'ct-head', role: 'row' });
  private readonly scroller = el('div', { class: 'ct-scroll', tabindex: '0', role: 'treegrid', 'aria-label': 'Call tree: arrow keys move, Right opens, Left closes, Enter shows in the flame tree, O opens the source, B shows callers and callees' });
  private readonly spacer = el('div', { class: 'ct-spacer' });
  private readonly body = el('div', { class: 'ct-body', role: 'rowgroup' });
  private ctx?: AppContext;
  private tree?: FrameTree;
  private methods: ReadonlyMap<number, MethodEntry> = new Map();
  private rows: CallRow[] = [];
  private selected = -1;
  private lastSelected: readonly number[] | null = null;
  private pending = 0;
  /** figures for the benchmark: rows computed and milliseconds of the last row build */
  stats = { rows: 0, buildMs: 0 };

  constructor() {
    super('calltree', 'Call tree');
    this.scroller.append(this.spacer, this.body);
    this.root.append(this.info, this.head, this.scroller);
    this.scroller.addEventListener('scroll', () => this.schedule());
    this.scroller.addEventListener('keydown', (e) => this.onKey(e));
    new ResizeObserver(() => this.schedule()).observe(this.scroller);
  }

  focus(): void {
    this.scroller.focus();
  }

  render(ctx: AppContext): void {
    this.ctx = ctx;
    const s = ctx.state;
    this.renderBar(ctx);
    const tree = ctx.data.tree({ thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: s.inverted });
    const fresh = tree !== this.tree;
    this.tree = tree;
    this.methods = ctx.data.methods();
    const t0 = performance.now();
    let paths = s.tableExpanded;
    // first look at a tree: open the hottest path, as IntelliJ does
    if (paths === null) paths = hottestPath(tree, 'allocations').map((i) => pathOf(tree, i));
    const open = expandedNodes(tree, paths);
    const sel = s.selected ? findPath(tree, s.selected) : -1;
    // a selection made elsewhere (the flame tree, a lens): open its ancestors so its row shows
    if (sel > 0) for (const p of pathsToReveal(tree, sel)) open.add(findPath(tree, p));
    const name = (m: number): string => {
      const e = this.methods.get(m);
      return e ? `${e.class}.${e.name}` : '';
    };
    this.rows = callTableRows(tree, open, s.tableSort, name);
    this.stats = { rows: this.rows.length, buildMs: performance.now() - t0 };
    this.selected = sel;
    this.renderHead(ctx);
    const rootAllocs = tree.total.objects[0] + tree.total.arrays[0];
    this.info.textContent = `${num(rootAllocs)} allocations, ${bytes(tree.total.bytes[0])} in ${num(tree.n - 1)} calling contexts${s.inverted ? ' (inverted: the allocating methods at the top, their callers below)' : ''}. Click a row to select it in the flame tree too; Enter shows it there.`;
    this.spacer.style.height = `${this.rows.length * ROW}px`;
    const moved = !samePath(this.lastSelected, s.selected ?? []) || fresh;
    this.lastSelected = s.selected;
    if (moved && sel > 0) this.scrollTo(this.rows.findIndex((r) => r.node === sel));
    this.paint();
  }

  private renderBar(ctx: AppContext): void {
    const s = ctx.state;
    clear(this.bar);
    this.bar.append(
      select('Thread', threadOptions(ctx), String(s.thread), (v) => ctx.update({ thread: Number(v), selected: null, tableExpanded: null })),
      toggle('Inverted', s.inverted, (v) => ctx.update({ inverted: v, zoom: [], selected: null, tableExpanded: null }), 'Bottom-up: the allocating methods on top, their callers below'),
      toggle('Only my code', s.myCode, (v) => ctx.update({ myCode: v, zoom: [], selected: null, tableExpanded: null }), 'Fold JDK and library frames into their callers'),
      button('Collapse all', 'collapse-all', () => ctx.update({ tableExpanded: [] }), 'Close every row'),
    );
  }

  private renderHead(ctx: AppContext): void {
    clear(this.head);
    const sort = ctx.state.tableSort;
    for (const key of CALL_COLUMNS) {
      const arrow = sort.key === key ? (sort.desc ? ' ▼' : ' ▲') : '';
      const b = el('button', { type: 'button', class: `th-sort ct-col ct-${key}`, title: `Sort by ${LABELS[key]}`, 'aria-sort': sort.key === key ? (sort.desc ? 'descending' : 'ascending') : 'none' }, LABELS[key] + arrow);
      b.addEventListener('click', () => ctx.update({ tableSort: { key, desc: sort.key === key ? !sort.desc : key !== 'name' } }));
      this.head.append(b);
      if (key === 'totalAllocations') this.head.append(el('span', { class: 'ct-col ct-share' }, '% of total'));
    }
  }

  private schedule(): void {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => {
      this.pending = 0;
      this.paint();
    });
  }

  /** Puts the rows in view in the DOM (a screenful plus a margin). */
  private paint(): void {
    const h = this.scroller.clientHeight || 600;
    const first = Math.max(0, Math.floor(this.scroller.scrollTop / ROW) - 5);
    const last = Math.min(this.rows.length, first + Math.ceil(h / ROW) + 10);
    this.body.style.top = `${first * ROW}px`;
    const out: HTMLElement[] = [];
    for (let k = first; k < last; k++) out.push(this.rowElement(this.rows[k], k));
    this.body.replaceChildren(...out);
    this.scroller.dataset.rows = String(this.rows.length);
  }

  private rowElement(r: CallRow, k: number): HTMLElement {
    const m = this.methods.get(r.method);
    const selected = r.node === this.selected;
    const div = el('div', {
      class: `ct-row${selected ? ' selected' : ''}`, role: 'row', 'aria-level': String(r.depth), 'data-row': String(k),
      'aria-selected': String(selected), ...(r.hasChildren ? { 'aria-expanded': String(r.expanded) } : {}),
    });
    const twisty = el('span', { class: `ct-twisty codicon ${r.hasChildren ? (r.expanded ? 'codicon-chevron-down' : 'codicon-chevron-right') : ''}`, 'aria-hidden': 'true' });
    twisty.addEventListener('click', (e) => {
      e.stopPropagation();
      this.toggleRow(r);
    });
    const label = m ? shortFrame(m) : '?';
    const where = m ? `${m.class}.${m.name}${m.desc}${m.file ? ` (${m.file}${m.line ? `:${m.line}` : ''})` : ''}` : '';
    // every figure in the tooltip too, in words
    const nameCell = el('span', { class: 'ct-col ct-name', title: `${where}\nself ${num(r.selfAllocations)} allocations, ${bytes(r.selfBytes)} · total ${num(r.totalAllocations)} allocations, ${bytes(r.totalBytes)} · ${num(r.calls)} calls` }, twisty, label);
    // deep trees: 12 px a level for the first 10, then 3 px, so the names of deep frames stay readable
    const d = r.depth - 1;
    nameCell.style.paddingLeft = `${Math.min(d, 10) * 12 + Math.max(0, d - 10) * 3}px`;
    const bar = el('span', { class: 'ct-bar' });
    bar.style.width = `${Math.round(r.share * 100)}%`;
    div.append(nameCell,
      el('span', { class: 'ct-col ct-selfAllocations num' }, num(r.selfAllocations)),
      el('span', { class: 'ct-col ct-totalAllocations num' }, num(r.totalAllocations)),
      el('span', { class: 'ct-col ct-share num' }, bar, el('span', { class: 'ct-share-text' }, shareText(r.share))),
      el('span', { class: 'ct-col ct-selfBytes num', title: `${num(r.selfBytes)} bytes` }, bytes(r.selfBytes)),
      el('span', { class: 'ct-col ct-totalBytes num', title: `${num(r.totalBytes)} bytes` }, bytes(r.totalBytes)),
      el('span', { class: 'ct-col ct-calls num' }, num(r.calls)));
    div.addEventListener('click', () => this.select(r.node));
    div.addEventListener('dblclick', () => this.showInFlame(r.node));
    return div;
  }

  private select(node: number): void {
    if (!this.ctx || !this.tree) return;
    this.ctx.update({ selected: pathOf(this.tree, node) });
    this.scroller.focus();
  }

  private showInFlame(node: number): void {
    if (!this.ctx || !this.tree) return;
    const path = pathOf(this.tree, node);
    // zoom to the caller so the frame and its siblings show, as a table row shows its siblings
    this.ctx.update({ view: 'flame', selected: path, zoom: path.slice(0, -1), ...(this.ctx.state.metric === 'samples' ? { metric: 'allocations' } : {}) });
  }

  private expandedPaths(): number[][] {
    const tree = this.tree!;
    return this.rows.filter((r) => r.expanded).map((r) => pathOf(tree, r.node));
  }

  private toggleRow(r: CallRow): void {
    if (!this.ctx || !this.tree || !r.hasChildren) return;
    const tree = this.tree;
    const mine = pathOf(tree, r.node);
    let paths = this.expandedPaths();
    const patch: Parameters<AppContext['update']>[0] = {};
    if (r.expanded) {
      paths = paths.filter((p) => !(p.length >= mine.length && mine.every((x, k) => p[k] === x)));
      // closing an ancestor of the selection moves the selection up to it (else the reveal would reopen it)
      if (this.selected > 0 && this.selected < tree.end[r.node] && this.selected > r.node) patch.selected = mine;
    } else {
      paths.push(mine);
    }
    this.ctx.update({ ...patch, tableExpanded: paths });
  }

  private scrollTo(k: number): void {
    if (k < 0) return;
    const top = k * ROW;
    const s = this.scroller;
    const h = s.clientHeight || 600;
    if (top < s.scrollTop || top + ROW > s.scrollTop + h) s.scrollTop = Math.max(0, top - h / 2);
  }

  private onKey(e: KeyboardEvent): void {
    const ctx = this.ctx;
    const tree = this.tree;
    if (!ctx || !tree || this.rows.length === 0) return;
    let k = this.rows.findIndex((r) => r.node === this.selected);
    const r = k >= 0 ? this.rows[k] : undefined;
    const go = (to: number): void => {
      const row = this.rows[Math.max(0, Math.min(this.rows.length - 1, to))];
      this.select(row.node);
    };
    switch (e.key) {
      case 'ArrowDown': go(k + 1); break;
      case 'ArrowUp': go(k < 0 ? 0 : k - 1); break;
      case 'PageDown': go(k + Math.floor((this.scroller.clientHeight || 600) / ROW)); break;
      case 'PageUp': go(k - Math.floor((this.scroller.clientHeight || 600) / ROW)); break;
      case 'Home': go(0); break;
      case 'End': go(this.rows.length - 1); break;
      case 'ArrowRight':
        if (!r) go(0);
        else if (r.hasChildren && !r.expanded) this.toggleRow(r);
        else if (r.hasChildren) go(k + 1);
        break;
      case 'ArrowLeft':
        if (r && r.expanded) this.toggleRow(r);
        else if (r && tree.parent[r.node] > 0) {
          const p = tree.parent[r.node];
          k = this.rows.findIndex((x) => x.node === p);
          go(k);
        }
        break;
      case 'Enter': if (r) this.showInFlame(r.node); break;
      case 'o': case 'O': if (r && r.method >= 0) ctx.open(r.method); break;
      case 'b': case 'B': if (r && r.method >= 0) ctx.update({ view: 'butterfly', focusMethod: r.method }); break;
      default: return;
    }
    e.preventDefault();
  }
}
