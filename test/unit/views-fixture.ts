// A small hand-made profile for the call tree table, butterfly, hot spots and normalised diff tests.
//
// root
// ├─ App.main          calls 1   Item ×2 (32 B) at main:10
// │  ├─ App.load       calls 3   byte[] ×4 (1000 B, 400 elements) at load:20
// │  │  └─ App.parse   calls 5   Item ×10 (160 B) at parse:30
// │  └─ App.parse      calls 2   Item ×1 (16 B) at parse:30
// └─ Util.helper       calls 4   byte[] ×3 (300 B, 120 elements) at helper:40
//    └─ App.parse      calls 1   Item ×6 (96 B) at parse:30
import { frameTree, FrameTree } from '../../core/views/frames';
import { mergeThreads } from '../../core/profile/mct';
import { MctNode, MethodEntry, Profile, SiteEntry, TypeEntry } from '../../core/profile/types';
import { arrType, method, objType, profileOf } from './helpers';

export const TYPES: TypeEntry[] = [objType(1, 'com.acme.Item', 16), arrType(2, 'byte[]', 'B', 1)];
export const METHODS: MethodEntry[] = [
  method(1, 'com.acme.App', 'main', { desc: '([Ljava/lang/String;)V', file: 'App.java', line: 9 }),
  method(2, 'com.acme.App', 'load', { file: 'App.java', line: 19 }),
  method(3, 'com.acme.App', 'parse', { file: 'App.java', line: 29 }),
  method(4, 'com.acme.util.Util', 'helper', { file: 'Util.java', line: 39 }),
];
export const SITES: SiteEntry[] = [
  { id: 1, method: 1, bci: 0, line: 10, kind: 'new', type: 1 },
  { id: 2, method: 2, bci: 4, line: 20, kind: 'newarray', type: 2 },
  { id: 3, method: 3, bci: 8, line: 30, kind: 'new', type: 1 },
  { id: 4, method: 4, bci: 2, line: 40, kind: 'newarray', type: 2 },
];

export function mainRoot(): MctNode {
  return {
    c: [
      {
        m: 1, calls: 1, a: [[1, 1, 2, 0, 32]],
        c: [
          { m: 2, calls: 3, a: [[2, 2, 4, 400, 1000]], c: [{ m: 3, calls: 5, a: [[3, 1, 10, 0, 160]] }] },
          { m: 3, calls: 2, a: [[3, 1, 1, 0, 16]] },
        ],
      },
      { m: 4, calls: 4, a: [[4, 2, 3, 120, 300]], c: [{ m: 3, calls: 1, a: [[3, 1, 6, 0, 96]] }] },
    ],
  };
}

export function fixtureProfile(root: MctNode = mainRoot()): Profile {
  return profileOf({
    types: TYPES, methods: METHODS, sites: SITES,
    threads: [{ id: 1, name: 'main', daemon: false, alive: false, root }],
  });
}

export function fixtureTree(root: MctNode = mainRoot()): { profile: Profile; tree: FrameTree } {
  const profile = fixtureProfile(root);
  return { profile, tree: frameTree(mergeThreads(profile), profile.methods, profile.types) };
}

/** `Class.method` of a node, for readable assertions. */
export function nameAt(profile: Profile, tree: FrameTree, i: number): string {
  const m = profile.methods.get(tree.method[i]);
  return m ? `${m.class.slice(m.class.lastIndexOf('.') + 1)}.${m.name}` : 'root';
}

/** Each node as "name total-allocations total-bytes calls", indented by depth, in pre-order (root omitted). */
export function rowsOf(tree: FrameTree, methods: ReadonlyMap<number, MethodEntry>): string[] {
  const out: string[] = [];
  for (let i = 1; i < tree.n; i++) {
    const m = methods.get(tree.method[i])!;
    out.push(`${'  '.repeat(tree.depth[i] - 1)}${m.name} ${tree.total.objects[i] + tree.total.arrays[i]} ${tree.total.bytes[i]}B ${tree.self.calls[i]}`);
  }
  return out;
}
