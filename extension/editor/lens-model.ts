// What the CodeLens of one Java file shows: the profile's methods grouped by where they are declared in
// the file's outline (a lambda with its enclosing method, initializers and synthetic methods with their
// type), with self and inclusive totals per group. No `vscode` import.
import { Totals } from '../../core/views/aggregate';
import { MethodTotals, shareOf, totalsByGroup } from '../../core/views/by-method';
import { MethodEntry, Profile } from '../../core/profile/types';
import { OutlineMatcher } from './match';
import { JavaOutline, OutlineMethod, OutlineType, Span } from './outline';

export interface MethodLens {
  /** the type's binary name after the package (`WordIndex$Entry`) */
  typeName: string;
  type: OutlineType;
  /** undefined: the type itself (initializers, implicit constructors, synthetic methods) */
  method?: OutlineMethod;
  /** where the lens goes */
  anchor: Span;
  /** the profile's methods counted here, most allocations first */
  members: MethodEntry[];
  totals: MethodTotals;
  selfShare: number;
  inclusiveShare: number;
}

export interface FileLenses {
  lenses: MethodLens[];
  /** the whole profile */
  total: Totals;
}

const count = (t: Totals): number => t.objects + t.arrays;

/** The share of estimated bytes; of allocations when the profile has no byte estimates at all. */
function share(part: Totals, whole: Totals): number {
  return whole.bytes > 0 ? shareOf(part, whole) : count(whole) > 0 ? count(part) / count(whole) : 0;
}

/** Lenses for every method of the outline under which anything was allocated, in source order. */
export function fileLenses(profile: Profile, outline: JavaOutline): FileLenses {
  const matcher = new OutlineMatcher(outline);
  const targets = new Map<string, { typeName: string; type: OutlineType; method?: OutlineMethod }>();
  const groupOf = (id: number): string | undefined => {
    const m = profile.methods.get(id);
    if (!m || !matcher.declares(m.class)) return undefined;
    const t = matcher.match(m);
    if (!t) return undefined;
    const key = t.method ? `${t.typeName}#${t.type.methods.indexOf(t.method)}` : `${t.typeName}#type`;
    targets.set(key, t);
    return key;
  };
  const { groups, total } = totalsByGroup(profile, groupOf);
  const lenses: MethodLens[] = [];
  for (const [key, g] of groups) {
    if (count(g.inclusive) === 0 && g.inclusive.bytes === 0) continue;
    const t = targets.get(key)!;
    const members = g.methods.map((id) => profile.methods.get(id)!);
    lenses.push({
      ...t, anchor: t.method ? t.method.span : t.type.span, members, totals: g,
      selfShare: share(g.self, total), inclusiveShare: share(g.inclusive, total),
    });
  }
  lenses.sort((a, b) => a.anchor.start.line - b.anchor.start.line || a.anchor.start.character - b.anchor.start.character);
  return { lenses, total };
}
