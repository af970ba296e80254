// The extension host's side of the heap analysis worker: one Worker per opened dump, requests as promises,
// progress to a listener, cancel = terminate. No vscode import (the unit tests drive it directly).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Worker } from 'worker_threads';
import type { HeapProgress, PathResult } from './analysis';
import type { HistogramRow, HeapViewData } from '../../core/protocol/heap-rows';
import type { HeapReply, HeapRequest, HeapResults, OpenedDump } from './worker-protocol';

/**
 * The worker's V8 heap (old generation) limit. The analysis keeps its graph in typed arrays, which live outside
 * that heap; the JS heap holds only names, class layouts and result rows (~10 MB for a 4.6-million-object dump).
 * 1 GiB leaves a hundredfold margin and stops a runaway worker long before it could exhaust the machine: over
 * the limit the worker alone ends (ERR_WORKER_OUT_OF_MEMORY), not the extension host.
 */
export const WORKER_HEAP_MB = 1024;

/**
 * The typed arrays' budget: half of the machine's memory, at least 1 GiB (12 GB on the 24 GB machines we test on:
 * about 120 million objects, a ~5 GB dump). A bigger dump is refused after the first pass with its numbers.
 */
export function defaultMemoryLimitBytes(): number {
  return Math.max(2 ** 30, Math.floor(os.totalmem() / 2));
}

/** The user cancelled (the worker was terminated); not an error to report. */
export class HeapCancelled extends Error {
  constructor(what: string) {
    super(`${what} was cancelled`);
    this.name = 'HeapCancelled';
  }
}

export interface HeapWorkerOptions {
  memoryLimitBytes?: number;
  /** the worker's old-generation limit in MB (WORKER_HEAP_MB) */
  heapMb?: number;
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

export class HeapWorker {
  private readonly worker: Worker;
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private failure?: Error;
  /** resolves when both passes are done */
  readonly opened: Promise<OpenedDump>;
  /** resolves with the exit code when the worker thread has ended */
  readonly exited: Promise<number>;
  /** hears the progress of whatever the worker computes now */
  onProgress?: (p: HeapProgress) => void;

  /** Starts a worker and has it read `file` (`workerFile`: dist/heap-worker.js). */
  constructor(workerFile: string, readonly file: string, options: HeapWorkerOptions = {}) {
    if (!fs.existsSync(workerFile)) throw new Error(`the heap analysis worker ${workerFile} is missing (run npm run build)`);
    const heapMb = options.heapMb ?? WORKER_HEAP_MB;
    this.worker = new Worker(workerFile, { resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    this.worker.on('message', (reply: HeapReply) => this.receive(reply));
    this.worker.on('error', (e: Error & { code?: string }) => {
      this.stop(e.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new Error(`${file}: the heap analysis ran out of memory (its JavaScript heap may grow to ${heapMb} MB)`)
        : new Error(`${file}: the heap analysis failed: ${e.message}`));
    });
    this.exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.on('exit', (code) => this.stop(new Error(`${file}: the heap analysis stopped (exit code ${code})`)));
    this.opened = this.request<'open'>({ kind: 'open', file, memoryLimitBytes: options.memoryLimitBytes ?? defaultMemoryLimitBytes() }) as Promise<OpenedDump>;
    // a dump that cannot be read ends the worker; the requests queued behind it get the same message
    this.opened.catch((e: Error) => this.stop(e));
  }

  /** false once the worker ended (cancelled, failed, out of memory): start a new one. */
  get usable(): boolean {
    return !this.failure;
  }

  view(title: string, className?: string, maxPaths?: number): Promise<HeapViewData> {
    return this.request<'view'>({ kind: 'view', title, className, maxPaths });
  }

  histogram(limit: number): Promise<{ rows: HistogramRow[]; more: number }> {
    return this.request<'histogram'>({ kind: 'histogram', limit });
  }

  paths(className: string, max: number): Promise<PathResult> {
    return this.request<'paths'>({ kind: 'paths', className, max });
  }

  /** Terminates the worker: every request still waiting rejects with HeapCancelled. */
  cancel(): void {
    this.stop(new HeapCancelled(`reading ${path.basename(this.file)}`));
  }

  dispose(): void {
    this.stop(new HeapCancelled(`reading ${path.basename(this.file)}`));
  }

  private request<K extends keyof HeapResults>(req: Omit<Extract<HeapRequest, { kind: K }>, 'id'>): Promise<HeapResults[K]> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise<HeapResults[K]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...req, id });
    });
  }

  private receive(reply: HeapReply): void {
    if (reply.kind === 'progress') {
      this.onProgress?.(reply.progress);
      return;
    }
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    if (reply.kind === 'error') p.reject(new Error(reply.message));
    else p.resolve(reply.value);
  }

  private stop(reason: Error): void {
    if (this.failure) return;
    this.failure = reason;
    void this.worker.terminate();
    for (const p of this.pending.values()) p.reject(reason);
    this.pending.clear();
  }
}
