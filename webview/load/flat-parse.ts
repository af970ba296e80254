// Builds the first flame tree straight from the profile's JSON text, without the object graph: the call trees are
// read into flat arrays (one slot per node, one per allocation record); flat-tree.ts then merges them across threads
// and flattens them into the same arrays frameTree (core/views/frames.ts) makes of the parsed and merged profile.
// Everything else in the text (methods, types, sites, the other modes' trees, a report's baseline) is cut out and
// given to JSON.parse. Used for the first paint only: the worker parses the whole text afterwards for the other
// trees. A shape it does not know (a null in a record, a node without a method, …) makes it give up (undefined):
// the caller then takes the JSON.parse path.
import { TREE_KINDS, TreeKind } from '../../core/profile/modes';
import { MctNode, ProfileFile, PROFILE_SHAPE_VERSION } from '../../core/profile/types';

/** Numbers per record in the packed arrays (tree-pack.ts). */
export const STRIDE = 7;

class GiveUp extends Error {}

/** The call trees of the text as flat arrays: node k's fields at index k, its records at recFirst[k] … + recCount[k]. */
interface RawTrees {
  /** -2: no method (a root) */
  m: number[];
  calls: number[];
  line: number[];
  samples: number[];
  /** -1: no `a` (not the same as an empty list) */
  recFirst: number[];
  recCount: number[];
  firstChild: number[];
  nextSibling: number[];
  lastChild: number[];
  /** STRIDE numbers per record (unused ones 0), in the first STRIDE * recLen.length slots */
  rec: Float64Array;
  recLen: number[];
}

function newRaw(): RawTrees {
  return { m: [], calls: [], line: [], samples: [], recFirst: [], recCount: [], firstChild: [], nextSibling: [], lastChild: [], rec: new Float64Array(STRIDE * 1024), recLen: [] };
}

/** Where readNumber stopped (a module variable: the tree reader's hot loop keeps its position in a local). */
let numEnd = 0;

/** The number at `pos` (digits summed here; fractions, exponents and long numbers by Number); numEnd after it. */
function readNumber(t: string, pos: number): number {
  const from = pos;
  let c = t.charCodeAt(pos);
  const neg = c === 45;
  if (neg) c = t.charCodeAt(++pos);
  let v = 0;
  const first = pos;
  while (c >= 48 && c <= 57) {
    v = v * 10 + (c - 48);
    c = t.charCodeAt(++pos);
  }
  if (pos === first) throw new GiveUp();          // null, a string, …
  if (c === 46 || c === 101 || c === 69 || pos - first > 15) {
    while (c === 46 || c === 101 || c === 69 || c === 43 || c === 45 || (c >= 48 && c <= 57)) c = t.charCodeAt(++pos);
    numEnd = pos;
    return Number(t.slice(from, pos));
  }
  numEnd = pos;
  return neg ? -v : v;
}

