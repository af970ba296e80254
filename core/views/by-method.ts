// Per-method totals for the editor's CodeLens: what each method allocates itself (its own sites plus what
// non-profiled code, the JDK, allocates on its behalf: exactly the records on the method's MCT nodes) and
// its inclusive total (callees included), summed over all contexts and threads. Methods can be grouped
// (e.g. a lambda with the method that encloses it in the source): a group's inclusive total counts every
// allocation once per path, however often members of the group recur on that path. No `vscode` import.
import { addRecord, Totals, zeroTotals } from './aggregate';
import { childrenOf, recordsOf } from '../profile/mct';
import { MctNode, MethodEntry, Profile } from '../profile/types';

export interface MethodTotals {
  /** the group key (for totalsByMethod: methodKey of the method) */
  key: string;
  /** the method ids of the group that occur in the trees */
  methods: number[];
  /** records on the group's own nodes */
  self: Totals;
  /** everything allocated while a member of the group was on the stack, each allocation counted once */
  inclusive: Totals;
  /** invocations, summed over contexts */
  calls: number;
  /** calling contexts (MCT nodes over all threads) */
  contexts: number;
}

export interface GroupedTotals {
  groups: Map<string, MethodTotals>;
  /** the whole profile (all threads), for shares */
  total: Totals;
}

/** The identity of a method across class loaders and profile versions: `class.name(desc)`. */
export function methodKey(m: Pick<MethodEntry, 'class' | 'name' | 'desc'>): string {
  return `${m.class}.${m.name}${m.desc}`;
}

function addTotals(into: Totals, t: Totals): void {
  into.objects += t.objects;
  into.arrays += t.arrays;
  into.elements += t.elements;
  into.bytes += t.bytes;
}

/**
 * Totals per group over the trees (every thread's by default). `groupOf(methodId)` names the group of a
 * node's method, or undefined for methods that belong to no group (they still count in callers' inclusive
 * totals and in the profile total). Iterative: trees can be thousands of levels deep.
 */
export function totalsByGroup(
  profile: Profile, groupOf: (methodId: number) => string | undefined, roots?: readonly MctNode[],
): GroupedTotals {
  const groups = new Map<string, MethodTotals>();
  const total = zeroTotals();
  const onPath = new Map<string, number>();
  const groupOfCached = new Map<number, string | undefined>();
  const group = (m: number | undefined): string | undefined => {
    if (m === undefined) return undefined;
    if (!groupOfCached.has(m)) groupOfCached.set(m, groupOf(m));
    return groupOfCached.get(m);
  };
  interface Frame { node: MctNode; exit: boolean; acc?: Totals; key?: string; outermost?: boolean }
  for (const root of roots ?? profile.threads.map((t) => t.root)) {
    const stack: Frame[] = [{ node: root, exit: false }];
    const accs: Totals[] = [];
    while (stack.length > 0) {
      const f = stack.pop()!;
      if (f.exit) {
        const acc = accs.pop()!;
        if (accs.length > 0) addTotals(accs[accs.length - 1], acc);
        else addTotals(total, acc);
        if (f.key !== undefined) {
          if (f.outermost) addTotals(groups.get(f.key)!.inclusive, acc);
          onPath.set(f.key, onPath.get(f.key)! - 1);
        }
        continue;
      }
      const self = zeroTotals();
      for (const rec of recordsOf(f.node)) {
        const type = profile.types.get(rec[1]);
        if (type) addRecord(self, type, rec);
      }
      const key = group(f.node.m);
      let outermost = false;
      if (key !== undefined) {
        let g = groups.get(key);
        if (!g) groups.set(key, (g = { key, methods: [], self: zeroTotals(), inclusive: zeroTotals(), calls: 0, contexts: 0 }));
        if (!g.methods.includes(f.node.m!)) g.methods.push(f.node.m!);
        addTotals(g.self, self);
        g.calls += f.node.calls ?? 0;
        g.contexts += 1;
        const depth = onPath.get(key) ?? 0;
        outermost = depth === 0;
        onPath.set(key, depth + 1);
      }
      accs.push(self);
      stack.push({ node: f.node, exit: true, key, outermost });
      const kids = childrenOf(f.node);
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], exit: false });
    }
  }
  return { groups, total };
}

/** Totals per method (class + name + desc; several ids with the same key, e.g. two class loaders, merge). */
export function totalsByMethod(profile: Profile, roots?: readonly MctNode[]): GroupedTotals {
  return totalsByGroup(profile, (id) => {
    const m = profile.methods.get(id);
    return m ? methodKey(m) : undefined;
  }, roots);
}

/** `part / whole` for a metric, 0 when the whole is 0. */
export function shareOf(part: Totals, whole: Totals, metric: keyof Totals = 'bytes'): number {
  return whole[metric] > 0 ? part[metric] / whole[metric] : 0;
}
