// One opened heap dump: two streaming passes build the graph; dominators, histogram and paths are computed on
// demand over typed arrays. No vscode import: the CLI, the extension and the tests share it.
import * as fs from 'fs';
import { ChunkReader } from './reader';
import { indexDump } from './index-pass';
import { buildGraph, HeapGraph } from './graph-pass';
import { DominatorResult, dominatorChildren, dominators, retainedSizes } from './dominators';
import { edgeLabel, rootLabel, threadName } from './labels';
import { DominatorRow, HistogramRow } from '../../core/protocol/heap-rows';

export type { DominatorRow, HistogramRow } from '../../core/protocol/heap-rows';

export interface RetentionPath {
  object: number;
  /** root label, then one label per reference, then the class name */
  steps: string[];
}

/** Where a long computation is: the two passes read the file (bytes of total), the others report their phase. */
export type HeapPhase = 'index' | 'graph' | 'dominators' | 'paths';
export interface HeapProgress {
  phase: HeapPhase;
  /** file offset read up to (index, graph); 0 otherwise */
  bytes: number;
  /** the file's size (index, graph); 0 otherwise */
  total: number;
}
export type ProgressListener = (p: HeapProgress) => void;

/** Bytes of typed arrays per object, measured: ~100 (peak RSS 500 MB for 4.6 million objects, 1.77 GB for 20.6 million). */
export const BYTES_PER_OBJECT = 100;

export interface OpenOptions {
  /** hears about each chunk of the file read, and when dominators or paths start */
  progress?: ProgressListener;
  /** refuse a dump whose graph would need more (BYTES_PER_OBJECT × objects, checked after the first pass) */
  memoryLimitBytes?: number;
}

export interface PathResult {
  className: string;
  /** objects of that class in the dump, reachable or not */
  instances: number;
  paths: RetentionPath[];
}

export class HeapAnalysis {
  readonly graph: HeapGraph;
  private dom?: DominatorResult;
  private retained?: Float64Array;
  private domTree?: { start: Int32Array; children: Int32Array };
  private bfsParent?: Int32Array;
  private bfsOrder?: Int32Array;
  readonly timings: Record<string, number> = {};
  /** told when a computation on demand (dominators, paths) starts: it may take a while on a big dump */
  onProgress?: ProgressListener;

  private constructor(private readonly reader: ChunkReader, private readonly fd: number, options: OpenOptions) {
    const progress = options.progress;
    this.onProgress = progress;
    const passProgress = (phase: HeapPhase) => {
      if (!progress) return undefined;
      progress({ phase, bytes: 0, total: reader.size });
      return (offset: number) => progress({ phase, bytes: Math.min(offset, reader.size), total: reader.size });
    };
    let t = Date.now();
    reader.onRead = passProgress('index');
    const index = indexDump(reader);
    progress?.({ phase: 'index', bytes: reader.size, total: reader.size });
    this.timings.indexMs = Date.now() - t;
    const need = index.ids.length * BYTES_PER_OBJECT;
    if (options.memoryLimitBytes !== undefined && need > options.memoryLimitBytes) {
      throw new Error(`the dump holds ${index.ids.length.toLocaleString('en-US')} objects: analysing it needs about ${gib(need)} GB, ` +
        `more than the ${gib(options.memoryLimitBytes)} GB it may use here (docs/heap.md, "Where the analysis runs")`);
    }
    t = Date.now();
    reader.onRead = passProgress('graph');
    this.graph = buildGraph(reader, index);
    progress?.({ phase: 'graph', bytes: reader.size, total: reader.size });
    reader.onRead = undefined;               // later reads are labels of a few paths
    this.timings.graphMs = Date.now() - t;
  }

