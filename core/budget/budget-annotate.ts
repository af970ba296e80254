// Budget results placed in a budget file's text, for editors: one annotation per rule (the rule's range, its
// `max` value's range, a one-line lens text, the verdict), or the place where the file is invalid. Pure: the
// VS Code side turns annotations into CodeLenses and diagnostics (Problems panel).
import { BudgetError, parseBudget } from './budget';
import { evaluateBudget, RuleResult, ruleMessage, Verdict } from './budget-measure';
import { JsonNode, JsonSyntaxError, member, parseJsonTree, ruleNodes } from './json-locate';
import { METRIC_LABELS } from '../views/frames';
import { num } from '../format';
import { Profile } from '../profile/types';

export interface TextRange {
  /** offsets into the file's text, end exclusive */
  start: number;
  end: number;
}

export interface BudgetAnnotation {
  index: number;
  name: string;
  /** the rule's object */
  range: TextRange;
  /** the `max` value, when the rule has one (where a diagnostic reads best) */
  maxRange?: TextRange;
  verdict: Verdict;
  value: number;
  /** `measured 1,401 objects · budget 1,001 · exceeded by 400` */
  lens: string;
  /** the sentence `heaplens check` prints for the rule */
  message: string;
}

export interface BudgetAnnotations {
  annotations: BudgetAnnotation[];
  /** the file cannot be used: why, and where (offset) when known */
  error?: { message: string; offset: number };
}

function lensText(r: RuleResult): string {
  const metric = METRIC_LABELS[r.rule.metric];
  switch (r.verdict) {
    case 'missing':
      return `not found in the profile: ${r.scope}`;
    case 'unset':
      return `measured ${num(r.value)} ${metric} · no budget yet`;
    case 'ok':
      return `measured ${num(r.value)} ${metric} · budget ${num(r.rule.max ?? 0)} · ok`;
    case 'exceeded':
      return `measured ${num(r.value)} ${metric} · budget ${num(r.rule.max ?? 0)} · exceeded by ${num(r.value - (r.rule.max ?? 0))}`;
  }
}

const range = (n: JsonNode): TextRange => ({ start: n.start, end: n.end });

/** Measures a budget file's rules on a profile and says where each result belongs in the file's text. */
export function annotateBudget(text: string, profile: Profile): BudgetAnnotations {
  let root: JsonNode;
  try {
    root = parseJsonTree(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { annotations: [], error: { message: e.message, offset: e.offset } };
    throw e;
  }
  const nodes = ruleNodes(root);
  let results: RuleResult[];
  try {
    results = evaluateBudget(profile, parseBudget(text));
  } catch (e) {
    if (!(e instanceof BudgetError)) throw e;
    const rule = /^rule (\d+)/.exec(e.message);
    const at = rule ? nodes[Number(rule[1]) - 1] : undefined;
    return { annotations: [], error: { message: e.message, offset: at?.start ?? root.start } };
  }
  return {
    annotations: results.map((r) => {
      const node = nodes[r.rule.index];
      const max = member(node, 'max')?.value;
      return {
        index: r.rule.index, name: r.name, range: range(node), ...(max ? { maxRange: range(max) } : {}),
        verdict: r.verdict, value: r.value, lens: lensText(r), message: ruleMessage(r),
      };
    }),
  };
}
