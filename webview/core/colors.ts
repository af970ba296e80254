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
 * The legend's promise: my code warm (red … orange … yellow), JDK and libraries cool (cyan … blue … violet), and
 * two packages two colours: the package's hash picks the hue and, in finer steps, the saturation and lightness, so
 * packages whose hues land close still differ. `variant` (e.g. the method name) shifts the lightness a little so
 * neighbouring frames of one package stay apart.
 */
export function packageColor(pkg: string, mine: boolean, theme: Theme, variant = ''): string {
  const h = hash(pkg);
  const v = variant ? (hash(variant) % 7) - 3 : 0;
  const dark = theme !== 'light';
  const step = (h >>> 8) % 4;        // 4 saturation / lightness steps per hue
  if (mine) {
    const hue = h % 56;              // 0 red … 28 orange … 55 yellow: never green, which reads as "cool"
    const sat = (dark ? 58 : 72) + 8 * step;
    const light = (dark ? 34 : 66) + 3 * step + v;
    return `hsl(${hue}, ${Math.min(sat, 95)}%, ${light}%)`;
  }
  const hue = 185 + (h % 80);        // cyan … blue … violet
  const sat = (dark ? 24 : 32) + 7 * step;
  const light = (dark ? 32 : 74) + 3 * step + v;
  return `hsl(${hue}, ${sat}%, ${light}%)`;
}

/**
 * Colours for the packages of one profile: each family (my code, JDK and libraries) spreads its packages over its
 * hue range by the golden ratio, in name order, with three lightness steps on top, so the packages of a profile get
 * visibly different colours (a hash alone lands some on the same hue). Unknown packages fall back to packageColor.
 */
export function packagePalette(packages: Iterable<{ pkg: string; mine: boolean }>, theme: Theme): (pkg: string, mine: boolean, variant?: string) => string {
  const dark = theme !== 'light';
  const mine = new Set<string>();
  const lib = new Set<string>();
  for (const p of packages) (p.mine ? mine : lib).add(p.pkg);
  const colors = new Map<string, [number, number, number]>();
  const spread = (names: Set<string>, first: number, range: number, sat: number, light: number, key: string): void => {
    [...names].sort().forEach((pkg, k) => {
      const hue = first + Math.floor(((k * 0.6180339887) % 1) * range);
      const step = Math.floor(k / 7) % 3;     // every 7 packages the hues come round again: change the shade
      colors.set(key + pkg, [hue, sat + 10 * step, light + (step === 1 ? 6 : step === 2 ? -5 : 0)]);
    });
  };
  spread(mine, 0, 56, dark ? 62 : 75, dark ? 38 : 66, 'm:');
  spread(lib, 185, 80, dark ? 28 : 36, dark ? 34 : 74, 'l:');
  return (pkg, isMine, variant = '') => {
    const c = colors.get((isMine ? 'm:' : 'l:') + pkg);
    if (!c) return packageColor(pkg, isMine, theme, variant);
    const v = variant ? (hash(variant) % 5) - 2 : 0;
    return `hsl(${c[0]}, ${c[1]}%, ${c[2] + v}%)`;
  };
}

/** The package colour's family, for tests and the legend: warm hues for my code, cool for JDK and libraries. */
export function hueOf(color: string): number {
  const m = /^hsl\((\d+(?:\.\d+)?)/.exec(color);
  return m ? Number(m[1]) : NaN;
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
