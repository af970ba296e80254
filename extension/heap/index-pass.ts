// Pass 1 over the dump: strings, class names and layouts, stack frames, where the heap segments are, and the id
// of every object (kept in one sorted Float64Array: an object's index is its id's rank).
import { ChunkReader } from './reader';
import * as F from './format';

export interface FieldDecl {
  name: string;
  type: number;
}

export interface ClassDump {
  id: number;
  name: string;
  superId: number;
  loaderId: number;
  /** this class's own instance fields, in dump order */
  fields: FieldDecl[];
  /** static fields holding references: name and the referenced id */
  staticRefs: { name: string; id: number }[];
  /** bytes of static fields (estimate of the mirror's extra size) */
  staticBytes: number;
  /** file offset of the CLASS DUMP sub-record */
  offset: number;
}

export interface StackFrame {
  method: string;
  className: string;
  line: number;
}

export interface DumpIndex {
  idSize: number;
  timestamp: number;
  /** sorted ids of every object (instances, arrays, class objects) */
  ids: Float64Array;
  classes: Map<number, ClassDump>;
  /** HEAP DUMP (SEGMENT) bodies: [start, end) file offsets */
  segments: number[];
  /** stack trace serial → frames, innermost first */
  traces: Map<number, StackFrame[]>;
  fileSize: number;
}

export function readHeader(r: ChunkReader): { idSize: number; timestamp: number } {
  const prefix = 'JAVA PROFILE 1.0.';
  let magic = '';
  for (let c = r.atEnd() ? 0 : r.u1(); c !== 0; c = r.atEnd() ? 0 : r.u1()) {
    magic += String.fromCharCode(c);
    if (magic.length > 32 || !(prefix.startsWith(magic) || magic.startsWith(prefix))) break;
  }
  if (!magic.startsWith(prefix) || magic.length > 32) throw new Error(`not an HPROF heap dump (it starts with "${magic.slice(0, 20)}")`);
  const idSize = r.u4();
  if (idSize !== 4 && idSize !== 8) throw new Error(`unsupported identifier size ${idSize}`);
  r.idSize = idSize;
  const timestamp = r.u4() * 4294967296 + r.u4();
  return { idSize, timestamp };
}

export function indexDump(r: ChunkReader): DumpIndex {
  const { idSize, timestamp } = readHeader(r);
  const strings = new Map<number, string>();
  const classNames = new Map<number, number>();        // class object id → name string id
  const classSerials = new Map<number, number>();      // class serial → class object id
  const frames = new Map<number, { name: number; classSerial: number; line: number }>();
  const rawTraces = new Map<number, number[]>();
  const dumps: ClassDump[] = [];
  const segments: number[] = [];
  let ids = new Float64Array(1 << 16);
  let n = 0;
  const push = (id: number) => {
    if (n === ids.length) {
      const bigger = new Float64Array(ids.length * 2);
      bigger.set(ids);
      ids = bigger;
    }
    ids[n++] = id;
  };
  while (!r.atEnd()) {
    const tag = r.u1();
    r.u4();                                   // time offset
    const len = r.u4();
    const start = r.position();
    switch (tag) {
      case F.TAG_STRING: {
        const id = r.id();
        strings.set(id, r.bytes(len - idSize).toString('utf8'));
        break;
      }
      case F.TAG_LOAD_CLASS: {
        const serial = r.u4();
        const id = r.id();
        r.u4();
        classNames.set(id, r.id());
        classSerials.set(serial, id);
        break;
      }
      case F.TAG_FRAME: {
        const id = r.id();
        const name = r.id();
        r.id(); r.id();                         // signature, source file
        const classSerial = r.u4();
        const line = r.u4() | 0;
        frames.set(id, { name, classSerial, line });
        break;
      }
      case F.TAG_TRACE: {
        const serial = r.u4();
        r.u4();
        const count = r.u4();
        const list: number[] = [];
        for (let i = 0; i < count; i++) list.push(r.id());
        rawTraces.set(serial, list);
        break;
      }
      case F.TAG_HEAP_DUMP:
      case F.TAG_HEAP_DUMP_SEGMENT:
        segments.push(start, start + len);
        indexSegment(r, start + len, idSize, push, dumps);
        break;
      default:
        break;
    }
    r.seek(start + len);
  }
  const classes = new Map<number, ClassDump>();
  const name = (sid: number) => strings.get(sid) ?? `?${sid}`;
  for (const d of dumps) {
    const nameId = classNames.get(d.id);
    d.name = nameId === undefined ? `class@0x${d.id.toString(16)}` : F.javaName(name(nameId));
    for (const f of d.fields) f.name = name(Number(f.name));
    for (const s of d.staticRefs) s.name = name(Number(s.name));
    classes.set(d.id, d);
  }
  const traces = new Map<number, StackFrame[]>();
  for (const [serial, list] of rawTraces) {
    traces.set(serial, list.map((fid) => {
      const f = frames.get(fid);
      if (!f) return { method: '?', className: '?', line: 0 };
      const cls = classes.get(classSerials.get(f.classSerial) ?? -1);
      return { method: name(f.name), className: cls?.name ?? '?', line: f.line };
    }));
  }
  const sorted = ids.slice(0, n).sort();
  return { idSize, timestamp, ids: sorted, classes, segments, traces, fileSize: r.size };
}