function isWs(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/**
 * Format version 2 writes a node's call line only where it changes for the pair (parent's method, method), `-1` for
 * "none" (docs/format.md, core/profile/version2.ts): fills in the lines of the exact tree read into raw nodes
 * [from, to) (depth first, a node before its children: file order). `lines` maps the pair to its last line, across
 * threads. An absent line was read as 0.
 */
function expandLines(raw: RawTrees, from: number, to: number, lines: Map<number, number>): void {
  const { m, line, firstChild, nextSibling } = raw;
  const parent = new Int32Array(to - from).fill(-1);
  for (let k = from; k < to; k++) {
    for (let c = firstChild[k]; c >= 0; c = nextSibling[c]) parent[c - from] = k;
    const p = parent[k - from];
    if (p < 0 || m[p] < 0 || m[k] < 0) {
      if (line[k] < 0) line[k] = 0;
      continue;
    }
    if (m[p] >= 4194304) throw new GiveUp();             // the pair's key is exact below 2^22 · 2^31
    const key = m[p] * 2147483648 + m[k];
    const v = line[k];
    if (v === 0) line[k] = lines.get(key) ?? 0;
    else {
      if (v < 0) line[k] = 0;
      lines.set(key, line[k]);
    }
  }
}

/**
 * Reads the call tree at `pos` (an MCT node object and its descendants) into `raw`, without recursion (trees are up
 * to 4,096 levels deep); returns the position after it. Keys are told apart by their characters, not as strings.
 */
function readTree(t: string, pos: number, raw: RawTrees): number {
  const { m, calls, line, samples, recFirst, recCount, firstChild, nextSibling, lastChild, recLen } = raw;
  let rec = raw.rec;
  let nv = recLen.length * STRIDE;
  const newNode = (parent: number): number => {
    const k = m.length;
    m.push(-2);
    calls.push(0);
    line.push(0);
    samples.push(0);
    recFirst.push(-1);
    recCount.push(0);
    firstChild.push(-1);
    nextSibling.push(-1);
    lastChild.push(-1);
    if (parent >= 0) {
      const last = lastChild[parent];
      if (last < 0) firstChild[parent] = k;
      else nextSibling[last] = k;
      lastChild[parent] = k;
    }
    return k;
  };
  let c = t.charCodeAt(pos);
  if (c !== 123) throw new GiveUp();
  pos++;
  const root = newNode(-1);
  let cur = root;
  const open: number[] = [];
  for (;;) {
    c = t.charCodeAt(pos);
    while (isWs(c)) c = t.charCodeAt(++pos);
    if (c === 44) {
      c = t.charCodeAt(++pos);
      while (isWs(c)) c = t.charCodeAt(++pos);
    }
    if (c === 125) {
      // the node ends: back in its parent's child list (a node below the root names its method)
      if (cur !== root && m[cur] === -2) throw new GiveUp();
      pos++;
      if (open.length === 0) return pos;
      cur = open.pop()!;
      c = t.charCodeAt(pos);
      while (isWs(c)) c = t.charCodeAt(++pos);
      if (c === 44) {
        c = t.charCodeAt(++pos);
        while (isWs(c)) c = t.charCodeAt(++pos);
        if (c !== 123) throw new GiveUp();
        pos++;
        open.push(cur);
        cur = newNode(cur);
      } else if (c === 93) {
        pos++;       // the child list ends; the parent's fields go on
      } else throw new GiveUp();
      continue;
    }
    if (c !== 34) throw new GiveUp();
    // the key: its first character and length are enough for the keys a node has
    const k0 = t.charCodeAt(pos + 1);
    let q = pos + 1;
    while ((c = t.charCodeAt(q)) !== 34) {
      if (c === 92 || Number.isNaN(c)) throw new GiveUp();
      q++;
    }
    const len = q - pos - 1;
    pos = q + 1;
    c = t.charCodeAt(pos);
    while (isWs(c)) c = t.charCodeAt(++pos);
    if (c !== 58) throw new GiveUp();
    c = t.charCodeAt(++pos);
    while (isWs(c)) c = t.charCodeAt(++pos);
    if (len === 1 && k0 === 109) {                               // m
      const v = readNumber(t, pos);
      if (!Number.isInteger(v) || v < 0 || v > 2147483647) throw new GiveUp();
      m[cur] = v;
      pos = numEnd;
    } else if (len === 5 && k0 === 99 && t.startsWith('calls', q - 5)) {
      calls[cur] = readNumber(t, pos);
      pos = numEnd;
    } else if (len === 1 && k0 === 99) {                         // c: the children
      if (c !== 91) throw new GiveUp();
      c = t.charCodeAt(++pos);
      while (isWs(c)) c = t.charCodeAt(++pos);
      if (c === 93) {
        pos++;
        continue;
      }
      if (c !== 123) throw new GiveUp();
      pos++;
      open.push(cur);
      cur = newNode(cur);
    } else if (len === 1 && k0 === 97) {                         // a: the records
      if (c !== 91) throw new GiveUp();
      recFirst[cur] = recLen.length;
      let count = 0;
      c = t.charCodeAt(++pos);
      while (isWs(c)) c = t.charCodeAt(++pos);
      if (c === 93) {
        pos++;
        continue;
      }
      for (;;) {
        if (c !== 91) throw new GiveUp();
        pos++;
        let n = 0;
        if (nv + STRIDE > rec.length) {
          const bigger = new Float64Array(rec.length * 2);
          bigger.set(rec);
          raw.rec = rec = bigger;
        }
        for (;;) {
          c = t.charCodeAt(pos);
          while (isWs(c)) c = t.charCodeAt(++pos);
          const v = readNumber(t, pos);
          pos = numEnd;
          if (n < STRIDE) rec[nv + n] = v;
          n++;
          c = t.charCodeAt(pos);
          while (isWs(c)) c = t.charCodeAt(++pos);
          pos++;
          if (c === 93) break;
          if (c !== 44) throw new GiveUp();
        }
        if (n < 5) throw new GiveUp();
        nv += STRIDE;
        recLen.push(n < STRIDE ? n : STRIDE);
        count++;
        c = t.charCodeAt(pos);
        while (isWs(c)) c = t.charCodeAt(++pos);
        pos++;
        if (c === 93) break;
        if (c !== 44) throw new GiveUp();
        c = t.charCodeAt(pos);
        while (isWs(c)) c = t.charCodeAt(++pos);
      }
      recCount[cur] = count;
    } else if (len === 4 && k0 === 108 && t.startsWith('line', q - 4)) {
      const v = readNumber(t, pos);
      if (!Number.isInteger(v) || v < -2147483648 || v > 2147483647) throw new GiveUp();
      line[cur] = v;
      pos = numEnd;
    } else if (len === 7 && k0 === 115 && t.startsWith('samples', q - 7)) {
      samples[cur] = readNumber(t, pos);
      pos = numEnd;
    } else {
      pos = skipJson(t, pos);
    }
  }
}

/** The position after the JSON value at `pos` (checked by JSON.parse where it is parsed, not here). */
function skipJson(t: string, pos: number): number {
  let depth = 0;
  for (;;) {
    const c = t.charCodeAt(pos);
    if (Number.isNaN(c)) throw new GiveUp();
    if (c === 34) {
      pos++;
      for (;;) {
        const d = t.charCodeAt(pos++);
        if (d === 92) pos++;
        else if (d === 34) break;
        else if (Number.isNaN(d)) throw new GiveUp();
      }
      if (depth === 0) return pos;
      continue;
    }
    if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      if (depth === 0) return pos;           // the end of the enclosing value
      depth--;
      pos++;
      if (depth === 0) return pos;
      continue;
    } else if (depth === 0 && c === 44) return pos;
    pos++;
  }
}

