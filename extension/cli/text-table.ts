// Plain-text formatting helpers for reports: aligned tables, numbers, byte sizes, short call paths.

export type Align = 'l' | 'r';

/** Renders rows under headers with columns padded to width; `align` per column (default: left). */
export function table(headers: string[], rows: string[][], align: Align[] = []): string[] {
  // loops, no spread: a table may have a million rows (one per thread), more than a call's arguments can hold
  const widths = headers.map((h) => h.length);
  for (const r of rows) for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i], (r[i] ?? '').length);
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (align[i] === 'r' ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const out = [line(headers), line(widths.map((w) => '-'.repeat(w)))];
  for (const r of rows) out.push(line(r));
  return out;
}

/** Appends `lines` to `out` one by one (`out.push(...lines)` overflows the stack from about 100,000 lines). */
export function append(out: string[], lines: readonly string[]): void {
  for (const l of lines) out.push(l);
}

/** `com.acme.Outer$Inner.run` → `Outer$Inner.run`. */
export function shortFrame(frame: string): string {
  const dot = frame.lastIndexOf('.');
  if (dot < 0) return frame;
  const cls = frame.slice(0, dot);
  return `${cls.slice(cls.lastIndexOf('.') + 1)}${frame.slice(dot)}`;
}

/** The last `keep` frames of a call path, short names, joined with " > " ("… > " when cut). */
export function shortPath(frames: string[], keep = 4): string {
  const tail = frames.slice(-keep).map(shortFrame).join(' > ');
  return frames.length > keep ? `… > ${tail}` : tail;
}

/** Epoch milliseconds → "2026-11-22 00:28:03" (local time). */
export function dateTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
