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