  /** Reads the dump (both passes). */
  static open(file: string, options: OpenOptions = {}): HeapAnalysis {
    const fd = fs.openSync(file, 'r');
    try {
      return new HeapAnalysis(new ChunkReader(fd), fd, options);
    } catch (e) {
      fs.closeSync(fd);
      throw new Error(`${file}: ${(e as Error).message}`);
    }
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  get objectCount(): number {
    return this.graph.n;
  }

  get superRoot(): number {
    return this.graph.n;
  }

  private dominatorsComputed(): { dom: DominatorResult; retained: Float64Array } {
    if (!this.dom || !this.retained) {
      this.onProgress?.({ phase: 'dominators', bytes: 0, total: 0 });
      const t = Date.now();
      const g = this.graph;
      this.dom = dominators({ count: g.n + 1, start: g.edgeStart, length: g.edgeCount, targets: g.edges }, g.n);
      this.retained = retainedSizes(this.dom, g.shallow);
      this.timings.dominatorsMs = Date.now() - t;
    }
    return { dom: this.dom, retained: this.retained };
  }

  idom(obj: number): number {
    return this.dominatorsComputed().dom.idom[obj];
  }

  retainedOf(obj: number): number {
    return this.dominatorsComputed().retained[obj];
  }

  /**
   * Per class: instances, shallow bytes, and retained bytes — the sum of the retained sizes of its instances
   * that no other instance of the same class dominates (so nested instances are not counted twice).
   * Sorted by retained, then shallow bytes, largest first.
   */
  histogram(): HistogramRow[] {
    const g = this.graph;
    const { dom, retained } = this.dominatorsComputed();
    const T = g.types.length;
    const objects = new Float64Array(T);
    const shallow = new Float64Array(T);
    for (let i = 0; i < g.n; i++) {
      const t = g.typeOf[i];
      if (t < 0) continue;
      objects[t]++;
      shallow[t] += g.shallow[i];
    }
    const classRetained = new Float64Array(T);
    const tree = this.tree();
    const onPath = new Int32Array(T);
    // Iterative DFS over the dominator tree; a negative stack entry marks leaving a node.
    const stack = new Int32Array(2 * (g.n + 2));
    let sp = 0;
    stack[sp++] = g.n;
    while (sp > 0) {
      const v = stack[--sp];
      if (v < 0) {
        onPath[g.typeOf[-v - 1]]--;
        continue;
      }
      if (v < g.n) {
        const t = g.typeOf[v];
        if (onPath[t] === 0) classRetained[t] += retained[v];
        onPath[t]++;
        stack[sp++] = -v - 1;
      }
      for (let k = tree.start[v]; k < tree.start[v + 1]; k++) stack[sp++] = tree.children[k];
    }
    void dom;
    const rows: HistogramRow[] = [];
    for (let t = 0; t < T; t++) {
      if (objects[t] === 0) continue;
      rows.push({ className: g.types[t].name, objects: objects[t], shallowBytes: shallow[t], retainedBytes: classRetained[t] });
    }
    rows.sort((a, b) => b.retainedBytes - a.retainedBytes || b.shallowBytes - a.shallowBytes || a.className.localeCompare(b.className));
    return rows;
  }

  private tree(): { start: Int32Array; children: Int32Array } {
    if (!this.domTree) this.domTree = dominatorChildren(this.dominatorsComputed().dom, this.graph.n + 1);
    return this.domTree;
  }

  /** The objects `parent` immediately dominates (the super-root's: the top dominators), largest first. */
  dominated(parent: number, limit = 50): DominatorRow[] {
    const { retained } = this.dominatorsComputed();
    const tree = this.tree();
    const g = this.graph;
    const kids = Array.from(tree.children.subarray(tree.start[parent], tree.start[parent + 1]));
    kids.sort((a, b) => retained[b] - retained[a]);
    return kids.slice(0, limit).map((o) => ({
      object: o,
      className: this.describe(o),
      id: `0x${g.index.ids[o].toString(16)}`,
      shallowBytes: g.shallow[o],
      retainedBytes: retained[o],
      children: tree.start[o + 1] - tree.start[o],
    }));
  }

  /** `java.util.HashMap`, or `class java.util.HashMap` for a class object. */
  describe(obj: number): string {
    const g = this.graph;
    if (obj === g.n) return '<GC roots>';
    if (g.typeOf[obj] === g.classType) {
      const cls = g.index.classes.get(g.index.ids[obj]);
      if (cls) return `class ${cls.name}`;
    }
    return g.types[g.typeOf[obj]].name;
  }

  /**
   * Breadth-first from the GC roots. The profiler's own threads (heaplens-collector, …) hold the objects they
   * are writing out on their stacks for a moment; those roots are visited last, so a path through them is shown
   * only for an object nothing of the program keeps alive ("why is it still alive?" is about the program).
   */
  private bfs(): { parent: Int32Array; order: Int32Array } {
    if (!this.bfsParent || !this.bfsOrder) {
      this.onProgress?.({ phase: 'paths', bytes: 0, total: 0 });
      const g = this.graph;
      const parent = new Int32Array(g.n + 1).fill(-1);
      const queue = new Int32Array(g.n + 1);
      let head = 0;
      let tail = 0;
      parent[g.n] = g.n;
      const deferred: number[] = [];
      for (let k = g.edgeStart[g.n], end = k + g.edgeCount[g.n]; k < end; k++) {
        const w = g.edges[k];
        if (parent[w] >= 0) continue;
        if (this.isProfilerRoot(w)) { deferred.push(w); continue; }
        parent[w] = g.n;
        queue[tail++] = w;
      }
      const drain = (): void => {
        while (head < tail) {
          const v = queue[head++];
          for (let k = g.edgeStart[v], end = k + g.edgeCount[v]; k < end; k++) {
            const w = g.edges[k];
            if (parent[w] < 0) {
              parent[w] = v;
              queue[tail++] = w;
            }
          }
        }
      };
      drain();
      for (const w of deferred) {
        if (parent[w] >= 0) continue;
        parent[w] = g.n;
        queue[tail++] = w;
      }
      drain();
      // order[0] is the super-root, as callers expect
      const order = new Int32Array(tail + 1);
      order[0] = g.n;
      order.set(queue.subarray(0, tail), 1);
      this.bfsParent = parent;
      this.bfsOrder = order;
    }
    return { parent: this.bfsParent, order: this.bfsOrder };
  }

  /** A root held by one of the agent's threads (their names start with "heaplens-"). */
  private isProfilerRoot(obj: number): boolean {
    const g = this.graph;
    const root = g.roots.get(obj);
    if (!root) return false;
    let thread: number | undefined;
    if (root.kind === 'java-frame' || root.kind === 'jni-local') thread = g.threads.get(root.thread)?.object;
    else if (root.kind === 'thread-object') thread = obj;
    if (thread === undefined) return false;
    return /^heaplens-/.test(threadName(this.reader, g, thread) ?? '');
  }

  /** Class names as in the histogram that match `name` exactly, or by simple name when no exact match. */
  resolveClass(name: string): number[] {
    const types = this.graph.types;
    const exact = types.flatMap((t, i) => (t.name === name ? [i] : []));
    if (exact.length) return exact;
    return types.flatMap((t, i) => (t.name.endsWith(`.${name}`) || t.name.endsWith(`$${name}`) ? [i] : []));
  }

  /** Shortest reference paths from the GC roots to up to `max` objects of the class, nearest first. */
  pathsTo(className: string, max = 10): PathResult {
    const g = this.graph;
    const types = this.resolveClass(className);
    if (types.length === 0) throw new Error(`no class named ${className} in the dump`);
    const wanted = new Set(types);
    let instances = 0;
    for (let i = 0; i < g.n; i++) if (wanted.has(g.typeOf[i])) instances++;
    const { parent, order } = this.bfs();
    const paths: RetentionPath[] = [];
    for (let i = 1; i < order.length && paths.length < max; i++) {
      const o = order[i];
      if (!wanted.has(g.typeOf[o])) continue;
      paths.push({ object: o, steps: this.pathSteps(o, parent) });
    }
    return { className: types.map((t) => g.types[t].name).join(', '), instances, paths };
  }

  private pathSteps(obj: number, parent: Int32Array): string[] {
    const g = this.graph;
    const chain: number[] = [];
    for (let v = obj; v !== g.n; v = parent[v]) chain.push(v);
    chain.reverse();
    const steps = [rootLabel(this.reader, g, chain[0])];
    for (let i = 0; i + 1 < chain.length; i++) steps.push(edgeLabel(this.reader, g, chain[i], chain[i + 1]));
    steps.push(this.describe(obj));
    return steps;
  }
}

function gib(bytes: number): string {
  return (bytes / 2 ** 30).toFixed(1);
}

export function formatPath(p: RetentionPath): string {
  return p.steps.join(' -> ');
}
