// Messages between the extension host and the heap analysis worker (dist/heap-worker.js). One worker holds one
// opened dump; requests are answered in order (the worker is busy while it computes); progress messages come
// in between.
import type { HeapProgress, PathResult } from './analysis';
import type { HistogramRow, HeapViewData } from '../../core/protocol/heap-rows';

export type HeapRequest =
  | { id: number; kind: 'open'; file: string; memoryLimitBytes?: number }
  | { id: number; kind: 'view'; title: string; className?: string; maxPaths?: number }
  | { id: number; kind: 'histogram'; limit: number }
  | { id: number; kind: 'paths'; className: string; max: number };

/** What the dump holds, once both passes are done. */
export interface OpenedDump {
  file: string;
  objects: number;
  references: number;
  timings: Record<string, number>;
}

export interface HeapResults {
  open: OpenedDump;
  view: HeapViewData;
  histogram: { rows: HistogramRow[]; more: number };
  paths: PathResult;
}

export type HeapReply =
  | { kind: 'progress'; id: number; progress: HeapProgress }
  | { kind: 'result'; id: number; value: unknown }
  | { kind: 'error'; id: number; message: string };
