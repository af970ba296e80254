// The words and numbers the editor shows: CodeLens titles and tooltips, hot-line texts and hovers.
// No `vscode` import (unit-tested).
import { Totals, TypeTotals } from '../../core/views/aggregate';
import { LineTotals } from '../../core/views/by-line';
import { shortClass } from '../../core/profile/names';
import { MethodEntry } from '../../core/profile/types';
import { sourceMethodName } from './match';
import { MethodLens } from './lens-model';
import { bytes as fmtBytes, num, percent } from '../../core/format';

export { num };
/** Bytes as the editor shows them: 1.5 KiB, 12 MiB. */
export const bytes = (v: number): string => fmtBytes(v, 'short');
/** A share as the editor shows it: 14%, 0.4%, <0.1%. */
export const pct = (share: number): string => percent(share, 'short');


function plural(n: number, one: string, many: string): string {
  return `${num(n)} ${n === 1 ? one : many}`;
}

/**
 * `12,438 allocations · ~1.2 MiB`: allocations are objects and arrays (a `byte[]` counts as much as a `String`), as
 * a Java developer counts them; the bytes are left out when the agent could not size what was allocated.
 */
export function totalsText(t: Totals): string {
  const parts = [plural(t.objects + t.arrays, 'allocation', 'allocations')];
  if (t.bytes > 0 || t.objects + t.arrays === 0) parts.push(`~${bytes(t.bytes)}`);
  return parts.join(' · ');
}

/** `12,400 objects, 38 arrays of 9 elements`: the split of an allocation count, for tooltips. */
export function splitText(t: Totals): string {
  return `${plural(t.objects, 'object', 'objects')}, ${plural(t.arrays, 'array', 'arrays')} of ${plural(t.elements, 'element', 'elements')}`;
}

const bytesPart = (b: number): string => (b > 0 ? ` · ~${bytes(b)}` : '');

/** The first lens: what the method allocated itself (JDK code on its behalf included). */
/** estimated: the profile's data are sampled estimates (sampled mode, a JFR recording), said in the title */
export function lensTitle(l: MethodLens, estimated = false): string {
  const what = (l.method ? 'HeapLens' : l.type.kind === 'anonymous' ? 'HeapLens (anonymous class)' : 'HeapLens (initializers)') + (estimated ? ' (estimated)' : '');
  const self = l.totals.self;
  if (self.objects + self.arrays === 0 && self.bytes === 0) return `${what}: no allocations of its own`;
  return `${what}: ${totalsText(self)} (${pct(l.selfShare)})`;
}

/** Whether the second lens says anything the first does not (callees allocated something). */
export function hasCallees(l: MethodLens): boolean {
  const a = l.totals.self;
  const b = l.totals.inclusive;
  return a.objects !== b.objects || a.arrays !== b.arrays || a.bytes !== b.bytes;
}

/** The second lens: callees included. */
export function inclusiveTitle(l: MethodLens): string {
  return `incl. callees: ${totalsText(l.totals.inclusive)} (${pct(l.inclusiveShare)})`;
}

export function methodSignature(m: MethodEntry): string {
  return `${shortClass(m.class)}.${m.name}`;
}

/**
 * @param everyCall the agent counted every invocation (its option leaves=keep); by default it counts only the
 *                  invocations that called or allocated something (docs/agent-options.md)
 */
export function lensTooltip(l: MethodLens, estimated?: string, everyCall = false): string {
  const g = l.totals;
  const lines = [
    ...(l.method ? [] : ['Field initializers, static initialization, implicit constructors and synthetic methods of this type.']),
    `Allocated by ${l.members.length === 1 ? methodSignature(l.members[0]) : 'these methods'} itself and by JDK code on its behalf:`
      + ` ${totalsText(g.self)} (${splitText(g.self)}; ${pct(l.selfShare)} of the profile's est. bytes).`,
    `With everything it calls: ${totalsText(g.inclusive)} (${pct(l.inclusiveShare)}).`,
    `${plural(g.calls, 'call', 'calls')}${estimated || everyCall ? '' : ' that called or allocated something'} in`
      + ` ${plural(g.contexts, 'calling context', 'calling contexts')}, all threads.`,
  ];
  const lambdas = l.members.filter((m) => sourceMethodName(m.name).lambda);
  if (lambdas.length) lines.push(`Includes the lambdas ${lambdas.map((m) => m.name).join(', ')}.`);
  if (l.members.length > 1) lines.push(`Methods: ${l.members.map((m) => `${m.name}${m.desc}`).join(', ')}.`);
  if (estimated) lines.push(estimated);
  lines.push('Byte figures are estimates. Click to show it in the flame tree (all contexts merged).');
  return lines.join('\n');
}

/** `WordIndex$Entry`, `byte[]`, `String` */
export function shortType(name: string): string {
  return shortClass(name.replace(/(\[\])+$/, '')) + (/(\[\])+$/.exec(name)?.[0] ?? '');
}

/** After-line text: `▲ 9,693 × WordIndex$Entry · ~227 KiB` or `▲ 80,590 allocations · String, byte[] · ~3.5 MiB`. */
export function hotLineText(l: LineTotals): string {
  if (l.types.length === 1) {
    const t: TypeTotals = l.types[0];
    return `▲ ${num(t.count)} × ${shortType(t.type.name)}${bytesPart(t.bytes)}`;
  }
  const counts = plural(l.totals.objects + l.totals.arrays, 'allocation', 'allocations');
  const names = l.types.slice(0, 2).map((t) => shortType(t.type.name)).join(', ') + (l.types.length > 2 ? ', …' : '');
  return `▲ ${counts} · ${names}${bytesPart(l.totals.bytes)}`;
}

/** Gutter level 5 (hottest) … 1 for a 1-based rank among `of` hot lines. */
export function heatLevel(rank: number, of: number): number {
  if (of <= 1) return 5;
  return 5 - Math.min(4, Math.floor(((rank - 1) * 5) / of));
}
