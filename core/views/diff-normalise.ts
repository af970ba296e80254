// Diff figures that can be read when one run did more work than the other: each side's values over its own
// total (percent of total), or per call of a chosen method (e.g. per request handled). A frame "grew" when its
// normalised value grew, that is when it grew more than the rest of the run.
import { DiffTree } from './diff';
import { ViewMetric } from './frames';

export type DiffNorm = 'absolute' | 'percent' | 'perCall';
export const DIFF_NORMS: readonly DiffNorm[] = ['absolute', 'percent', 'perCall'];
export const DIFF_NORM_LABELS: Record<DiffNorm, string> = {
  absolute: 'Absolute', percent: 'Percent of each run\'s total', perCall: 'Per call of a method',
};

export interface NormalisedSides {
  /** per node of d.tree: the value shown and compared, before and after */
  before: Float64Array;
  after: Float64Array;
  /** what one unit of the normalised value is, for labels ("% of total", "per call of App.handle") */
  unit: string;
  /** the divisors used: the totals, or the unit method's calls on each side (0 when it was never called) */
  divisorBefore: number;
  divisorAfter: number;
}

/** Calls of `method` on one side of the diff, summed over every context it ran in. */
export function callsOf(d: DiffTree, side: 'before' | 'after', method: number): number {
  const calls = d[side].self.calls;
  let sum = 0;
  for (let i = 0; i < d.tree.n; i++) if (d.tree.method[i] === method) sum += calls[i];
  return sum;
}

/**
 * The totals of every frame for `metric`, normalised. `absolute` gives the raw figures; `percent` divides each side
 * by its root's total (×100); `perCall` by the calls of `unitMethod` on that side (a side where it never ran gives 0s).
 */
export function normaliseDiff(d: DiffTree, metric: ViewMetric, norm: DiffNorm, unitMethod?: number, unitName = 'the chosen method'): NormalisedSides {
  const b = d.before.total[metric];
  const a = d.after.total[metric];
  if (norm === 'absolute' || (norm === 'perCall' && unitMethod === undefined)) {
    return { before: Float64Array.from(b), after: Float64Array.from(a), unit: '', divisorBefore: 1, divisorAfter: 1 };
  }
  const divisorBefore = norm === 'percent' ? b[0] : callsOf(d, 'before', unitMethod!);
  const divisorAfter = norm === 'percent' ? a[0] : callsOf(d, 'after', unitMethod!);
  const k = norm === 'percent' ? 100 : 1;
  const scale = (v: Float64Array, by: number): Float64Array => v.map((x) => (by > 0 ? (x * k) / by : 0));
  return {
    before: scale(b, divisorBefore), after: scale(a, divisorAfter),
    unit: norm === 'percent' ? '% of total' : `per call of ${unitName}`, divisorBefore, divisorAfter,
  };
}

/**
 * The frames that grew the most relative to the rest: sorted by the change of their normalised value, the root
 * excluded. With `percent`, a frame that doubled while the whole run doubled shows 0.
 */
export function biggestRelativeGrowth(d: DiffTree, n: NormalisedSides, limit = 30): Array<{ node: number; before: number; after: number; change: number }> {
  const out: Array<{ node: number; before: number; after: number; change: number }> = [];
  for (let i = 1; i < d.tree.n; i++) {
    const change = n.after[i] - n.before[i];
    if (change !== 0) out.push({ node: i, before: n.before[i], after: n.after[i], change });
  }
  return out.sort((x, y) => Math.abs(y.change) - Math.abs(x.change) || x.node - y.node).slice(0, limit);
}
