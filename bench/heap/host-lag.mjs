// How long the thread that asks for a heap analysis stays blocked: the extension host's event-loop delay
// (perf_hooks.monitorEventLoopDelay) while a dump is read and analysed (a) in the heap worker, as the extension
// does, and (b) in the same thread, as it did before. A measurement, not a test (docs/heap.md, "Where the
// analysis runs"). Usage, after `npm run build` and `tsc -p tsconfig.test.json`:
//   node bench/heap/host-lag.mjs DUMP.hprof [CLASS] [--worker-only]
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { root } from '../../scripts/lib.mjs';

const require = createRequire(import.meta.url);
const { HeapWorker } = require(join(root, 'out/extension/heap/worker-host.js'));
const { HeapAnalysis } = require(join(root, 'out/extension/heap/analysis.js'));
const { heapViewData } = require(join(root, 'out/extension/heap/view-data.js'));
const { measureLoopLag } = require(join(root, 'out/test/vscode/suite/event-loop-lag.js'));

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const [file, className] = args;
if (!file) {
  console.error('usage: node bench/heap/host-lag.mjs DUMP.hprof [CLASS] [--worker-only]');
  process.exit(2);
}

// the same measurement as the extension host's (test/vscode/suite/heap-lag.test.ts)
async function measure(label, run) {
  const m = await measureLoopLag(run);
  console.log(`${label}: ${(m.ms / 1000).toFixed(1)} s, ${m.result.objects} objects; event-loop delay (10 ms resolution: idle reads 10) ` +
    `p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms, max ${m.max.toFixed(1)} ms; 10 ms timer: ${m.ticks} ticks, latest ${m.latest.toFixed(1)} ms late`);
}

const worker = join(root, 'dist/heap-worker.js');
console.log(`${file}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
await measure('worker (dist/heap-worker.js)', async () => {
  const w = new HeapWorker(worker, file);
  try {
    return await w.view('lag', className);
  } finally {
    w.dispose();
  }
});
if (!process.argv.includes('--worker-only')) {
  await measure('same thread (HeapAnalysis in the caller)', async () => {
    await new Promise((r) => setTimeout(r, 50));
    const h = HeapAnalysis.open(file);
    try {
      return heapViewData(h, file, 'lag', className);
    } finally {
      h.close();
    }
  });
}
console.log(`load average after: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