function indexSegment(r: ChunkReader, end: number, idSize: number, push: (id: number) => void, dumps: ClassDump[]): void {
  while (r.position() < end) {
    const at = r.position();
    const sub = r.u1();
    const root = F.ROOTS[sub];
    if (root) {
      r.skip(idSize * (1 + root.ids) + 4 * root.u4s);
      continue;
    }
    switch (sub) {
      case F.SUB_CLASS_DUMP:
        dumps.push(readClassDump(r, at, idSize));
        push(dumps[dumps.length - 1].id);
        break;
      case F.SUB_INSTANCE: {
        push(r.id());
        r.skip(4 + idSize);
        r.skip(r.u4());
        break;
      }
      case F.SUB_OBJ_ARRAY: {
        push(r.id());
        r.skip(4);
        const count = r.u4();
        r.skip(idSize + count * idSize);
        break;
      }
      case F.SUB_PRIM_ARRAY: {
        push(r.id());
        r.skip(4);
        const count = r.u4();
        const type = r.u1();
        r.skip(count * F.dumpSize(type, idSize));
        break;
      }
      default:
        throw new Error(`unknown heap dump sub-record 0x${sub.toString(16)} at byte ${at}`);
    }
  }
}

/** Reads a CLASS DUMP after its tag; field and static names stay string ids (as strings) until pass 1 ends. */
export function readClassDump(r: ChunkReader, offset: number, idSize: number): ClassDump {
  const id = r.id();
  r.u4();
  const superId = r.id();
  const loaderId = r.id();
  r.skip(4 * idSize);                          // signers, protection domain, 2 reserved
  r.u4();                                      // instance size (in dump bytes)
  const cp = r.u2();
  for (let i = 0; i < cp; i++) {
    r.u2();
    r.skip(F.dumpSize(r.u1(), idSize));
  }
  const staticRefs: { name: string; id: number }[] = [];
  let staticBytes = 0;
  const statics = r.u2();
  for (let i = 0; i < statics; i++) {
    const nameId = r.id();
    const type = r.u1();
    staticBytes += F.heapSize(type);
    if (type === F.T_OBJECT) {
      const ref = r.id();
      if (ref !== 0) staticRefs.push({ name: String(nameId), id: ref });
    } else {
      r.skip(F.dumpSize(type, idSize));
    }
  }
  const fields: FieldDecl[] = [];
  const count = r.u2();
  for (let i = 0; i < count; i++) {
    const nameId = r.id();
    fields.push({ name: String(nameId), type: r.u1() });
  }
  return { id, name: '', superId, loaderId, fields, staticRefs, staticBytes, offset };
}

/** Index of an object id in the sorted ids, or -1. */
export function indexOf(ids: Float64Array, id: number): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid];
    if (v < id) lo = mid + 1;
    else if (v > id) hi = mid - 1;
    else return mid;
  }
  return -1;
}
