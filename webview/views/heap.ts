// Heap: a heap dump's class histogram (click a class for its paths from GC roots), the largest dominators,
// and the shortest reference paths from GC roots to the chosen class, each step naming the field or index.
import type { HeapViewData } from '../../core/protocol/heap-rows';
import type { HistogramRow, DominatorRow } from '../../core/protocol/heap-rows';
import { bytes, num } from '../../core/format';
import { WebviewMessage } from '../../core/protocol/webview-protocol';
import { button, clear, el, toggle } from './dom';
import { Column, renderTable } from './table';

export class HeapView {
  readonly root: HTMLElement;
  private readonly head = el('div', { class: 'view-info heap-head' });
  private readonly paths = el('section', { class: 'heap-paths', 'aria-label': 'Paths from GC roots' });
  private readonly histogram = el('div', { class: 'table-wrap compact heap-histogram' });
  private readonly dominators = el('div', { class: 'table-wrap compact heap-dominators' });
  /** HeapLens's own objects (the agent's registry and tables) are in the dump too; hidden unless asked for */
  private showAgent = false;
  private last?: { heap: HeapViewData | undefined; post: (m: WebviewMessage) => void; canDump: boolean };

  constructor() {
    this.root = el('section', { class: 'view view-heap', 'aria-label': 'Heap' }, this.head, this.paths,
      el('h2', { class: 'heap-title' }, 'Classes (click one for its paths from GC roots)'), this.histogram,
      el('h2', { class: 'heap-title' }, 'Largest dominators (objects that alone keep the most memory alive)'), this.dominators);
  }

  render(heap: HeapViewData | undefined, post: (m: WebviewMessage) => void, canDump: boolean): void {
    this.last = { heap, post, canDump };
    clear(this.head);
    clear(this.paths);
    if (canDump) this.head.append(button('Take Heap Dump', 'database', () => post({ type: 'heapDump' }), 'Dump the heap of the running session (live objects) and analyse it'));
    if (!heap) {
      this.head.append(el('span', { class: 'muted' }, ' No heap dump yet: take one from a running session, or run "HeapLens: Open Heap Dump".'));
      clear(this.histogram);
      clear(this.dominators);
      return;
    }
    this.head.append(el('span', { class: 'muted' },
      ` ${heap.title} · ${num(heap.objects)} objects · ${num(heap.references)} references · ${bytes(heap.totalShallowBytes)} (shallow sizes are estimates: compressed references, 12-byte headers)`));
    this.head.append(toggle('HeapLens agent objects', this.showAgent, (v) => {
      this.showAgent = v;
      if (this.last) this.render(this.last.heap, this.last.post, this.last.canDump);
    }, 'Show the objects of the HeapLens agent itself (io.heaplens.*), which are in the dump too'));
    this.renderPaths(heap);
    const chosen = heap.paths?.className;
    const ours = (name: string): boolean => !this.showAgent && /^(class )?io\.heaplens\./.test(name);
    const hcols: Array<Column<HistogramRow>> = [
      { key: 'class', label: 'class', wide: true, cell: (r) => r.className, title: (r) => r.className },
      { key: 'objects', label: 'objects', numeric: true, cell: (r) => num(r.objects), compare: (a, b) => a.objects - b.objects },
      { key: 'shallow', label: 'shallow', numeric: true, cell: (r) => bytes(r.shallowBytes), title: (r) => `${num(r.shallowBytes)} bytes`, compare: (a, b) => a.shallowBytes - b.shallowBytes },
      { key: 'retained', label: 'retained', numeric: true, cell: (r) => bytes(r.retainedBytes), title: (r) => `${num(r.retainedBytes)} bytes`, compare: (a, b) => a.retainedBytes - b.retainedBytes },
    ];
    renderTable(this.histogram, heap.histogram.filter((r) => !ours(r.className)), hcols, {
      caption: 'Class histogram', limit: 300,
      onActivate: (r) => post({ type: 'heapPaths', className: r.className }),
      isSelected: (r) => r.className === chosen,
    });
    const dcols: Array<Column<DominatorRow>> = [
      { key: 'object', label: 'object', wide: true, cell: (r) => `${r.className} ${r.id}`, title: (r) => `${r.className} ${r.id}` },
      { key: 'shallow', label: 'shallow', numeric: true, cell: (r) => bytes(r.shallowBytes) },
      { key: 'retained', label: 'retained', numeric: true, cell: (r) => bytes(r.retainedBytes), title: (r) => `${num(r.retainedBytes)} bytes` },
      { key: 'children', label: 'dominates', numeric: true, cell: (r) => num(r.children) },
    ];
    renderTable(this.dominators, heap.dominators.filter((r) => !ours(r.className)), dcols, {
      caption: 'Largest dominators',
      onActivate: (r) => post({ type: 'heapPaths', className: r.className.replace(/^class /, 'java.lang.Class') }),
    });
  }

  private renderPaths(heap: HeapViewData): void {
    if (heap.pathsError) {
      this.paths.append(el('div', { class: 'error-text' }, heap.pathsError));
      return;
    }
    const p = heap.paths;
    if (!p) return;
    this.paths.append(el('h2', { class: 'heap-title' },
      `Why is ${p.className} still alive? Shortest paths from GC roots (${p.paths.length} of ${num(p.instances)} objects, nearest first)`));
    if (p.paths.length === 0) {
      this.paths.append(el('div', { class: 'muted' }, 'No object of this class is reachable from a GC root: the next collection frees them.'));
      return;
    }
    // Paths that differ only in array indices are one shape: shown once, with how many objects follow it.
    const shapes = new Map<string, { steps: string[]; count: number }>();
    for (const steps of p.paths) {
      const key = steps.map((x) => x.replace(/\[\d+\]$/, '[…]')).join('\n');
      const have = shapes.get(key);
      if (have) have.count++;
      else shapes.set(key, { steps, count: 1 });
    }
    const list = el('ol', { class: 'heap-path-list' });
    for (const { steps, count } of shapes.values()) {
      const li = el('li', { class: 'heap-path' });
      if (count > 1) li.append(el('span', { class: 'heap-count', title: `${count} of the paths shown have this shape (they differ in array indices)` }, `${count}× `));
      steps.forEach((s, i) => {
        if (i > 0) li.append(el('span', { class: 'heap-arrow', 'aria-hidden': 'true' }, ' → '));
        const kind = i === 0 ? 'heap-root' : i === steps.length - 1 ? 'heap-target' : 'heap-step';
        li.append(el('span', { class: kind, title: s }, s));
      });
      list.append(li);
    }
    this.paths.append(list);
  }
}
