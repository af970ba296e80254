// Pass 2 over the heap segments: every object's type, shallow size, record offset and outgoing references, all
// in typed arrays indexed by the object's rank in DumpIndex.ids. Node `n` (one past the last object) is the
// super-root whose references are the GC roots.
import { ChunkReader } from './reader';
import * as F from './format';
import { ClassDump, DumpIndex, indexOf } from './index-pass';

export interface Layout {
  /** instance fields with their byte offset in the dump's instance data, subclass first (dump order) */
  fields: { name: string; type: number; offset: number; declaring: string }[];
  refOffsets: Int32Array;
  shallow: number;
}

export interface HeapType {
  name: string;
  /** class object id, or 0 for primitive arrays */
  classId: number;
}

export interface RootRecord {
  kind: string;
  /** thread serial / frame depth where the root kind has them */
  thread: number;
  frame: number;
}

export interface HeapGraph {
  index: DumpIndex;
  /** objects (the super-root is number `n`) */
  n: number;
  types: HeapType[];
  typeOf: Int32Array;
  shallow: Float64Array;
  /** file offset of each object's sub-record */
  offset: Float64Array;
  edgeStart: Int32Array;
  edgeCount: Int32Array;
  edges: Int32Array;
  /** object index → the first root record naming it */
  roots: Map<number, RootRecord>;
  /** thread serial → thread object index (from ROOT THREAD OBJECT) and its stack trace serial */
  threads: Map<number, { object: number; trace: number }>;
  layouts: Map<number, Layout>;
  classType: number;
}

export function layoutOf(cls: ClassDump, classes: Map<number, ClassDump>, idSize: number): Layout {
  const fields: Layout['fields'] = [];
  let offset = 0;
  let heapBytes = 0;
  for (let c: ClassDump | undefined = cls; c; c = classes.get(c.superId)) {
    for (const f of c.fields) {
      fields.push({ name: f.name, type: f.type, offset, declaring: c.name });
      offset += F.dumpSize(f.type, idSize);
      heapBytes += F.heapSize(f.type);
    }
  }
  // A java.lang.ref.Reference does not keep its referent alive: following `referent` would show a weak reference
  // (a cache's, or the profiler's own liveness tracking) as the reason an object is alive (as heap analysers do,
  // the paths and the dominators leave that edge out).
  const refs = fields.filter((f) => f.type === F.T_OBJECT && !(f.declaring === 'java.lang.ref.Reference' && f.name === 'referent'))
    .map((f) => f.offset);
  return { fields, refOffsets: Int32Array.from(refs), shallow: F.align8(F.OBJECT_HEADER + heapBytes) };
}

