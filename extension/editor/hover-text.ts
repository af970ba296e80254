// The hover of a hot allocation line, as Markdown: the breakdown by allocated type and the top calling
// contexts, with links that show the flame tree at that site. No `vscode` import (unit-tested).
import { accountIndexOf, accountsOf, UNACCOUNTED } from '../../core/views/accounts';
import { Totals } from '../../core/views/aggregate';
import { LineTotals } from '../../core/views/by-line';
import { shortFrame } from '../../core/profile/names';
import { MethodEntry, Profile } from '../../core/profile/types';
import { bytes, num, pct, shortType } from './lens-text';
import { FOCUS_COMMAND, FocusRequest, frameOf, SourceRef } from './refs';

/** A Markdown link that runs heaplens.focusMethod with the request. */
export function focusLink(label: string, req: FocusRequest): string {
  // encodeURIComponent leaves ( ) ' ! * ~ alone: a ")" in a method descriptor would end the Markdown link
  const args = encodeURIComponent(JSON.stringify([req])).replace(/[()'!*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `[${label}](command:${FOCUS_COMMAND}?${args} "Show in the flame tree")`;
}

function esc(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>$]/g, (c) => `\\${c}`);
}

export interface HoverInput {
  profile: Profile;
  line: LineTotals;
  rank: number;
  of: number;
  total: Totals;
  sourceLabel: string;
  source: SourceRef;
}

export function hotLineHover(h: HoverInput): string {
  const { line: l, profile } = h;
  const out: string[] = [];
  out.push(`**HeapLens** · hot allocation line ${h.rank} of ${h.of} · ${esc(h.sourceLabel)}`, '');
  const parts = [l.totals.objects ? `${num(l.totals.objects)} objects` : '', l.totals.arrays ? `${num(l.totals.arrays)} arrays of ${num(l.totals.elements)} elements` : '']
    .filter((s) => s).join(', ');
  const counts = l.count ? `**${num(l.count)} allocations** (${parts})` : '';
  const size = l.totals.bytes > 0
    ? `~${bytes(l.totals.bytes)} estimated (${pct(h.total.bytes ? l.totals.bytes / h.total.bytes : 0)} of the profile's est. bytes)`
    : 'size not estimated';
  out.push(`${counts || 'nothing'}, ${size}, all threads`, '');
  const own = l.count - l.inside.reduce((n, i) => n + i.count, 0);
  if (l.inside.length) {
    out.push(own ? `${num(own)} allocated by this line itself, ${num(l.count - own)} inside the JDK calls it makes:` : 'All of them inside the JDK calls it makes:', '');
    for (const i of l.inside.slice(0, 6)) {
      const m = profile.methods.get(i.method);
      const types = i.types.slice(0, 4).map((t) => `\`${shortType(t.type.name)}\` ${num(t.count)}`).join(', ') + (i.types.length > 4 ? ', …' : '');
      out.push(`- inside ${m ? esc(shortFrame(m)) : 'unknown code'}: ${types}`);
    }
    if (l.inside.length > 6) out.push(`- … ${l.inside.length - 6} more methods`);
    out.push('');
  }
  out.push('| allocated type | objects/arrays | elements | est. bytes |', '| :-- | --: | --: | --: |');
  for (const t of l.types.slice(0, 8)) {
    out.push(`| \`${t.type.name}\` | ${num(t.count)} | ${t.type.array ? num(t.elements) : ''} | ${t.bytes > 0 ? bytes(t.bytes) : '?'} |`);
  }
  if (l.types.length > 8) out.push(`| … ${l.types.length - 8} more types | | | |`);
  const siteMethods = l.methods.map((id) => profile.methods.get(id)).filter((m): m is MethodEntry => !!m);
  const names = accountNames(profile);
  /** Bouché et al. 2009: the account of the innermost accounted method of the context (its allocations are charged there) */
  const accountOf = (frames: MethodEntry[]): string => {
    for (let i = frames.length - 1; i >= 0; i--) {
      const k = accountIndexOf(names!, frames[i].class);
      if (k > 0) return names![k];
    }
    return UNACCOUNTED;
  };
  if (l.contexts.length) {
    out.push('', `**Top calling contexts** (of ${num(l.count)} allocations)${names ? ' and the memory account each is charged to' : ''}`, '');
    l.contexts.forEach((c, i) => {
      const frames = c.path.map((id) => profile.methods.get(id)).filter((m): m is MethodEntry => !!m);
      const text = frames.map(shortFrame).join(' › ') || '(thread root)';
      const last = frames[frames.length - 1];
      const req: FocusRequest = { source: h.source, frames: last ? [frameOf(last)] : siteMethods.map(frameOf), path: frames.map(frameOf), line: l.line };
      const label = esc(text);
      const account = names ? ` · account \`${accountOf(frames)}\`` : '';
      out.push(`${i + 1}. ${last || siteMethods.length ? focusLink(label, req) : label} — ${num(c.count)}${c.bytes > 0 ? ` · ${bytes(c.bytes)}` : ''}${account}`);
    });
  }
  if (siteMethods.length) {
    const req: FocusRequest = { source: h.source, frames: siteMethods.map(frameOf), line: l.line };
    out.push('', focusLink(`$(type-hierarchy) Show ${esc(siteMethods.map(shortFrame).join(', '))} in the flame tree`, req));
  }
  return out.join('\n');
}

/** The profile's memory account names, or undefined when it has none (or a malformed section: the hover stays useful). */
function accountNames(profile: Profile): string[] | undefined {
  try {
    return accountsOf(profile.file)?.names;
  } catch {
    return undefined;
  }
}
