// A flattened tree (frames.ts) as bytes, so that it can be built once where the profile is read (the report
// generator) and handed to the page, which then paints without parsing the call trees. Only what cannot be derived
// travels: method, parent, entry line and the self values; depth, subtree ends and totals are rebuilt on decoding by
// the same sums frameTree makes (rollUp), so the decoded tree equals the built one array for array.
// Columns are little-endian typed arrays (every platform VS Code and Chromium run on), each padded to 8 bytes so that
// the decoder takes views of them instead of copies. The records (tooltips and tables, not the paint) are a block of
// their own, decoded after the first paint.
import { AllocRecord } from '../profile/types';
import { FrameTree, MetricArrays, rollUpInSteps, ViewMetric, VIEW_METRICS } from './frames';

const COLUMNS_MAGIC = 0x31434648;   // "HFC1"
const RECORDS_MAGIC = 0x31524648;   // "HFR1"
/** The self values that travel; `allocations` is objects + arrays, as frameTree sums it. */
const SENT: readonly ViewMetric[] = ['objects', 'bytes', 'arrays', 'elements', 'calls', 'samples'];
/** Numbers per record in the decoded records (tree-pack.ts's layout): site, type, count, elements, bytes, line, callee. */
export const RECORD_STRIDE = 7;

/**
 * How a column of numbers is stored: all zero (nothing), whole numbers in 1, 2 or 4 bytes each (the fewest that hold
 * its largest), or as they are (8 bytes). The page reads a column straight from the bytes, so smaller is faster there.
 */
const enum Kind { Zero = 0, U8 = 1, U16 = 2, U32 = 3, F64 = 4 }
const WIDTH = [0, 1, 2, 4, 8];

function kindOf(a: ArrayLike<number>, n: number): Kind {
  let max = 0;
  for (let i = 0; i < n; i++) {
    const v = a[i];
    if (v === 0 && !Object.is(v, -0)) continue;
    if (!(v >= 0 && v <= 0xffffffff && Math.floor(v) === v)) return Kind.F64;    // also -0, fractions, NaN
    if (v > max) max = v;
  }
  return max === 0 ? Kind.Zero : max <= 0xff ? Kind.U8 : max <= 0xffff ? Kind.U16 : Kind.U32;
}

function store(kind: Kind, n: number): Uint8Array | Uint16Array | Uint32Array | Float64Array {
  return kind === Kind.U8 ? new Uint8Array(n) : kind === Kind.U16 ? new Uint16Array(n) : kind === Kind.U32 ? new Uint32Array(n) : new Float64Array(n);
}

const pad8 = (bytes: number): number => (bytes + 7) & ~7;

/** Writes columns one after the other, each starting on an 8-byte boundary. */
class Writer {
  private parts: Uint8Array[] = [];
  private size = 0;

  header(words: number[]): void {
    this.put(new Uint8Array(Uint32Array.from(words).buffer));
  }

  /** a column of `kind` (kindOf) */
  numbers(a: ArrayLike<number>, n: number, kind: Kind): void {
    if (kind === Kind.Zero) return;
    const out = store(kind, n);
    for (let i = 0; i < n; i++) out[i] = a[i];
    this.put(new Uint8Array(out.buffer));
  }

  put(b: Uint8Array): void {
    this.parts.push(b);
    this.size += b.byteLength;
    const gap = pad8(this.size) - this.size;
    if (gap) {
      this.parts.push(new Uint8Array(gap));
      this.size += gap;
    }
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    return out;
  }
}

/** Reads what Writer wrote; a block too short for what it declares throws (a damaged page, one line of error). */
class Reader {
  at = 0;
  constructor(private readonly b: Uint8Array) {
    if (b.byteOffset % 8 !== 0) this.b = b.slice();      // views of Float64 need an aligned start
  }

  private take(bytes: number): number {
    const at = this.at;
    if (at + bytes > this.b.byteLength) throw new Error('the embedded tree is cut short');
    this.at = at + pad8(bytes);
    return this.b.byteOffset + at;
  }

  words(k: number): Uint32Array {
    return new Uint32Array(this.b.buffer, this.take(4 * k), k);
  }

