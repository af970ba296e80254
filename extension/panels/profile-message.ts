// The `profile` message a VS Code panel posts to its webview. A profile the page paints afresh travels as the HTML
// report's does: its first tree built here (first-tree.ts, the report's own code) as typed-array columns, the call
// trees apart as JSON text, the rest as JSON text; the page paints the columns before it parses the trees. VS Code's
// postMessage sends typed arrays as binary, beside the JSON (since engines.vscode 1.57), so the columns are not
// turned into text on the way. No `vscode` import: unit-tested in Node.
import { defaultTree, TreeKind, treeOf } from '../../core/profile/modes';
import { splitTrees } from '../../core/profile/tree-split';
import { MctNode, Profile } from '../../core/profile/types';
import { deepJson } from '../../core/protocol/deep-json';
import { BuiltTree, HostMessage } from '../../core/protocol/webview-protocol';
import { embeddedFirstTree } from './first-tree';

export type ProfileMessage = HostMessage & { type: 'profile' };

/**
 * From this many nodes on, the first tree is not built here: the page's load worker reads the text off the page's
 * thread (from 24 MB, about 400,000 nodes: webview/load/apply-profile.ts WORKER_FROM). Building a 1,000,000-node tree cost the extension
 * host 5.4–6.8 s of CPU against 1.4–1.6 s for the text, and the editor's first paint in code-server took 67 s against
 * 45 s (load 20–24; docs/views.md, Round 10).
 */
export const BUILD_BELOW_NODES = 400_000;

/**
 * `build`: the first tree built here (a page that paints the profile afresh), for a tree under `buildBelow` nodes;
 * otherwise, and for a profile without a call tree (accounts or lifetime mode: the report sends those as text too), the
 * whole file as JSON text.
 */
export function profileMessage(profile: Profile, o: { title: string; live: boolean; build: boolean; buildBelow?: number }): ProfileMessage {
  const base = { type: 'profile' as const, title: o.title, live: o.live, keepState: true };
  const kind = defaultTree(profile);
  const build = o.build && fewerNodes(profile, kind, o.buildBelow ?? BUILD_BELOW_NODES);
  const first = build ? embeddedFirstTree(profile, kind, false) : undefined;
  if (!first) return { ...base, json: deepJson(profile.file) };
  const { light, trees } = splitTrees(profile.file);
  const built: BuiltTree = {
    kind: first.kind, kinds: first.kinds, defaultKind: first.defaultKind,
    columns: ownBytes(first.columns), records: ownBytes(first.records), trees: deepJson(trees),
  };
  // the report's embedded shape ({ profile }), which the page's built-tree path reads
  return { ...base, json: deepJson({ profile: light }), built };
}

/** Whether the threads' trees of `kind` hold fewer than `limit` nodes, roots included (the walk stops at the limit). */
export function fewerNodes(profile: Profile, kind: TreeKind, limit: number): boolean {
  const stack: MctNode[] = [];
  for (const t of profile.threads) {
    const root = treeOf(t, kind);
    if (root) stack.push(root);
  }
  let n = 0;
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (++n >= limit) return false;
    if (node.c) for (const c of node.c) stack.push(c);
  }
  return true;
}

/**
 * A plain Uint8Array over a buffer of its own. VS Code serializes a typed array by sending its whole ArrayBuffer, and
 * a Node Buffer not at all (JSON.stringify calls its toJSON first: an array of numbers).
 */
export function ownBytes(b: Uint8Array): Uint8Array {
  if (b.constructor === Uint8Array && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength) return b;
  return new Uint8Array(b);
}
