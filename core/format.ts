// The one number formatter of HeapLens: the views, the editor (CodeLens, hovers) and the text reports all
// format counts, bytes and shares here. Styles differ only in how many digits fit where the text is shown.

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** 1234567 → "1,234,567" (rounded). */
export function num(v: number): string {
  return int.format(v);
}

/**
 * Where a figure is shown: `view` (tables and tooltips: 1.50 KiB, 12.3 MiB), `short` (CodeLens and hovers:
 * 1.5 KiB, 12 MiB), `table` (text reports: always two decimals, columns line up).
 */
export type Style = 'view' | 'short' | 'table';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** Bytes with a binary unit: 1,536 → "1.50 KiB" (view), "1.5 KiB" (short), "1.50 KiB" (table). */
export function bytes(v: number, style: Style = 'view'): string {
  let u = 0;
  let x = Math.abs(v);
  while (x >= 1024 && u < UNITS.length - 1) {
    x /= 1024;
    u++;
  }
  const digits = style === 'table' ? 2 : style === 'short' ? (x < 10 ? 1 : 0) : (x < 10 ? 2 : 1);
  const s = u === 0 ? String(Math.round(x)) : x.toFixed(digits);
  return `${v < 0 ? '-' : ''}${s} ${UNITS[u]}`;
}

/**
 * A share of a whole (0.137 → 13.7%). `view`: one decimal, two significant digits under 10%; `short`: whole
 * percents from 10%, "<0.1%" for tiny shares; `table`: one decimal. Not finite (a whole of 0) → "–".
 */
export function percent(share: number, style: Style = 'view'): string {
  if (!Number.isFinite(share)) return '–';
  const p = share * 100;
  if (style === 'table') return `${p.toFixed(1)}%`;
  if (style === 'short') {
    if (p === 0) return '0%';
    if (p < 0.1) return '<0.1%';
    return p < 9.95 ? `${p.toFixed(1).replace(/\.0$/, '')}%` : `${Math.round(p)}%`;
  }
  return `${p >= 10 || p === 0 ? p.toFixed(1) : p.toPrecision(2)}%`;
}

/** A difference with its sign: +12, −3.0 KiB, 0. */
export function signed(v: number, metric?: string): string {
  const s = metric === 'bytes' ? bytes(Math.abs(v)) : num(Math.abs(v));
  return v > 0 ? `+${s}` : v < 0 ? `−${s}` : '0';
}
