// Object counts derived from constructor calls in the MCT: Binder 2006, Figure 2.
//
//   getAlloc(c)      = Σ calls(x) over callees x of c whose method is "<init>"
//                      − calls(c)   if c is a constructor of a class other than java.lang.Object
//   getAlloc(c, cls) = Σ calls(x) over callees x of c whose method is "<init>" of class cls
//                      − calls(c)   if c is such a constructor and class(M(c)) = cls
//
// where M(c) is the alternate (`this(…)`) or superclass (`super(…)`) constructor that c invokes on
// `this` (the method's `ctorTarget` in the profile).
//
// DEVIATION from Binder 2006: in its MCT every constructor invocation is a node, so M(c) is always
// a callee of c and the subtraction removes it. Our MCT holds only *profiled* methods: JDK constructors
// (java.lang.Object.<init>, java.util.ArrayList.<init>, …) are never nodes. So we subtract calls(c) only
// when M(c) is itself a profiled method (methods[ctorTarget].profiled === true); when it is not, the
// super/alternate call is not in the tree and there is nothing to subtract. When the analysis found no
// target (no ctorTarget, see `ctorWarning`) we cannot tell, and subtract nothing.
//
// Consequently these counts cover only objects of profiled classes; allocation-site records (see
// siteObjectCounts) count every object, JDK types included, and are the reference to cross-check with.
import { childrenOf, recordsOf, walk } from '../profile/mct';
import { MctNode, MethodEntry, Profile } from '../profile/types';

const OBJECT = 'java.lang.Object';

function isCtor(m: MethodEntry | undefined): m is MethodEntry {
  return m !== undefined && m.name === '<init>';
}

/** The profiled constructor M(c) that the constructor node c calls on `this`, if any. */
function profiledTarget(profile: Profile, c: MctNode): MethodEntry | undefined {
  if (c.m === undefined) return undefined;
  const m = profile.methods.get(c.m);
  if (!isCtor(m) || m.class === OBJECT || m.ctorTarget === undefined) return undefined;
  const target = profile.methods.get(m.ctorTarget);
  return target && target.profiled ? target : undefined;
}

/** Figure 2 (a) / (b): objects (of class `cls`, when given) allocated by context `c` itself. */
export function getAlloc(profile: Profile, c: MctNode, cls?: string): number {
  let sum = 0;
  for (const x of childrenOf(c)) {
    const mx = x.m === undefined ? undefined : profile.methods.get(x.m);
    if (isCtor(mx) && (cls === undefined || mx.class === cls)) sum += x.calls ?? 0;
  }
  const target = profiledTarget(profile, c);
  if (target && (cls === undefined || target.class === cls)) sum -= c.calls ?? 0;
  return sum;
}

/** Per-class object counts of context `c` by Figure 2 (b), for every class with a constructor callee. */
export function getAllocByClass(profile: Profile, c: MctNode): Map<string, number> {
  const classes = new Set<string>();
  for (const x of childrenOf(c)) {
    const mx = x.m === undefined ? undefined : profile.methods.get(x.m);
    if (isCtor(mx)) classes.add(mx.class);
  }
  const target = profiledTarget(profile, c);
  if (target) classes.add(target.class);
  const out = new Map<string, number>();
  for (const cls of classes) {
    const n = getAlloc(profile, c, cls);
    if (n !== 0) out.set(cls, n);
  }
  return out;
}

/** Objects (non-array types) per type name counted by the allocation-site records of `c` itself. */
export function siteObjectCounts(profile: Profile, c: MctNode): Map<string, number> {
  const out = new Map<string, number>();
  for (const [, typeId, count] of recordsOf(c)) {
    const t = profile.types.get(typeId);
    if (!t || t.array) continue;
    out.set(t.name, (out.get(t.name) ?? 0) + count);
  }
  return out;
}

/** Classes that have at least one profiled method: the classes Figure 2 can count. */
export function profiledClasses(profile: Profile): Set<string> {
  const out = new Set<string>();
  for (const m of profile.methods.values()) if (m.profiled) out.add(m.class);
  return out;
}

export interface CtorMismatch {
  path: MctNode[];
  cls: string;
  byConstructors: number;
  bySites: number;
}

/**
 * Compares, for every context and every profiled class, Figure 2 (b) with the allocation-site counts.
 * Returns the contexts where they disagree (empty when the two methods agree).
 */
export function crossCheckCtorAlloc(profile: Profile, root: MctNode, classes = profiledClasses(profile)): CtorMismatch[] {
  const out: CtorMismatch[] = [];
  walk(root, (node, path) => {
    const byCtor = getAllocByClass(profile, node);
    const bySite = siteObjectCounts(profile, node);
    const names = new Set<string>([...byCtor.keys(), ...bySite.keys()]);
    for (const cls of names) {
      if (!classes.has(cls)) continue;
      const a = byCtor.get(cls) ?? 0;
      const b = bySite.get(cls) ?? 0;
      if (a !== b) out.push({ path: [...path], cls, byConstructors: a, bySites: b });
    }
  });
  return out;
}
