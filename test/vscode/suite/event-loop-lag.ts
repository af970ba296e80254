// How responsive a thread stays while it awaits some work: its event-loop delay (perf_hooks.monitorEventLoopDelay,
// 10 ms resolution: an idle loop reads 10) and how late a 10 ms timer fires, a stand-in for the thread's other work.
// One measurement for the extension host (heap-lag.test.ts) and for a plain Node thread (bench/heap/host-lag.mjs).
import { monitorEventLoopDelay, performance } from 'perf_hooks';

export interface LoopLag<T> {
  result: T;
  /** how long the work took */
  ms: number;
  /** event-loop delay percentiles and maximum, in ms */
  p50: number;
  p99: number;
  max: number;
  /** the 10 ms timer: how often it fired and how late it fired at the latest, in ms */
  ticks: number;
  latest: number;
}

export async function measureLoopLag<T>(work: () => PromiseLike<T>): Promise<LoopLag<T>> {
  const lag = monitorEventLoopDelay({ resolution: 10 });
  let ticks = 0;
  let latest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    latest = Math.max(latest, now - last - 10);
    last = now;
    ticks++;
  }, 10);
  lag.enable();
  const t = performance.now();
  const result = await work();
  const ms = performance.now() - t;
  await new Promise((r) => setTimeout(r, 30));   // let the timers that were held up fire and be counted
  lag.disable();
  clearInterval(timer);
  return { result, ms, p50: lag.percentile(50) / 1e6, p99: lag.percentile(99) / 1e6, max: lag.max / 1e6, ticks, latest };
}
