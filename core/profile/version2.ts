// Format version 2 (docs/format.md, Node `line`) writes a node's call line only where it changes: in the exact trees
// (`root`), a node below a method node that has no `line` has the line last written for the same pair (parent's
// method, method), in file order (depth first, a node before its children, across threads); `"line": -1` says the
// call has no line. Version 1 wrote every line. Loading turns a version 2 document into version 1's shape, in place,
// so the views, the exports and every later reader of the object see one shape.
import { PROFILE_SHAPE_VERSION } from './types';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Fills in the call lines a version 2 document left out and removes its `"line": -1`, then marks the document version 1
 * (its shape now); returns the version it had. Anything else (version 1, a malformed document) is left as it is:
 * validation names what is wrong with it.
 */
export function expandVersion2(doc: unknown): unknown {
  if (!isObj(doc)) return undefined;
  const version = doc.version;
  if (version !== 2 || !Array.isArray(doc.threads)) return version;
  const last = new Map<number, Map<number, number>>();
  for (const t of doc.threads) if (isObj(t) && isObj(t.root)) expandTree(t.root, last);
  doc.version = PROFILE_SHAPE_VERSION;
  return version;
}

/** One exact tree, iteratively (trees are thousands of levels deep), in file order. */
function expandTree(root: Obj, last: Map<number, Map<number, number>>): void {
  const nodes: unknown[] = [root];
  const parents: number[] = [-1];
  while (nodes.length > 0) {
    const node = nodes.pop();
    const parent = parents.pop()!;
    if (!isObj(node)) continue;
    const m = node.m;
    if (parent >= 0 && typeof m === 'number') {
      let byMethod = last.get(parent);
      if (!byMethod) last.set(parent, (byMethod = new Map()));
      if (typeof node.line === 'number' && node.line !== 0) byMethod.set(m, Math.max(node.line, 0));
      else if (node.line === undefined || node.line === 0) node.line = byMethod.get(m) ?? 0;     // 0: as absent
    }
    if (typeof node.line === 'number' && node.line <= 0) delete node.line;
    const kids = node.c;
    if (!Array.isArray(kids)) continue;
    const self = typeof m === 'number' ? m : -1;
    for (let i = kids.length - 1; i >= 0; i--) {
      nodes.push(kids[i]);
      parents.push(self);
    }
  }
}
