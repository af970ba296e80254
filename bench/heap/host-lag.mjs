// How long the thread that asks for a heap analysis stays blocked: the extension host's event-loop delay
// (perf_hooks.monitorEventLoopDelay) while a dump is read and analysed (a) in the heap worker, as the extension
// does, and (b) in the same thread, as it did before. A measurement, not a test (docs/heap.md, "Where the
// analysis runs"). Usage, after `npm run build` and `tsc -p tsconfig.test.json`:
//   node bench/heap/host-lag.mjs DUMP.hprof [CLASS] [--worker-only]
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance, monitorEventLoopDelay } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { root } from '../../scripts/lib.mjs';

const require = createRequire(import.meta.url);
const { HeapWorker } = require(join(root, 'out/extension/heap/worker-host.js'));
const { HeapAnalysis } = require(join(root, 'out/extension/heap/analysis.js'));
const { heapViewData } = require(join(root, 'out/extension/heap/view-data.js'));

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const [file, className] = args;
if (!file) {
  console.error('usage: node bench/heap/host-lag.mjs DUMP.hprof [CLASS] [--worker-only]');
  process.exit(2);
}

async function measure(label, run) {
  const lag = monitorEventLoopDelay({ resolution: 10 });
  // a 10 ms timer as a stand-in for the host's other work: how late does it fire?
  let ticks = 0;
  let worstTick = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    worstTick = Math.max(worstTick, now - last - 10);
    last = now;
    ticks++;
  }, 10);
  lag.enable();
  const t = performance.now();
  const view = await run();
  const ms = performance.now() - t;
  await new Promise((r) => setTimeout(r, 30));   // let the timers that were held up fire and be counted
  lag.disable();
  clearInterval(timer);
  const p = (q) => (lag.percentile(q) / 1e6).toFixed(1);
  console.log(`${label}: ${(ms / 1000).toFixed(1)} s, ${view.objects} objects; event-loop delay (10 ms resolution: idle reads 10) p50 ${p(50)} ms, p99 ${p(99)} ms, ` +
    `max ${(lag.max / 1e6).toFixed(1)} ms; 10 ms timer: ${ticks} ticks, latest ${worstTick.toFixed(1)} ms late`);
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