export function buildGraph(r: ChunkReader, index: DumpIndex): HeapGraph {
  const { ids, classes, idSize } = index;
  const n = ids.length;
  const types: HeapType[] = [];
  const typeOfClass = new Map<number, number>();
  const layouts = new Map<number, Layout>();
  for (const c of classes.values()) {
    typeOfClass.set(c.id, types.length);
    types.push({ name: c.name, classId: c.id });
    layouts.set(c.id, layoutOf(c, classes, idSize));
  }
  const primType: Record<number, number> = {};
  for (const code of Object.keys(F.PRIM_NAMES).map(Number)) {
    primType[code] = types.length;
    types.push({ name: `${F.PRIM_NAMES[code]}[]`, classId: 0 });
  }
  let classType = types.findIndex((t) => t.name === 'java.lang.Class');
  if (classType < 0) {
    classType = types.length;
    types.push({ name: 'java.lang.Class', classId: 0 });
  }
  const classShallow = layouts.get(types[classType].classId)?.shallow ?? 96;

  const typeOf = new Int32Array(n).fill(-1);
  const shallow = new Float64Array(n + 1);
  const offset = new Float64Array(n);
  const edgeStart = new Int32Array(n + 1);
  const edgeCount = new Int32Array(n + 1);
  let edges = new Int32Array(Math.max(1024, n * 2));
  let e = 0;
  const add = (id: number) => {
    if (id === 0) return;
    const t = indexOf(ids, id);
    if (t < 0) return;                         // a reference to an object the dump does not hold
    if (e === edges.length) {
      const bigger = new Int32Array(Math.floor(edges.length * 1.5));
      bigger.set(edges);
      edges = bigger;
    }
    edges[e++] = t;
  };
  /** An object's record starts: its index, with its type and shallow size; its edges follow (add). */
  const begin = (id: number, type: number, size: number): number => {
    const i = indexOf(ids, id);
    typeOf[i] = type;
    shallow[i] = size;
    edgeStart[i] = e;
    return i;
  };
  const roots = new Map<number, RootRecord>();
  const rootTargets: number[] = [];
  const threads = new Map<number, { object: number; trace: number }>();

  for (let s = 0; s < index.segments.length; s += 2) {
    r.seek(index.segments[s]);
    const end = index.segments[s + 1];
    while (r.position() < end) {
      const at = r.position();
      const sub = r.u1();
      const root = F.ROOTS[sub];
      if (root) {
        const target = indexOf(ids, r.id());
        if (root.ids) r.skip(idSize * root.ids);
        const a = root.u4s > 0 ? r.u4() : -1;
        const b = root.u4s > 1 ? r.u4() : -1;
        if (target < 0) continue;
        rootTargets.push(target);
        if (!roots.has(target)) roots.set(target, { kind: root.kind, thread: a, frame: b });
        if (sub === 0x08) threads.set(a, { object: target, trace: b });
        continue;
      }
      let self: number;
      switch (sub) {
        case F.SUB_CLASS_DUMP: {
          const id = r.id();
          const c = classes.get(id)!;
          r.seek(at);                            // re-read past it: readClassDump already gave us its contents
          skipClassDump(r, idSize);
          self = begin(id, classType, classShallow + c.staticBytes);
          add(c.superId);
          add(c.loaderId);
          for (const st of c.staticRefs) add(st.id);
          break;
        }
        case F.SUB_INSTANCE: {
          const id = r.id();
          r.u4();
          const classId = r.id();
          const len = r.u4();
          const layout = layouts.get(classId);
          self = begin(id, typeOfClass.get(classId) ?? classType, layout?.shallow ?? F.align8(F.OBJECT_HEADER + len));
          add(classId);
          r.ensure(len);
          if (layout) {
            const refs = layout.refOffsets;
            for (let i = 0; i < refs.length; i++) if (refs[i] + idSize <= len) add(r.idAt(refs[i]));
          }
          r.skip(len);
          break;
        }
        case F.SUB_OBJ_ARRAY: {
          const id = r.id();
          r.u4();
          const count = r.u4();
          const classId = r.id();
          self = begin(id, typeOfClass.get(classId) ?? classType, F.align8(F.ARRAY_HEADER + count * F.REF_BYTES));
          add(classId);
          for (let i = 0; i < count; i++) add(r.id());
          break;
        }
        case F.SUB_PRIM_ARRAY: {
          const id = r.id();
          r.u4();
          const count = r.u4();
          const type = r.u1();
          self = begin(id, primType[type], F.align8(F.ARRAY_HEADER + count * F.heapSize(type)));
          r.skip(count * F.dumpSize(type, idSize));
          break;
        }
        default:
          throw new Error(`unknown heap dump sub-record 0x${sub.toString(16)} at byte ${at}`);
      }
      offset[self] = at;
      edgeCount[self] = e - edgeStart[self];
    }
  }
  edgeStart[n] = e;
  for (const t of rootTargets) {
    if (e === edges.length) {
      const bigger = new Int32Array(edges.length + rootTargets.length);
      bigger.set(edges);
      edges = bigger;
    }
    edges[e++] = t;
  }
  edgeCount[n] = e - edgeStart[n];
  return {
    index, n, types, typeOf, shallow, offset, edgeStart, edgeCount, edges: edges.subarray(0, e), roots, threads,
    layouts, classType,
  };
}

function skipClassDump(r: ChunkReader, idSize: number): void {
  r.u1();
  r.skip(idSize * 7 + 8);
  const cp = r.u2();
  for (let i = 0; i < cp; i++) {
    r.u2();
    r.skip(F.dumpSize(r.u1(), idSize));
  }
  const statics = r.u2();
  for (let i = 0; i < statics; i++) {
    r.skip(idSize);
    r.skip(F.dumpSize(r.u1(), idSize));
  }
  r.skip(r.u2() * (idSize + 1));
}