export interface FlatThread {
  id: number;
  /** the raw index of the exact tree's root, and the range of its nodes */
  root: number;
  end: number;
}

export interface FlatParse {
  /** the profile without call trees (every thread's `root: {}`), as the load worker's `light` */
  light: ProfileFile;
  kinds: TreeKind[];
  defaultKind: TreeKind;
  /** a report's embedded data: its title, baseline and first tree */
  embedded?: { title?: string; baseline?: { title: string; profile: ProfileFile }; tree?: TreeKind };
  threads: FlatThread[];
  raw: RawTrees;
}

/** Parses `text` (a profile file or a report's embedded data), or undefined when its shape is not one it knows. */
export function parseFlat(text: string): FlatParse | undefined {
  try {
    return new Reader(text).top();
  } catch (e) {
    if (e instanceof GiveUp || e instanceof SyntaxError) return undefined;
    throw e;
  }
}

class Reader {
  private pos = 0;
  private readonly raw = newRaw();
  private readonly threads: FlatThread[] = [];
  /** per thread, whether each kind's tree holds data (modes.treesIn) */
  private readonly has: Record<TreeKind, boolean> = { exact: false, sites: false, traces: false, sampled: false };
  /** the document's `version` once read (the agent writes it before the threads); version 2's call lines so far */
  private version: unknown;
  private lines?: Map<number, number>;
  private treesBeforeVersion = false;

  constructor(private readonly text: string) {}

  top(): FlatParse {
    const fields = this.object((key) => (key === 'profile' ? this.profileObject() : key === 'threads' ? this.threadList() : this.versionOf(key)));
    delete fields.first;
    let light: ProfileFile;
    let embedded: FlatParse['embedded'];
    if ('format' in fields) light = fields as unknown as ProfileFile;
    else if (fields.profile && typeof fields.profile === 'object') {
      light = fields.profile as ProfileFile;
      embedded = { title: fields.title as string | undefined, baseline: fields.baseline as never, tree: fields.tree as TreeKind | undefined };
    } else throw new GiveUp();
    this.checkVersion(light);
    if (!Array.isArray(light.threads) || light.threads.length !== this.threads.length) throw new GiveUp();
    const kinds = TREE_KINDS.filter((k) => this.has[k]);
    const defaultKind: TreeKind = kinds.length === 0 || kinds.includes('exact') ? 'exact'
      : kinds.includes('sampled') ? 'sampled' : kinds.includes('sites') ? 'sites' : kinds[0];
    return {
      light, kinds, defaultKind, embedded, threads: this.threads,
      raw: this.raw,
    };
  }

  /** The profile object: its threads read here, every other field by JSON.parse. */
  private profileObject(): Record<string, unknown> {
    return this.object((key) => (key === 'threads' ? this.threadList() : this.versionOf(key)));
  }

