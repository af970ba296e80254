// `heaplens check --update`: writes measured values back into the budget file as the new `max`, with an
// optional margin, editing only those numbers (rule order, ids, comments and formatting stay as they are).
import { RuleResult } from './budget-measure';
import { applyEdits, JsonNode, parseJsonTree, ruleNodes, setMember, TextEdit } from './json-locate';

/** A margin added on update: a percentage of the measured value (`10%`) or an absolute amount (`500`). */
export type Margin = { percent: string } | { absolute: number };

export function parseMargin(text: string): Margin {
  const t = text.trim();
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(t);
  if (pct) return { percent: pct[1] };
  if (/^\d+$/.test(t)) return { absolute: Number(t) };
  throw new Error(`--margin must be a percentage like 10% or a whole number like 500 (got "${text}")`);
}

/** The new budget for a measured value: value plus margin, rounded up to a whole number (exact arithmetic). */
export function withMargin(value: number, margin: Margin | undefined): number {
  if (!margin) return value;
  if ('absolute' in margin) return value + margin.absolute;
  const [whole, frac = ''] = margin.percent.split('.');
  const scale = 10n ** BigInt(frac.length);
  const num = BigInt(Math.round(value)) * (100n * scale + BigInt(whole + frac));
  const den = 100n * scale;
  return Number((num + den - 1n) / den);
}

export interface BudgetChange {
  name: string;
  /** the rule's index in `rules` */
  index: number;
  before: number | undefined;
  after: number;
}

/**
 * The budget file's text with every measurable rule's `max` set to its measured value plus margin. Rules
 * whose selectors matched nothing (`missing`) are left alone.
 */
export function updateBudgetText(text: string, results: readonly RuleResult[], margin?: Margin): { text: string; changes: BudgetChange[] } {
  const root: JsonNode = parseJsonTree(text);
  const nodes = ruleNodes(root);
  const edits: TextEdit[] = [];
  const changes: BudgetChange[] = [];
  for (const r of results) {
    if (r.verdict === 'missing') continue;
    const node = nodes[r.rule.index];
    if (!node || node.kind !== 'object') throw new Error(`rule ${r.rule.index + 1} is not in the file any more`);
    const after = withMargin(r.value, margin);
    changes.push({ name: r.name, index: r.rule.index, before: r.rule.max, after });
    if (after !== r.rule.max) edits.push(setMember(text, node, 'max', String(after)));
  }
  return { text: applyEdits(text, edits), changes };
}