  int32(n: number): Int32Array {
    return new Int32Array(this.b.buffer, this.take(4 * n), n);
  }

  uint8(n: number): Uint8Array {
    return new Uint8Array(this.b.buffer, this.take(n), n);
  }

  private view(n: number, kind: number): Uint8Array | Uint16Array | Uint32Array | Float64Array | undefined {
    if (!(kind >= Kind.Zero && kind <= Kind.F64)) throw new Error('the embedded tree has an unknown column kind');
    if (kind === Kind.Zero) return undefined;
    const at = this.take(WIDTH[kind] * n);
    const { buffer } = this.b;
    return kind === Kind.U8 ? new Uint8Array(buffer, at, n) : kind === Kind.U16 ? new Uint16Array(buffer, at, n)
      : kind === Kind.U32 ? new Uint32Array(buffer, at, n) : new Float64Array(buffer, at, n);
  }

  /** a column as Float64Array (the views' type): widened by the typed array's own copy, or a view of 8-byte numbers */
  numbers(n: number, kind: number): Float64Array {
    const v = this.view(n, kind);
    return !v ? new Float64Array(n) : v instanceof Float64Array ? v : new Float64Array(v);
  }

  /** a column as Int32Array, `shift` subtracted from each number */
  ints(n: number, kind: number, shift = 0): Int32Array {
    const v = this.view(n, kind);
    const out = v ? new Int32Array(v) : new Int32Array(n);
    if (shift) for (let i = 0; i < n; i++) out[i] -= shift;
    return out;
  }
}

/** The tree's columns (no records): method, parent, entry line and the self values. */
export function encodeFrameColumns(tree: FrameTree): Uint8Array {
  const { n } = tree;
  // parents as the distance back to them: mostly small, so mostly 1 or 2 bytes each
  const back = new Int32Array(n);
  for (let i = 1; i < n; i++) back[i] = i - tree.parent[i];
  const method = new Int32Array(n);
  for (let i = 0; i < n; i++) method[i] = tree.method[i] + 1;
  // a tree without entry lines (not an MCT's) stores that column as all zero, and says it has none
  const columns = [method, back, tree.entryLine ?? new Int32Array(n), ...SENT.map((k) => tree.self[k])];
  const kinds = columns.map((c) => kindOf(c, n));
  const w = new Writer();
  w.header([COLUMNS_MAGIC, n, tree.entryLine ? 1 : 0, ...kinds]);
  columns.forEach((c, j) => w.numbers(c, n, kinds[j]));
  return w.bytes();
}