  /** The `version` field: read here, so that the trees after it know how their call lines are written. */
  private versionOf(key: string): unknown {
    if (key !== 'version') return undefined;
    const at = this.pos;
    this.skipValue();
    this.version = JSON.parse(this.text.slice(at, this.pos));
    if (this.version === 2) this.lines = new Map();
    return this.version;
  }

  /** A version 2 document whose trees came before its version cannot be read here; its trees are expanded (shape 1). */
  private checkVersion(light: ProfileFile): void {
    if (light.version !== 2) return;
    if (this.treesBeforeVersion) throw new GiveUp();
    light.version = PROFILE_SHAPE_VERSION;
  }

  private threadList(): unknown[] {
    const out: unknown[] = [];
    this.ws();
    this.expect(91);       // [
    this.ws();
    if (this.peek() === 93) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.ws();
      let root = -1;
      const others: Partial<Record<TreeKind, boolean>> = {};
      const t = this.object((key) => {
        if (key === 'root') {
          root = this.tree();
          return {};
        }
        const kind = key === 'sites' ? 'sites' : key === 'siteTraces' ? 'traces' : key === 'sampled' ? 'sampled' : undefined;
        if (!kind) return undefined;
        // another mode's tree: only whether it holds data matters here (a large one surely does; the worker parses
        // the whole text later anyway when that tree is the one shown)
        const at = this.pos;
        this.skipValue();
        if (this.pos - at > 4096) others[kind] = true;
        else {
          const n = JSON.parse(this.text.slice(at, this.pos)) as MctNode | null;
          others[kind] = !!n && ((n.a?.length ?? 0) > 0 || (n.c?.length ?? 0) > 0);
        }
        return {};
      });
      if (root < 0) throw new GiveUp();
      if (this.raw.firstChild[root] >= 0 || this.raw.recCount[root] > 0) this.has.exact = true;
      for (const kind of ['sites', 'traces', 'sampled'] as const) if (others[kind]) this.has[kind] = true;
      this.threads.push({ id: t.id as number, root, end: this.raw.m.length });
      out.push({ id: t.id, name: t.name, daemon: t.daemon, alive: t.alive, root: {} });
      this.ws();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 93) return out;
      if (c !== 44) throw new GiveUp();
    }
  }

  /**
   * An object: `special(key)` reads the value of the keys it knows (undefined: not one of them), every other value is
   * cut out of the text and given to JSON.parse.
   */
  private object(special: (key: string) => unknown): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.ws();
    this.expect(123);      // {
    this.ws();
    if (this.peek() === 125) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.ws();
      const key = this.key();
      this.ws();
      this.expect(58);     // :
      this.ws();
      const at = this.pos;
      const v = special(key);
      if (v !== undefined) out[key] = v;
      else if (key === 'first') {
        this.skipValue();             // the first section (first-section.ts): its frames come from the whole trees here
        out[key] = null;
      } else {
        this.pos = at;
        this.skipValue();
        out[key] = JSON.parse(this.text.slice(at, this.pos));
      }
      this.ws();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 125) return out;
      if (c !== 44) throw new GiveUp();
    }
  }

  /** One call tree, read by readTree into the shared arrays; its root's index. */
  private tree(): number {
    const root = this.raw.m.length;
    if (this.version === undefined) this.treesBeforeVersion = true;
    this.pos = readTree(this.text, this.pos, this.raw);
    if (this.lines) expandLines(this.raw, root, this.raw.m.length, this.lines);
    return root;
  }

  private ws(): void {
    const t = this.text;
    let c = t.charCodeAt(this.pos);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = t.charCodeAt(++this.pos);
  }

  private peek(): number {
    return this.text.charCodeAt(this.pos);
  }

  private expect(c: number): void {
    if (this.text.charCodeAt(this.pos) !== c) throw new GiveUp();
    this.pos++;
  }

  private key(): string {
    const t = this.text;
    this.expect(34);
    const from = this.pos;
    let c = t.charCodeAt(this.pos);
    while (c !== 34 && c !== 92 && this.pos < t.length) c = t.charCodeAt(++this.pos);
    if (c === 34) return t.slice(from, this.pos++);
    // an escape: the whole string by JSON.parse
    this.pos = from - 1;
    this.skipValue();
    return JSON.parse(t.slice(from - 1, this.pos)) as string;
  }

  private skipValue(): void {
    this.pos = skipJson(this.text, this.pos);
  }
}
