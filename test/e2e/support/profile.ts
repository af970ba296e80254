// Reading a `.heaplens` profile as plain JSON (docs/format.md), independently of core/profile,
// so the e2e suite checks the file itself and not only what the model makes of it.
import * as fs from 'fs';
import { profileText } from '../../../core/profile/load';

export interface RawMethod {
  id: number;
  class: string;
  name: string;
  desc: string;
  profiled: boolean;
  ctorTarget?: number;
  ctorWarning?: string;
  line?: number;
}
export interface RawType {
  id: number;
  name: string;
  array: boolean;
  elementCode?: string;
}
export interface RawSite {
  id: number;
  method: number;
  bci: number;
  kind: string;
  type: number;
  line?: number;
}
/** [site, type, count, elements, bytes, line?, callee?] (docs/format.md) */
export type RawRecord = [number, number, number, number, number, ...number[]];
export interface RawNode {
  m?: number;
  calls?: number;
  a?: RawRecord[];
  c?: RawNode[];
  folded?: number;
}
export interface RawThread {
  id: number;
  name: string;
  daemon: boolean;
  alive: boolean;
  root: RawNode;
}

export class RawProfile {
  readonly json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly methods = new Map<number, RawMethod>();
  readonly types = new Map<number, RawType>();
  readonly sites = new Map<number, RawSite>();
  readonly threads: RawThread[];

  constructor(file: string) {
    // plain or gzip (the agent compresses large final profiles): the extension's own reader decides
    this.json = JSON.parse(profileText(fs.readFileSync(file) as unknown as Uint8Array));
    if (this.json.format !== 'heaplens-profile') throw new Error(`${file}: format is ${this.json.format}`);
    for (const m of this.json.methods as RawMethod[]) this.methods.set(m.id, m);
    for (const t of this.json.types as RawType[]) this.types.set(t.id, t);
    for (const s of this.json.sites as RawSite[]) this.sites.set(s.id, s);
    this.threads = this.json.threads as RawThread[];
  }

  /** `pkg.Class.method`, the collapsed-format frame name of a node's method. */
  frame(node: RawNode): string {
    const m = this.method(node);
    return `${m.class}.${m.name}`;
  }

  method(node: RawNode): RawMethod {
    if (node.m === undefined) throw new Error('the root has no method');
    const m = this.methods.get(node.m);
    if (!m) throw new Error(`node names undefined method id ${node.m}`);
    return m;
  }

  thread(name: string): RawThread {
    const found = this.threads.filter((t) => t.name === name);
    if (found.length !== 1) {
      throw new Error(`expected one thread named ${name}, found ${found.length} (threads: ${this.threads.map((t) => t.name).join(', ')})`);
    }
    return found[0];
  }

  /**
   * All nodes of `thread` reached by `frames` from its root. A frame is `pkg.Class.method`, or
   * `pkg.Class.method(desc)` to tell overloads (constructors) apart.
   */
  nodes(thread: string, frames: readonly string[]): RawNode[] {
    let level: RawNode[] = [this.thread(thread).root];
    for (const f of frames) {
      const next: RawNode[] = [];
      for (const n of level) {
        for (const c of n.c ?? []) if (this.matches(c, f)) next.push(c);
      }
      level = next;
    }
    return level;
  }

  /** Total calls of the nodes at `frames` (0 when there is none). */
  calls(thread: string, frames: readonly string[]): number {
    return this.nodes(thread, frames).reduce((s, n) => s + (n.calls ?? 0), 0);
  }

  matches(node: RawNode, frame: string): boolean {
    const m = this.method(node);
    const paren = frame.indexOf('(');
    if (paren < 0) return `${m.class}.${m.name}` === frame;
    return `${m.class}.${m.name}` === frame.slice(0, paren) && m.desc === frame.slice(paren);
  }

  /** Calls every node of every thread (root included, with `path` = frames from the root). */
  walk(visit: (node: RawNode, path: string[], thread: RawThread, parent?: RawNode) => void): void {
    for (const t of this.threads) {
      const rec = (n: RawNode, path: string[], parent?: RawNode): void => {
        visit(n, path, t, parent);
        for (const c of n.c ?? []) rec(c, path.concat(this.frame(c)), n);
      };
      rec(t.root, []);
    }
  }

  /** Methods with the given class and name (all descriptors). */
  methodsNamed(cls: string, name: string): RawMethod[] {
    return [...this.methods.values()].filter((m) => m.class === cls && m.name === name);
  }

  typeName(id: number): string {
    const t = this.types.get(id);
    if (!t) throw new Error(`undefined type id ${id}`);
    return t.name;
  }
}

/**
 * Whether a frame path (collapsed `a;b;c`, or frames with descriptors) or a record key runs through the JVM's
 * method-type linking: the java.lang.invoke frames that link a program's first lambdas and string concatenations,
 * and JDK 25's interning table (`ReferencedKeySet`, whose keys are `jdk.internal.util.*ReferenceKey`). The agent's
 * own threads race the program to these shared tables, so which of two runs pays for an entry is not the program's
 * doing; tests that compare two runs leave this work out.
 */
export function isMethodTypeLinking(path: string): boolean {
  return /java\.lang\.invoke\.|jdk\.internal\.util\.\w*ReferenceKey/.test(path);
}

/** The parts of a profile JSON that name an allocation record's site, method and type. */
export interface SiteTables {
  types: { id: number; name: string }[];
  methods: { id: number; class: string; name: string }[];
  sites: { id: number; method: number; bci: number }[];
  threads: ({ root: RawNode } & Partial<Record<'sites' | 'siteTraces' | 'sampled', RawNode>>)[];
}

/**
 * Per-site totals `Class.method@bci TYPE` → [count, elements] over every thread's `tree`, for the sites in methods of
 * package `pkg`. JDK allocations charged to a call site of `pkg` (docs/modes.md) are included under that site.
 */
export function perSite(doc: SiteTables, tree: 'root' | 'sites', pkg: string): Map<string, [number, number]> {
  const types = new Map(doc.types.map((t) => [t.id, t.name]));
  const methods = new Map(doc.methods.map((m) => [m.id, m]));
  const sites = new Map(doc.sites.map((s) => [s.id, s]));
  const out = new Map<string, [number, number]>();
  for (const t of doc.threads) {
    const stack: RawNode[] = t[tree] ? [t[tree]!] : [];
    while (stack.length) {
      const n = stack.pop()!;
      for (const [siteId, type, count, elements] of n.a ?? []) {
        const s = sites.get(siteId);
        const m = s && methods.get(s.method);
        if (!s || !m || !m.class.startsWith(pkg + '.')) continue;
        const key = `${m.class}.${m.name}@${s.bci} ${types.get(type)}`;
        const v = out.get(key) ?? [0, 0];
        out.set(key, [v[0] + count, v[1] + elements]);
      }
      for (const c of n.c ?? []) stack.push(c);
    }
  }
  return new Map([...out].sort());
}
