// Colours: by package (stable hash → hue), muted for frames that are not "my code"; diverging for diffs.

export type Theme = 'light' | 'dark' | 'high-contrast';

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/**
 * Application frames get warm-to-green hues, library/JDK frames cool, greyish ones. The hue is the
 * package's; `variant` (e.g. the method name) shifts the lightness a little so neighbours stay distinct.
 */
export function packageColor(pkg: string, mine: boolean, theme: Theme, variant = ''): string {
  const h = hash(pkg);
  const v = variant ? (hash(variant) % 9) - 4 : 0;
  const dark = theme !== 'light';
  if (mine) {
    const hue = h % 140; // red … yellow … green
    return `hsl(${hue}, ${dark ? 55 : 70}%, ${(dark ? 36 : 70) + v}%)`;
  }
  const hue = 190 + (h % 70); // cyan … blue … violet
  return `hsl(${hue}, ${dark ? 22 : 30}%, ${(dark ? 34 : 78) + v}%)`;
}

/**
 * Diff colour: growth red, shrink blue (colour-blind safe pair), intensity by the relative change
 * `(after − before) / max(before, after)` in [−1, 1]; unchanged frames neutral grey.
 */
export function diffColor(before: number, after: number, theme: Theme): string {
  const dark = theme !== 'light';
  const m = Math.max(before, after);
  const r = m > 0 ? (after - before) / m : 0;
  const a = Math.min(1, Math.abs(r));
  if (a < 0.005) return dark ? 'hsl(0, 0%, 35%)' : 'hsl(0, 0%, 82%)';
  const hue = r > 0 ? 2 : 214;
  const sat = 25 + 60 * a;
  const light = dark ? 30 + 12 * a : 86 - 30 * a;
  return `hsl(${hue}, ${sat}%, ${light}%)`;
}

export function textColorOn(theme: Theme): string {
  return theme === 'light' ? '#1b1b1b' : '#f0f0f0';
}
