// Durations of the expensive steps, for the measurement page (#bench=1) and for curious users (console).
export const timings: Record<string, number> = {};

export function timed<T>(name: string, fn: () => T): T {
  const t0 = performance.now();
  try {
    return fn();
  } finally {
    timings[name] = Math.round((performance.now() - t0) * 10) / 10;
  }
}

const marked = new Set<string>();

/**
 * A named point of the page's first load on its timeline (a Performance mark `heaplens:NAME`, the first time only: a
 * live session's updates add none; scripts/measure-panel.mjs reads them, and so can anyone in the devtools). `epoch`: a
 * time taken on another thread (the load worker's `performance.timeOrigin + performance.now()`), put on this timeline.
 */
export function mark(name: string, epoch?: number): void {
  if (marked.has(name)) return;
  marked.add(name);
  try {
    performance.mark(`heaplens:${name}`, epoch === undefined ? undefined : { startTime: epoch - performance.timeOrigin });
  } catch {
    // an engine without User Timing level 3: no marks
  }
}

/** The epoch time now (comparable across the page and its worker). */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}
