// The heap analysis in a worker thread (bundled as dist/heap-worker.js): reading a 1 GB dump takes about a
// minute of CPU, which must not block the extension host. The parsed dump stays here for follow-up requests
// (another class's paths) until the host terminates the worker.
import { parentPort } from 'worker_threads';
import { HeapAnalysis } from './analysis';
import { heapViewData } from './view-data';
import type { HeapReply, HeapRequest, OpenedDump } from './worker-protocol';

let heap: HeapAnalysis | undefined;
let file = '';

function answer(req: HeapRequest): unknown {
  if (req.kind === 'open') {
    heap?.close();
    heap = undefined;
    const opened = HeapAnalysis.open(req.file, {
      memoryLimitBytes: req.memoryLimitBytes,
      progress: (progress) => post({ kind: 'progress', id: req.id, progress }),
    });
    heap = opened;
    file = req.file;
    const r: OpenedDump = { file, objects: opened.objectCount, references: opened.graph.edges.length, timings: opened.timings };
    return r;
  }
  const h = heap;
  if (!h) throw new Error('no heap dump is open');
  h.onProgress = (progress) => post({ kind: 'progress', id: req.id, progress });
  switch (req.kind) {
    case 'view':
      return heapViewData(h, file, req.title, req.className, req.maxPaths);
    case 'histogram': {
      const rows = h.histogram();
      return { rows: rows.slice(0, req.limit), more: Math.max(0, rows.length - req.limit) };
    }
    case 'paths':
      return h.pathsTo(req.className, req.max);
  }
}

function post(reply: HeapReply): void {
  parentPort!.postMessage(reply);
}

parentPort?.on('message', (req: HeapRequest) => {
  try {
    post({ kind: 'result', id: req.id, value: answer(req) });
  } catch (e) {
    const err = e as Error;
    // a typed array the machine cannot give ("Array buffer allocation failed") is running out of memory too
    const message = err instanceof RangeError && /allocation|Invalid typed array length/i.test(err.message)
      ? `not enough memory to analyse the dump (${err.message})` : err.message;
    post({ kind: 'error', id: req.id, message });
  }
});
