// Format version 2 (docs/format.md, Node `line`) writes a node's call line only where it changes for the pair
// (parent's method, method); this fills the lines in and drops its "line": -1 (none), turning the document into version 1's
// shape in place (core/profile/version2.ts does the same for the extension; bench scripts do not load its build).
export function expandVersion2(doc) {
  if (doc?.version !== 2 || !Array.isArray(doc.threads)) return;
  const last = new Map();                        // "parent method,method" → line, in file order across threads
  for (const t of doc.threads) {
    const nodes = [t.root], parents = [-1];
    while (nodes.length) {
      const n = nodes.pop(), parent = parents.pop();
      if (!n || typeof n !== 'object') continue;
      if (parent >= 0 && typeof n.m === 'number') {
        const key = `${parent},${n.m}`;
        if (typeof n.line === 'number' && n.line !== 0) last.set(key, Math.max(n.line, 0));
        else n.line = last.get(key) ?? 0;
      }
      if (typeof n.line === 'number' && n.line <= 0) delete n.line;
      const kids = Array.isArray(n.c) ? n.c : [];
      for (let i = kids.length - 1; i >= 0; i--) { nodes.push(kids[i]); parents.push(typeof n.m === 'number' ? n.m : -1); }
    }
  }
  doc.version = 1;
}
