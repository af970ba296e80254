// `heaplens check` output: one line per rule (measured value, limit, verdict), and JUnit XML for CI systems.
import { over, RuleResult, ruleMessage, Verdict } from '../../core/budget/budget-measure';
import { METRIC_LABELS } from '../../core/views/frames';
import { num } from '../../core/format';
import { append, table } from './text-table';

export interface CheckInfo {
  /** the profile and budget file names as given */
  profile: string;
  budget: string;
  /** `OpenJDK 64-Bit Server VM 17.0.21` */
  jvm: string;
  /** the ignore kinds of the file (and the command line), for the header */
  ignore?: readonly string[];
}

const VERDICT_TEXT: Record<Verdict, string> = { ok: 'ok', exceeded: 'EXCEEDED', missing: 'NOT FOUND', unset: 'NO LIMIT' };

/** The table printed by `heaplens check`, and a summary line. */
export function checkText(results: readonly RuleResult[], info: CheckInfo): string {
  const out = [`HeapLens budget check: ${info.profile} (${info.jvm}) against ${info.budget}`];
  if (info.ignore?.length) out.push(`left out (ignore): ${info.ignore.join(', ')}`);
  out.push('');
  const scope = (r: RuleResult): string => {
    const own = r.rule.ignore ? ` [ignore: ${r.rule.ignore.length ? r.rule.ignore.join(', ') : 'nothing'}]` : '';
    return `${r.rule.id === undefined ? '' : r.scope}${own}`.trim();
  };
  append(out, table(['rule', 'measures', 'metric', 'measured', 'limit', 'verdict'], results.map((r) => [
    r.name, scope(r), r.rule.metric, r.verdict === 'missing' ? '-' : num(r.value),
    r.rule.max === undefined ? '-' : num(r.rule.max), r.verdict === 'exceeded' ? `EXCEEDED (${over(r)})` : VERDICT_TEXT[r.verdict],
  ]), ['l', 'l', 'l', 'r', 'r', 'l']));
  const bad = results.filter((r) => r.verdict !== 'ok');
  out.push('');
  if (bad.length === 0) out.push(`All ${results.length} budgets met.`);
  else {
    out.push(`${bad.length} of ${results.length} budgets failed:`);
    for (const r of bad) out.push(`  ${r.name}: ${ruleMessage(r)}`);
  }
  return out.join('\n') + '\n';
}

/** Escapes text for XML attribute values and character data. */
export function xmlEscape(s: string): string {
  // characters XML 1.0 does not allow at all are dropped
  return s.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** `2026-11-22T00:28:03` (local time, no zone, as the JUnit XML schema's timestamp wants). */
function isoLocal(d: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/**
 * JUnit XML (the Ant/Surefire dialect every CI system reads): one testsuite named after the budget file,
 * one testcase per rule; exceeded, not-found and limit-less rules are failures with a message.
 */
export function checkJUnit(results: readonly RuleResult[], info: CheckInfo, now: Date = new Date()): string {
  const a = (v: string | number): string => `"${xmlEscape(String(v))}"`;
  const failures = results.filter((r) => r.verdict !== 'ok').length;
  const suite = `heaplens budgets (${info.budget})`;
  const classname = `heaplens.budget.${info.budget.replace(/^.*[\\/]/, '').replace(/\.json$/, '').replace(/[^\w$-]+/g, '_')}`;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="heaplens check" tests=${a(results.length)} failures=${a(failures)} errors="0" time="0">`);
  out.push(`  <testsuite name=${a(suite)} tests=${a(results.length)} failures=${a(failures)} errors="0" skipped="0" time="0" timestamp=${a(isoLocal(now))} hostname="localhost">`);
  out.push('    <properties>');
  out.push(`      <property name="profile" value=${a(info.profile)}/>`);
  out.push(`      <property name="budget" value=${a(info.budget)}/>`);
  out.push(`      <property name="jvm" value=${a(info.jvm)}/>`);
  out.push('    </properties>');
  for (const r of results) {
    const head = `    <testcase name=${a(r.name)} classname=${a(classname)} time="0"`;
    const detail = `${r.scope}, ${METRIC_LABELS[r.rule.metric]}: measured ${r.value}, limit ${r.rule.max ?? 'none'}`;
    if (r.verdict === 'ok') {
      out.push(`${head}>`, `      <system-out>${xmlEscape(detail)}</system-out>`, '    </testcase>');
    } else {
      out.push(`${head}>`);
      out.push(`      <failure message=${a(ruleMessage(r))} type=${a(`budget-${r.verdict}`)}>${xmlEscape(detail)}</failure>`);
      out.push('    </testcase>');
    }
  }
  out.push('  </testsuite>', '</testsuites>');
  return out.join('\n') + '\n';
}
