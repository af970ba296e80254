// Number formatting for the views (no DOM, no d3: unit-testable under node).
const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function num(v: number): string {
  return int.format(v);
}

/** 1,536 → "1.5 KiB" */
export function bytes(v: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  let x = Math.abs(v);
  while (x >= 1024 && u < units.length - 1) {
    x /= 1024;
    u++;
  }
  const s = u === 0 ? String(Math.round(x)) : x.toFixed(x < 10 ? 2 : 1);
  return `${v < 0 ? '-' : ''}${s} ${units[u]}`;
}

export function percent(share: number): string {
  if (!Number.isFinite(share)) return '–';
  const p = share * 100;
  return `${p >= 10 || p === 0 ? p.toFixed(1) : p.toPrecision(2)}%`;
}

/** A metric value for display: bytes with a unit, the rest as counts. */
export function metricValue(metric: string, v: number): string {
  return metric === 'bytes' ? `${num(v)} (${bytes(v)})` : num(v);
}

export function signed(v: number, metric?: string): string {
  const s = metric === 'bytes' ? bytes(Math.abs(v)) : num(Math.abs(v));
  return v > 0 ? `+${s}` : v < 0 ? `−${s}` : '0';
}
