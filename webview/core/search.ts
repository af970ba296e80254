// Search in a FrameTree: which frames match, and the matched share of the total (a frame below another
// match is counted once, through its matched ancestor).
import { FrameTree, ViewMetric } from '../../core/views/frames';
import { MethodEntry } from '../../core/profile/types';

/** `/re/` is a case-insensitive regular expression; anything else a case-insensitive substring. */
export function matcher(query: string): ((name: string) => boolean) | undefined {
  const q = query.trim();
  if (!q) return undefined;
  const re = /^\/(.+)\/$/.exec(q);
  if (re) {
    try {
      const rx = new RegExp(re[1], 'i');
      return (name) => rx.test(name);
    } catch {
      return () => false;
    }
  }
  const lower = q.toLowerCase();
  return (name) => name.toLowerCase().includes(lower);
}

export interface SearchResult {
  /** matched nodes in tree (pre-)order */
  matches: number[];
  /** per node: 1 when matched */
  hit: Uint8Array;
  /** Σ total of outermost matches in the subtree of `within`, over total[within] */
  share: number;
}

export function search(
  tree: FrameTree, methods: ReadonlyMap<number, MethodEntry>, query: string, metric: ViewMetric, within = 0,
): SearchResult {
  const hit = new Uint8Array(tree.n);
  const matches: number[] = [];
  const test = matcher(query);
  if (!test) return { matches, hit, share: 0 };
  const byMethod = new Map<number, boolean>();
  for (let i = 1; i < tree.n; i++) {
    const m = tree.method[i];
    let ok = byMethod.get(m);
    if (ok === undefined) {
      const e = methods.get(m);
      ok = e !== undefined && test(`${e.class}.${e.name}`);
      byMethod.set(m, ok);
    }
    if (ok) {
      hit[i] = 1;
      matches.push(i);
    }
  }
  const total = tree.total[metric];
  let sum = 0;
  for (let i = within; i < tree.end[within];) {
    if (hit[i]) {
      sum += total[i];
      i = tree.end[i];
    } else {
      i++;
    }
  }
  return { matches, hit, share: total[within] > 0 ? sum / total[within] : 0 };
}
