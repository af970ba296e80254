// A profile focused on some methods: for each method, all its calling contexts in all threads merged into
// one tree (its callees below it), as a profile with a single "thread" so that every view shows it. Only
// the outermost call of a method on a path is taken (recursion is inside its subtree). No `vscode` import.
import { childrenOf, mergeTrees } from '../profile/mct';
import { MctNode, Profile, ThreadEntry } from '../profile/types';

/** The outermost nodes of each given method (not below another call of the same method), over all threads. */
export function outermostNodes(profile: Profile, methodIds: ReadonlySet<number>): Map<number, MctNode[]> {
  const out = new Map<number, MctNode[]>();
  const onPath = new Map<number, number>();
  for (const t of profile.threads) {
    const stack: Array<{ node: MctNode; exit: boolean }> = [{ node: t.root, exit: false }];
    while (stack.length) {
      const { node, exit } = stack.pop()!;
      const m = node.m !== undefined && methodIds.has(node.m) ? node.m : undefined;
      if (exit) {
        if (m !== undefined) onPath.set(m, onPath.get(m)! - 1);
        continue;
      }
      if (m !== undefined) {
        const depth = onPath.get(m) ?? 0;
        if (depth === 0) {
          const list = out.get(m) ?? [];
          list.push(node);
          out.set(m, list);
        }
        onPath.set(m, depth + 1);
        stack.push({ node, exit: true });
      }
      for (const k of childrenOf(node)) stack.push({ node: k, exit: false });
    }
  }
  return out;
}

/**
 * The focused profile: one thread named `label` whose root has one child per method (in the order given),
 * each the merge of all the method's outermost contexts. Undefined when none of the methods occurs.
 */
export function focusOnMethods(profile: Profile, methodIds: readonly number[], label: string): Profile | undefined {
  const nodes = outermostNodes(profile, new Set(methodIds));
  const kids: MctNode[] = [];
  for (const id of methodIds) {
    const list = nodes.get(id);
    if (!list?.length) continue;
    const merged = mergeTrees(list);
    kids.push({ ...merged, m: id, calls: list.reduce((n, x) => n + (x.calls ?? 0), 0) });
  }
  if (kids.length === 0) return undefined;
  const thread: ThreadEntry = { id: 0, name: label, daemon: false, alive: false, root: { c: kids } };
  return { ...profile, file: { ...profile.file, threads: [thread] }, threads: [thread] };
}
