// Measuring budget rules on a profile (semantics: docs/budgets.md, "What a rule measures").
// A rule's selectors are a conjunction: an allocation record counts when its thread, its calling context
// (the frames from the thread's root down to the node it is charged to), its type and its site all match.
import { metricOf } from '../views/aggregate';
import { BudgetFile, BudgetRule, IgnoreKind, ruleName, ruleScope } from './budget';
import { num } from '../format';
import { METRIC_LABELS } from '../views/frames';
import { childrenOf, recordsOf } from '../profile/mct';
import { isJdkClass, matchesPattern } from '../profile/names';
import { ElementCode, MctNode, MethodEntry, Profile, TypeEntry } from '../profile/types';

/** `*` matches any run of characters (dots included); everything else literally. */
export function globRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

const ELEMENT_NAMES: Record<string, ElementCode> = {
  byte: 'B', char: 'C', double: 'D', float: 'F', int: 'I', long: 'J', short: 'S', boolean: 'Z', reference: 'R',
};

/** Whether an array type's element type is `want`: an element type code (Binder 2006) (B C D F I J S Z R), a primitive name, or a component type name. */
export function elementMatches(t: TypeEntry, want: string): boolean {
  if (!t.array) return false;
  const code = /^[BCDFIJSZR]$/.test(want) ? want : ELEMENT_NAMES[want];
  if (code) return t.elementCode === code;
  return t.name === `${want}[]`;
}

export function methodMatches(m: MethodEntry, re: RegExp, withDesc: boolean): boolean {
  return re.test(withDesc ? `${m.class}.${m.name}${m.desc}` : `${m.class}.${m.name}`);
}

export interface Measurement {
  value: number;
  /** false when a `method`, `under` or `thread` selector matched nothing in the profile (a renamed method?) */
  found: boolean;
}

/** The ignore kinds in force for a rule: its own list, else the file's, plus any given on the command line. */
export function effectiveIgnore(rule: BudgetRule, file: Pick<BudgetFile, 'ignore'>, extra: readonly IgnoreKind[] = []): Set<IgnoreKind> {
  return new Set([...(rule.ignore ?? file.ignore), ...extra]);
}

/** Measures one rule over every (matching) thread of a profile. */
export function measureRule(profile: Profile, rule: BudgetRule, ignore: ReadonlySet<IgnoreKind>): Measurement {
  const methodRe = rule.method ? globRegExp(rule.method) : undefined;
  const withDesc = rule.method?.includes('(') ?? false;
  const typeRe = rule.type ? globRegExp(rule.type) : undefined;
  const threadRe = rule.thread ? globRegExp(rule.thread) : undefined;
  const skipFrames = ignore.has('jdk-frames');
  const skipClinit = ignore.has('jdk-class-init');

  // per-method flags: 1 selected method, 2 in an `under` package, 4 a JDK frame
  const flags = new Map<number, number>();
  for (const m of profile.methods.values()) {
    let f = 0;
    if (methodRe && methodMatches(m, methodRe, withDesc)) f |= 1;
    if (rule.under && rule.under.some((p) => matchesPattern(m.class, p))) f |= 2;
    if (isJdkClass(m.class)) f |= 4;
    flags.set(m.id, f);
  }
  const typeOk = new Map<number, boolean>();
  for (const t of profile.types.values()) {
    typeOk.set(t.id, (!typeRe || typeRe.test(t.name)) && (!rule.elementType || elementMatches(t, rule.elementType)));
  }
  const clinitSite = new Set<number>();
  if (skipClinit) {
    for (const s of profile.sites.values()) {
      const m = profile.methods.get(s.method);
      if (m && m.name === '<clinit>' && isJdkClass(m.class)) clinitSite.add(s.id);
    }
  }

  let value = 0;
  let foundMethod = false;
  let foundUnder = false;
  let foundThread = false;
  for (const thread of profile.threads) {
    if (threadRe && !threadRe.test(thread.name)) continue;
    foundThread = true;
    // depth-first; counters of selected/under/JDK frames on the current path
    const stack: Array<{ node: MctNode; enter: boolean }> = [{ node: thread.root, enter: true }];
    let inMethod = 0;
    let inUnder = 0;
    let inJdk = 0;
    while (stack.length > 0) {
      const { node, enter } = stack.pop()!;
      const f = node.m === undefined ? 0 : flags.get(node.m) ?? 0;
      const step = enter ? 1 : -1;
      if (f & 1) inMethod += step;
      if (f & 2) inUnder += step;
      if (f & 4) inJdk += step;
      if (!enter) continue;
      if (f & 1) foundMethod = true;
      if (f & 2) foundUnder = true;
      stack.push({ node, enter: false });
      for (const kid of childrenOf(node)) stack.push({ node: kid, enter: true });
      if ((methodRe && inMethod === 0) || (rule.under && inUnder === 0) || (skipFrames && inJdk > 0)) continue;
      for (const rec of recordsOf(node)) {
        if (!typeOk.get(rec[1]) || clinitSite.has(rec[0])) continue;
        const t = profile.types.get(rec[1]);
        if (t) value += metricOf(t, rec, rule.metric);
      }
    }
  }
  const found = (!methodRe || foundMethod) && (!rule.under || foundUnder) && (!threadRe || foundThread);
  return { value, found };
}

/**
 * ok: within budget; exceeded: over it; missing: a method/package/thread selector matched nothing, so the
 * rule measures nothing; unset: the rule has no `max` yet (`heaplens check --update` fills it in).
 */
export type Verdict = 'ok' | 'exceeded' | 'missing' | 'unset';

export interface RuleResult {
  rule: BudgetRule;
  name: string;
  scope: string;
  value: number;
  verdict: Verdict;
}

export function verdictOf(rule: BudgetRule, m: Measurement): Verdict {
  if (!m.found) return 'missing';
  if (rule.max === undefined) return 'unset';
  return m.value > rule.max ? 'exceeded' : 'ok';
}

/** Measures every rule of a budget file. */
export function evaluateBudget(profile: Profile, file: BudgetFile, extraIgnore: readonly IgnoreKind[] = []): RuleResult[] {
  return file.rules.map((rule) => {
    const m = measureRule(profile, rule, effectiveIgnore(rule, file, extraIgnore));
    return { rule, name: ruleName(rule), scope: ruleScope(rule), value: m.value, verdict: verdictOf(rule, m) };
  });
}

export function passed(results: readonly RuleResult[]): boolean {
  return results.every((r) => r.verdict === 'ok');
}

/** How far a measured value is over its limit: `+1,200, +12.0%`. */
export function over(r: RuleResult): string {
  const max = r.rule.max ?? 0;
  const by = r.value - max;
  return `+${num(by)}${max > 0 ? `, +${((100 * by) / max).toFixed(1)}%` : ''}`;
}

/** One sentence saying why a rule failed, or how much room is left. */
export function ruleMessage(r: RuleResult): string {
  const metric = METRIC_LABELS[r.rule.metric];
  switch (r.verdict) {
    case 'ok':
      return `${metric} ${num(r.value)} within the budget of ${num(r.rule.max ?? 0)}`;
    case 'exceeded':
      return `${metric} ${num(r.value)} exceed the budget of ${num(r.rule.max ?? 0)} (${over(r)})`;
    case 'missing':
      return `${r.scope}: nothing in the profile matches (renamed or no longer called?); the rule measures nothing`;
    case 'unset':
      return `${metric} ${num(r.value)} measured, but the rule has no "max" (run heaplens check --update to set it)`;
  }
}
