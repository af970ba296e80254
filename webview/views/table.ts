// A sortable table rendered with d3-selection; rows are keyboard-selectable (arrows, Enter).
import { select } from 'd3-selection';
import { el } from './dom';

export interface Column<R> {
  key: string;
  label: string;
  numeric?: boolean;
  /** takes the remaining width, cut with an ellipsis (the full text belongs in `title`) */
  wide?: boolean;
  /** cut at a moderate width with an ellipsis */
  clip?: boolean;
  cell(r: R): string | Node;
  /** compare for sorting by this column (ascending); columns without one cannot be sorted */
  compare?(a: R, b: R): number;
  title?(r: R): string;
}

export interface TableOptions<R> {
  caption: string;
  sort?: { key: string; desc: boolean };
  onSort?(key: string): void;
  /** Enter or click */
  onActivate?(r: R): void;
  /** double-click or the row's secondary action */
  onOpen?(r: R): void;
  isSelected?(r: R): boolean;
  limit?: number;
}

/** Replaces the content of `host` with the table; returns the rows shown (after sorting and limit). */
export function renderTable<R>(host: HTMLElement, rows: readonly R[], cols: ReadonlyArray<Column<R>>, o: TableOptions<R>): R[] {
  let shown = rows.slice();
  const sortCol = o.sort ? cols.find((c) => c.key === o.sort!.key) : undefined;
  if (sortCol?.compare) {
    const cmp = sortCol.compare;
    shown.sort((a, b) => (o.sort!.desc ? -cmp(a, b) : cmp(a, b)));
  }
  const limit = o.limit ?? 500;
  const more = shown.length - limit;
  if (more > 0) shown = shown.slice(0, limit);

  const table = el('table', { class: 'grid', 'aria-label': o.caption });
  const head = select(table).append('thead').append('tr');
  head.selectAll<HTMLTableCellElement, Column<R>>('th').data(cols).join('th')
    .attr('class', (c) => (c.numeric ? 'num' : ''))
    .attr('aria-sort', (c) => (o.sort?.key === c.key ? (o.sort.desc ? 'descending' : 'ascending') : null))
    .each(function (this: HTMLTableCellElement, c) {
      if (c.compare && o.onSort) {
        const arrow = o.sort?.key === c.key ? (o.sort.desc ? ' ▼' : ' ▲') : '';
        const b = el('button', { type: 'button', class: 'th-sort', title: `Sort by ${c.label}` }, c.label + arrow);
        b.addEventListener('click', () => o.onSort!(c.key));
        this.append(b);
      } else {
        this.textContent = c.label;
      }
    });
  const body = select(table).append('tbody');
  const tr = body.selectAll<HTMLTableRowElement, R>('tr').data(shown).join('tr')
    .attr('tabindex', (_, k) => (k === 0 ? '0' : '-1'))
    .attr('aria-selected', (r) => (o.isSelected?.(r) ? 'true' : null))
    .classed('selected', (r) => o.isSelected?.(r) ?? false);
  tr.selectAll<HTMLTableCellElement, { r: R; c: Column<R> }>('td').data((r) => cols.map((c) => ({ r, c }))).join('td')
    .attr('class', (d) => (d.c.numeric ? 'num' : d.c.wide ? 'wide' : d.c.clip ? 'clip' : ''))
    .attr('title', (d) => d.c.title?.(d.r) ?? (d.c.clip || d.c.wide ? textOf(d.c.cell(d.r)) : null))
    .each(function (this: HTMLTableCellElement, d) {
      this.append(d.c.cell(d.r));
    });
  tr.on('click', (_e, r) => o.onActivate?.(r))
    .on('dblclick', (_e, r) => o.onOpen?.(r))
    .on('keydown', function (e: KeyboardEvent, r) {
      const row = this as HTMLTableRowElement;
      const move = (to: Element | null): void => {
        if (!to) return;
        row.setAttribute('tabindex', '-1');
        to.setAttribute('tabindex', '0');
        (to as HTMLElement).focus();
      };
      if (e.key === 'ArrowDown') move(row.nextElementSibling);
      else if (e.key === 'ArrowUp') move(row.previousElementSibling);
      else if (e.key === 'Enter') (e.shiftKey ? o.onOpen : o.onActivate)?.(r);
      else return;
      e.preventDefault();
    });
  host.replaceChildren(table);
  if (more > 0) host.append(el('p', { class: 'muted table-more' }, `… ${more} more rows: refine the filter to see them.`));
  return shown;
}

function textOf(v: string | Node): string | null {
  return typeof v === 'string' ? v : v.textContent;
}
