// The Heap view's data shapes: plain JSON, shared by the extension host and the webview (no Node imports).

export interface HistogramRow {
  className: string;
  objects: number;
  shallowBytes: number;
  retainedBytes: number;
}

export interface DominatorRow {
  object: number;
  className: string;
  id: string;
  shallowBytes: number;
  retainedBytes: number;
  children: number;
}

export interface HeapPaths {
  className: string;
  instances: number;
  /** each path: root label, reference labels, class */
  paths: string[][];
}

export interface HeapViewData {
  file: string;
  title: string;
  objects: number;
  references: number;
  totalShallowBytes: number;
  histogram: HistogramRow[];
  /** rows cut from the histogram (it keeps the 1000 largest by retained size) */
  histogramMore: number;
  dominators: DominatorRow[];
  paths?: HeapPaths;
  /** a message instead of paths (e.g. "no class named X") */
  pathsError?: string;
}