/** The tree encodeFrameColumns wrote, with depth, ends and totals rebuilt; `recs` empty (see decodeFrameRecords). */
export function decodeFrameColumns(bytes: Uint8Array): Omit<FrameTree, 'recs'> {
  const steps = decodeFrameColumnsInSteps(bytes);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * decodeFrameColumns in steps (each column; parents and depths, then the totals, in slices of about `every` nodes): a
 * page decoding a large tree runs them in tasks of their own, so that it is never frozen for the sum.
 */
export function* decodeFrameColumnsInSteps(bytes: Uint8Array, every = 250_000): Generator<void, Omit<FrameTree, 'recs'>> {
  const r = new Reader(bytes);
  const head = r.words(3 + 3 + SENT.length);
  const [magic, n, hasLines] = head;
  if (magic !== COLUMNS_MAGIC) throw new Error('the embedded tree is not in a format this page reads');
  const kinds = head.subarray(3);
  const method = r.ints(n, kinds[0], 1);
  yield;
  const parent = r.ints(n, kinds[1]);      // the distances back, made parents in the loop below
  yield;
  const lines = r.ints(n, kinds[2]);
  const entryLine = hasLines ? lines : undefined;
  yield;
  const self = { allocations: new Float64Array(n) } as MetricArrays;
  for (let j = 0; j < SENT.length; j++) {
    self[SENT[j]] = r.numbers(n, kinds[3 + j]);
    yield;
  }
  const { allocations, objects, arrays } = self;
  for (let i = 0; i < n; i++) allocations[i] = arrays[i] + objects[i];   // frameTree's order: nArr + nObj
  yield;
  const depth = new Int32Array(n);
  const end = new Int32Array(n);
  let maxDepth = 0;
  for (let lo = 0; lo < n; lo += every) {
    const hi = Math.min(n, lo + every);
    for (let i = lo; i < hi; i++) {
      const p = i === 0 ? -1 : i - parent[i];
      if (i > 0 && !(p >= 0 && p < i)) throw new Error('the embedded tree is damaged (a parent after its child)');
      parent[i] = p;
      const d = i === 0 ? 0 : depth[p] + 1;
      depth[i] = d;
      if (d > maxDepth) maxDepth = d;
      end[i] = i + 1;
    }
    yield;
  }
  const total = {} as MetricArrays;
  for (const k of VIEW_METRICS) total[k] = new Float64Array(n);
  const tree = { n, method, parent, depth, end, self, total, entryLine, maxDepth };
  yield* rollUpInSteps(tree, every);
  return tree;
}

/** The records of every node, field by field (site, type, count, elements, bytes, line, callee). */
export function encodeFrameRecords(tree: FrameTree): Uint8Array {
  const { n } = tree;
  let count = 0;
  for (let i = 0; i < n; i++) count += tree.recs[i]?.length ?? 0;
  // recStart as tree-pack.ts has it: -1 - k marks a node without records (undefined, not an empty list)
  const recStart = new Int32Array(n + 1);
  const recLen = new Uint8Array(count);
  const fields = Array.from({ length: RECORD_STRIDE }, () => new Float64Array(count));
  let k = 0;
  for (let i = 0; i < n; i++) {
    const recs = tree.recs[i];
    recStart[i] = recs ? k : -1 - k;
    if (!recs) continue;
    for (const rec of recs) {
      const len = Math.min(rec.length, RECORD_STRIDE);
      for (let j = 0; j < len; j++) fields[j][k] = rec[j];
      recLen[k++] = len;
    }
  }
  recStart[n] = k;
  const kinds = fields.map((f) => kindOf(f, count));
  const w = new Writer();
  w.header([RECORDS_MAGIC, n, count, ...kinds]);
  w.put(new Uint8Array(recStart.buffer));
  w.put(recLen);
  fields.forEach((f, j) => w.numbers(f, count, kinds[j]));
  return w.bytes();
}

/** The records as tree-pack.ts's PackedRecords: node i's are recStart[i] … (RECORD_STRIDE numbers each). */
export function decodeFrameRecords(bytes: Uint8Array): { recStart: Int32Array; recData: Float64Array; recLen: Uint8Array } {
  const r = new Reader(bytes);
  const head = r.words(3 + RECORD_STRIDE);
  const [magic, n, count] = head;
  if (magic !== RECORDS_MAGIC) throw new Error('the embedded records are not in a format this page reads');
  const kinds = head.subarray(3);
  const recStart = r.int32(n + 1);
  const recLen = r.uint8(count).slice();
  const recData = new Float64Array(count * RECORD_STRIDE);
  for (let j = 0; j < RECORD_STRIDE; j++) {
    const f = r.numbers(count, kinds[j]);
    for (let k = 0, o = j; k < count; k++, o += RECORD_STRIDE) recData[o] = f[k];
  }
  return { recStart, recData, recLen };
}

/** Node i's records from decoded records (undefined when the node had none), as frameTree's `recs[i]`. */
export function recordsAt(r: { recStart: Int32Array; recData: Float64Array; recLen: Uint8Array }, i: number): AllocRecord[] | undefined {
  const s = r.recStart[i];
  if (s < 0) return undefined;
  const e = r.recStart[i + 1] < 0 ? -1 - r.recStart[i + 1] : r.recStart[i + 1];
  const out: AllocRecord[] = new Array(e - s);
  for (let k = s; k < e; k++) {
    const o = k * RECORD_STRIDE;
    const rec = [r.recData[o], r.recData[o + 1], r.recData[o + 2], r.recData[o + 3], r.recData[o + 4]] as AllocRecord;
    for (let j = 5; j < r.recLen[k]; j++) rec.push(r.recData[o + j]);
    out[k - s] = rec;
  }
  return out;
}
