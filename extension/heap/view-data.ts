// What the Heap view shows (sent to the webview as JSON): a bounded histogram, the top dominators, and the
// paths from GC roots for one class.
import { HeapAnalysis } from './analysis';
import { HeapViewData } from '../../core/protocol/heap-rows';

export type { HeapPaths, HeapViewData } from '../../core/protocol/heap-rows';

export function heapViewData(h: HeapAnalysis, file: string, title: string, className?: string, maxPaths = 20): HeapViewData {
  const histogram = h.histogram();
  const total = histogram.reduce((t, r) => t + r.shallowBytes, 0);
  const data: HeapViewData = {
    file, title, objects: h.objectCount, references: h.graph.edges.length, totalShallowBytes: total,
    histogram: histogram.slice(0, 1000), histogramMore: Math.max(0, histogram.length - 1000),
    dominators: h.dominated(h.superRoot, 50),
  };
  if (className) {
    try {
      const r = h.pathsTo(className, maxPaths);
      data.paths = { className: r.className, instances: r.instances, paths: r.paths.map((p) => p.steps) };
    } catch (e) {
      data.pathsError = (e as Error).message;
    }
  }
  return data;
}
