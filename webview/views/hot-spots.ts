// Allocation hot spots by class (JProfiler's Allocation Hot Spots): each allocated type with its allocations and
// bytes; open it for the sites that allocate it (method and line); open a site for its calling contexts as a
// back-trace tree, the site's method first and its callers below, each line openable in the editor.
import { backTraces, BackTraceNode, HotMetric, HotSite, hotSpots, HotType } from '../../core/views/hot-spots';
import { FrameTree } from '../../core/views/frames';
import { shortClass } from '../../core/profile/names';
import { MethodEntry } from '../../core/profile/types';
import { bytes, num, percent } from '../../core/format';
import { AppContext } from '../context';
import { clear, el, select } from './dom';
import { ToolbarView } from './toolbar-view';
import { allocationsPatch, threadOptions } from './flame-tab';

const MAX_TYPES = 200;

export class HotSpotsView extends ToolbarView {
  private readonly filter = el('input', { type: 'search', class: 'search', placeholder: 'Filter by type', 'aria-label': 'Filter types' });
  private readonly info = el('div', { class: 'muted view-info' });
  private readonly body = el('div', { class: 'hs-body', role: 'tree', 'aria-label': 'Allocation hot spots by class' });
  private cache?: { tree: FrameTree; metric: HotMetric; types: HotType[] };
  private traces = new Map<string, BackTraceNode[]>();
  private ctx?: AppContext;

  constructor() {
    super('hotspots', 'Hot spots');
    this.filter.addEventListener('input', () => this.ctx?.update({ hotFilter: this.filter.value }));
    this.root.append(this.info, this.body);
    this.body.addEventListener('keydown', (e) => this.onKey(e));
  }

  focus(): void {
    (this.body.querySelector('[tabindex="0"]') as HTMLElement | null)?.focus();
  }

  render(ctx: AppContext): void {
    this.ctx = ctx;
    const s = ctx.state;
    const p = ctx.data.profile;
    const typing = document.activeElement === this.filter;
    clear(this.bar);
    this.bar.append(
      select('Thread', threadOptions(ctx), String(s.thread), (v) => ctx.update({ thread: Number(v) })),
      select('Rank by', [['bytes', 'bytes'], ['allocations', 'allocations']] as const, s.hotMetric, (v) => ctx.update({ hotMetric: v })),
      this.filter,
    );
    if (typing) this.filter.focus();          // re-appending the box would take the focus from the user typing
    const tree = ctx.data.tree({ thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: false });
    if (!this.cache || this.cache.tree !== tree || this.cache.metric !== s.hotMetric) {
      this.cache = { tree, metric: s.hotMetric, types: hotSpots(tree, p.types, p.sites, s.hotMetric) };
      this.traces.clear();
    }
    if (this.filter.value !== s.hotFilter) this.filter.value = s.hotFilter;
    const q = s.hotFilter.trim().toLowerCase();
    const all = this.cache.types;
    const types = q ? all.filter((t) => t.name.toLowerCase().includes(q)) : all;
    const grand = all.reduce((sum, t) => sum + (s.hotMetric === 'bytes' ? t.bytes : t.allocations), 0);
    this.info.textContent = `${num(types.length)} of ${num(all.length)} allocated types, ranked by ${s.hotMetric}. Open a type for its allocation sites, a site for the calls that led there (its method first, then the callers). Double-click a site or a frame to open its source.`;
    const open = new Set(s.hotOpen);
    const rows: HTMLElement[] = [];
    for (const t of types.slice(0, MAX_TYPES)) {
      const tk = `t${t.type}`;
      rows.push(this.row(1, open.has(tk), t.sites.length > 0, tk, t.name, t, grand, s.hotMetric, `${num(t.sites.length)} site${t.sites.length === 1 ? '' : 's'}`));
      if (!open.has(tk)) continue;
      for (const site of t.sites) {
        const sk = `s${t.type}:${site.site}`;
        const m = site.method !== undefined ? p.methods.get(site.method) : undefined;
        const where = this.siteName(m, site);
        const r = this.row(2, open.has(sk), site.contexts.length > 0, sk, where, site, grand, s.hotMetric,
          `${site.kind} · ${num(site.contexts.length)} calling context${site.contexts.length === 1 ? '' : 's'}`);
        r.addEventListener('dblclick', () => m && ctx.open(m.id, site.line));
        rows.push(r);
        if (!open.has(sk)) continue;
        let list = this.traces.get(sk);
        if (!list) this.traces.set(sk, (list = backTraces(tree, site.contexts, s.hotMetric)));
        this.traceRows(rows, list, 3, `c${t.type}:${site.site}:`, open, grand, s.hotMetric, p.methods, site);
      }
    }
    if (types.length > MAX_TYPES) rows.push(el('div', { class: 'muted hs-more' }, `… ${num(types.length - MAX_TYPES)} more types: filter to see them.`));
    if (types.length === 0) rows.push(el('div', { class: 'empty' }, all.length === 0 ? 'No allocations recorded in this tree.' : 'No type matches the filter.'));
    this.body.replaceChildren(el('div', { class: 'hs-row hs-head', 'aria-hidden': 'true' },
      el('span', { class: 'hs-name' }, 'Type › site › calls that led there'), el('span', { class: 'num' }, 'allocations'), el('span', { class: 'num' }, 'bytes'),
      el('span', { class: 'num' }, '% of all'), el('span', {}, '')), ...rows);
    const first = this.body.querySelector('.hs-row[role="treeitem"]');
    first?.setAttribute('tabindex', '0');
  }

