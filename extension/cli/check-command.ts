// `heaplens check PROFILE --budget FILE [--junit FILE] [--ignore KINDS] [--format text|json] [--update [--margin M]]`.
// Exit codes: 0 every budget met, 1 a budget exceeded (or a rule that measures nothing or has no limit),
// 2 usage or file errors (unreadable profile, invalid budget file).
import { starterBudgetText } from '../../core/budget/budget-starter';
import { prepareOutput } from '../../core/profile/safe-file';
import { FileProblem, readRegularFile } from '../../core/profile/safe-file';
import * as fs from 'fs';
import * as path from 'path';
import { BudgetError, BudgetFile, IGNORE_KINDS, IgnoreKind, parseBudget } from '../../core/budget/budget';
import { evaluateBudget, passed, RuleResult } from '../../core/budget/budget-measure';
import { checkJUnit, checkText } from './budget-report';
import { ruleMessage } from '../../core/budget/budget-measure';
import { Margin, parseMargin, updateBudgetText } from '../../core/budget/budget-update';
import { num } from '../../core/format';
import { table } from './text-table';
import { Profile } from '../../core/profile/types';
import { optionValue, parseArgs, UsageError } from './args';
import { CliContext } from './context';
import { emit, loadForCli, modeWarning } from './diff-command';

export const CHECK_USAGE = `heaplens check PROFILE --budget FILE [--junit FILE] [--ignore jdk-frames,jdk-class-init]
               [--format text|json] [--update [--margin 10%|N]]`;

const SPEC = {
  budget: { value: true },
  junit: { value: true },
  ignore: { value: true, repeat: true },
  format: { value: true, choices: ['text', 'json'] },
  update: {},
  margin: { value: true },
};

function readBudget(file: string, shown: string): { text: string; budget: BudgetFile } {
  let text: string;
  try {
    text = readRegularFile(file, 16 << 20);
  } catch (e) {
    if (e instanceof FileProblem) throw new UsageError(`${shown}: cannot read the budget file: ${e.message.replace(/^cannot read: /, '')}`);
    throw e;
  }
  try {
    return { text, budget: parseBudget(text) };
  } catch (e) {
    if (e instanceof BudgetError) throw new UsageError(`${shown}: ${e.message}`);
    throw e;
  }
}

function parseIgnore(values: readonly string[] | undefined): IgnoreKind[] {
  const kinds = (values ?? []).flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  for (const k of kinds) {
    if (!IGNORE_KINDS.includes(k as IgnoreKind)) throw new UsageError(`--ignore: unknown kind "${k}" (known: ${IGNORE_KINDS.join(', ')})`);
  }
  return kinds as IgnoreKind[];
}

function jvmOf(profile: Profile): string {
  const j = profile.file.meta.jvm;
  return j ? `${j.name ?? 'JVM'} ${j.version ?? '?'}` : 'JVM ?';
}

function checkJson(results: readonly RuleResult[], profile: string, budget: string): string {
  return JSON.stringify({
    format: 'heaplens-check', version: 1, profile, budget, passed: passed(results),
    rules: results.map((r) => ({
      index: r.rule.index, ...(r.rule.id !== undefined ? { id: r.rule.id } : {}), name: r.name, scope: r.scope,
      metric: r.rule.metric, value: r.value, max: r.rule.max ?? null, verdict: r.verdict, message: ruleMessage(r),
    })),
  }, null, 2) + '\n';
}

function update(ctx: CliContext, file: string, shown: string, text: string, results: RuleResult[], margin?: Margin): number {
  const { text: next, changes } = updateBudgetText(text, results, margin);
  if (next !== text) fs.writeFileSync(file, next);
  const rows = changes.map((c) => [c.name, c.before === undefined ? '-' : num(c.before), num(c.after),
    c.before === c.after ? 'unchanged' : c.before === undefined ? 'set' : c.after > c.before ? 'raised' : 'lowered']);
  ctx.stdout([`HeapLens budget update: ${shown}${next === text ? ' (no change)' : ''}`, '',
    ...table(['rule', 'old limit', 'new limit', 'change'], rows, ['l', 'r', 'r', 'l'])].join('\n') + '\n');
  const missing = results.filter((r) => r.verdict === 'missing');
  for (const r of missing) ctx.stderr(`heaplens: ${r.name}: ${ruleMessage(r)}; left as it was\n`);
  return missing.length > 0 ? 1 : 0;
}

export function checkCommand(argv: readonly string[], ctx: CliContext): number {
  const p = parseArgs(argv, SPEC);
  if (p.positional.length !== 1 || p.sawDashDash) throw new UsageError(`check needs exactly one profile file\nusage: ${CHECK_USAGE}`);
  const budgetName = optionValue(p, 'budget');
  if (!budgetName) throw new UsageError(`check needs --budget FILE\nusage: ${CHECK_USAGE}`);
  const isUpdate = p.options.has('update');
  if (p.options.has('margin') && !isUpdate) throw new UsageError('--margin applies to --update');
  if (isUpdate && (p.options.has('junit') || p.options.has('format'))) throw new UsageError('--update writes the budget file: it takes no --junit or --format');
  let margin: Margin | undefined;
  try {
    const m = optionValue(p, 'margin');
    margin = m === undefined ? undefined : parseMargin(m);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const ignore = parseIgnore(p.options.get('ignore'));
  const budgetFile = path.resolve(ctx.cwd, budgetName);
  const profileName = p.positional[0];
  if (isUpdate && !fs.existsSync(budgetFile)) {
    // the first step in CI: no budget yet, so write a starter one from this profile and fill in its limits
    const profile = loadForCli(ctx, profileName);
    prepareOutput(budgetFile);
    const text = starterBudgetText(profile, profileName);
    fs.writeFileSync(budgetFile, text);
    ctx.stderr(`heaplens: ${budgetName} did not exist: wrote a starter budget from ${profileName}\n`);
    return update(ctx, budgetFile, budgetName, text, evaluateBudget(profile, parseBudget(text), ignore), margin);
  }
  const { text, budget } = readBudget(budgetFile, budgetName);
  const profile = loadForCli(ctx, profileName);
  const warning = modeWarning(profile, profileName);
  if (warning) ctx.stderr(warning);
  const results = evaluateBudget(profile, budget, ignore);
  if (isUpdate) return update(ctx, budgetFile, budgetName, text, results, margin);

  const info = { profile: profileName, budget: budgetName, jvm: jvmOf(profile), ignore: [...new Set([...budget.ignore, ...ignore])] };
  const junit = optionValue(p, 'junit');
  if (junit) {
    try {
      emit(ctx, junit, checkJUnit(results, info));
    } catch (e) {
      throw new UsageError(`--junit ${junit}: ${(e as Error).message}`);
    }
  }
  ctx.stdout(optionValue(p, 'format') === 'json' ? checkJson(results, profileName, budgetName) : checkText(results, info));
  return passed(results) ? 0 : 1;
}
