// Seeded pseudo-random numbers (mulberry32) and pseudo-text, so generated inputs are identical on every machine.
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)); // inclusive
  const pick = (arr) => arr[Math.floor(next() * arr.length)];
  return { next, int, pick };
}

const SYLLABLES = ['ka', 'lo', 'mer', 'tin', 'sa', 'vel', 'qu', 'ra', 'den', 'po', 'lis', 'tor', 'an', 'e', 'mi',
  'gra', 'ul', 'fen', 'do', 'ri', 'ste', 'ba', 'cor', 'nu', 'wy', 'hal', 'je', 'ox', 'pre', 'sim'];

// A fixed vocabulary of pseudo-words (Zipf-like use by picking low indices more often).
export function vocabulary(r, size = 4000) {
  const words = [];
  const seen = new Set();
  while (words.length < size) {
    let w = '';
    const n = r.int(1, 4);
    for (let i = 0; i < n; i++) w += r.pick(SYLLABLES);
    if (!seen.has(w)) { seen.add(w); words.push(w); }
  }
  return words;
}

export function word(r, vocab) {
  const x = r.next();
  return vocab[Math.floor(x * x * x * vocab.length)];
}

export function sentence(r, vocab, min = 6, max = 22) {
  const n = r.int(min, max);
  const ws = [];
  for (let i = 0; i < n; i++) ws.push(word(r, vocab));
  const s = ws.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
}