  private siteName(m: MethodEntry | undefined, site: HotSite): string {
    if (!m) return `site ${site.site}`;
    return `${shortClass(m.class)}.${m.name}${m.file ? ` (${m.file}${site.line !== undefined ? `:${site.line}` : ''})` : site.line !== undefined ? `:${site.line}` : ''}`;
  }

  private traceRows(out: HTMLElement[], list: readonly BackTraceNode[], level: number, prefix: string, open: ReadonlySet<string>, grand: number,
    metric: HotMetric, methods: ReadonlyMap<number, MethodEntry>, site: HotSite): void {
    for (const n of list) {
      const key = prefix + n.path.join(',');
      const m = methods.get(n.method);
      // the first frame is where the site's allocation ran (its line); callers with the line of their call
      const line = level === 3 ? (n.method === site.method ? site.line : undefined) : n.line;
      const name = m ? `${level === 3 ? '' : '← '}${shortClass(m.class)}.${m.name}${m.file ? ` (${m.file}${line !== undefined ? `:${line}` : ''})` : ''}` : `?${n.method}`;
      const r = this.row(level, open.has(key), n.children.length > 0, key, name, n, grand, metric, level === 3 ? '' : 'called from here');
      r.addEventListener('dblclick', () => m && this.ctx?.open(m.id, line));
      const ctx = this.ctx!;
      r.addEventListener('keydown', (e) => {
        if (e.key === 'f' || e.key === 'F') {
          // the full calling context in the flame tree: the path from the top is this node's path reversed
          const path = n.path.slice().reverse();
          ctx.update({ view: 'flame', highlight: path, selected: path, zoom: [], inverted: false, ...allocationsPatch(ctx) });
        }
      });
      out.push(r);
      if (open.has(key)) this.traceRows(out, n.children, level + 1, prefix, open, grand, metric, methods, site);
    }
  }

  private row(level: number, expanded: boolean, expandable: boolean, key: string, name: string, v: { allocations: number; bytes: number },
    grand: number, metric: HotMetric, note: string): HTMLElement {
    const twisty = el('span', { class: `ct-twisty codicon ${expandable ? (expanded ? 'codicon-chevron-down' : 'codicon-chevron-right') : ''}`, 'aria-hidden': 'true' });
    const label = el('span', { class: 'hs-name', title: name }, twisty, name);
    label.style.paddingLeft = `${(level - 1) * 16}px`;
    const share = grand > 0 ? (metric === 'bytes' ? v.bytes : v.allocations) / grand : 0;
    const r = el('div', {
      class: `hs-row hs-level${Math.min(level, 4)}`, role: 'treeitem', 'aria-level': String(level), tabindex: '-1', 'data-key': key,
      ...(expandable ? { 'aria-expanded': String(expanded) } : {}),
    }, label, el('span', { class: 'num' }, num(v.allocations)), el('span', { class: 'num', title: `${num(v.bytes)} bytes` }, bytes(v.bytes)),
    el('span', { class: 'num' }, percent(share)), el('span', { class: 'muted hs-note' }, note));
    r.addEventListener('click', () => expandable && this.toggle(key, r));
    return r;
  }

  private toggle(key: string, from?: HTMLElement): void {
    const ctx = this.ctx;
    if (!ctx) return;
    const open = ctx.state.hotOpen;
    const next = open.includes(key) ? open.filter((k) => k !== key && !k.startsWith(key.startsWith('t') ? `s${key.slice(1)}:` : `${key},`)) : [...open, key];
    ctx.update({ hotOpen: next });
    const again = this.body.querySelector(`[data-key="${CSS.escape(key)}"]`) as HTMLElement | null;
    if (from && again) {
      again.setAttribute('tabindex', '0');
      again.focus();
    }
  }

  private onKey(e: KeyboardEvent): void {
    const row = (e.target as HTMLElement).closest('.hs-row') as HTMLElement | null;
    if (!row) return;
    const rows = [...this.body.querySelectorAll('.hs-row[role="treeitem"]')] as HTMLElement[];
    const k = rows.indexOf(row);
    const move = (to: HTMLElement | undefined): void => {
      if (!to) return;
      row.setAttribute('tabindex', '-1');
      to.setAttribute('tabindex', '0');
      to.focus();
    };
    const key = row.dataset.key!;
    const expanded = row.getAttribute('aria-expanded');
    if (e.key === 'ArrowDown') move(rows[k + 1]);
    else if (e.key === 'ArrowUp') move(rows[k - 1]);
    else if (e.key === 'ArrowRight' && expanded === 'false') this.toggle(key, row);
    else if (e.key === 'ArrowRight' && expanded === 'true') move(rows[k + 1]);
    else if (e.key === 'ArrowLeft' && expanded === 'true') this.toggle(key, row);
    else if (e.key === 'Enter' && expanded !== null) this.toggle(key, row);
    else if (e.key === 'o' || e.key === 'O') row.dispatchEvent(new MouseEvent('dblclick'));
    else return;
    e.preventDefault();
  }
}
