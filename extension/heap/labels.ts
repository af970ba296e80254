// Names the references on a path by re-reading the holder's record from the dump (offsets kept in pass 2), so
// no field names or indices are stored per edge.
import { ChunkReader } from './reader';
import * as F from './format';
import { HeapGraph } from './graph-pass';

/** `Type.field`, `Type[index]`, `Type.<class>`… : how `from` refers to `to`. */
export function edgeLabel(r: ChunkReader, g: HeapGraph, from: number, to: number): string {
  const { idSize, classes } = g.index;
  const target = g.index.ids[to];
  r.seek(g.offset[from]);
  const sub = r.u1();
  if (sub === F.SUB_CLASS_DUMP) {
    const cls = classes.get(r.id())!;
    const st = cls.staticRefs.find((s) => s.id === target);
    if (st) return `${cls.name}.${st.name}`;
    if (cls.superId === target) return `${cls.name}.<super>`;
    if (cls.loaderId === target) return `${cls.name}.<classloader>`;
    return `${cls.name}.<static>`;
  }
  if (sub === F.SUB_INSTANCE) {
    r.id();
    r.u4();
    const classId = r.id();
    const len = r.u4();
    const layout = g.layouts.get(classId);
    const typeName = g.types[g.typeOf[from]].name;
    r.ensure(len);
    for (const f of layout?.fields ?? []) {
      if (f.type === F.T_OBJECT && f.offset + idSize <= len && r.idAt(f.offset) === target) {
        return `${typeName}.${f.name}`;
      }
    }
    return classId === target ? `${typeName}.<class>` : `${typeName}.?`;
  }
  if (sub === F.SUB_OBJ_ARRAY) {
    r.id();
    r.u4();
    const count = r.u4();
    const classId = r.id();
    const element = g.types[g.typeOf[from]].name.replace(/\[\]$/, '');
    for (let i = 0; i < count; i++) if (r.id() === target) return `${element}[${i}]`;
    return classId === target ? `${element}[].<class>` : `${element}[?]`;
  }
  return `${g.types[g.typeOf[from]].name}.?`;
}

/** `kind:description` of a GC root: the class, the thread, or the frame holding it. */
export function rootLabel(r: ChunkReader, g: HeapGraph, obj: number): string {
  const root = g.roots.get(obj);
  if (!root) return `root:${g.types[g.typeOf[obj]].name}`;
  switch (root.kind) {
    case 'sticky-class': {
      const cls = g.index.classes.get(g.index.ids[obj]);
      return `${root.kind}:${cls?.name ?? g.types[g.typeOf[obj]].name}`;
    }
    case 'thread-object':
      return `${root.kind}:${threadName(r, g, obj) ?? `thread ${root.thread}`}`;
    case 'java-frame':
    case 'jni-local': {
      const t = g.threads.get(root.thread);
      const name = t ? threadName(r, g, t.object) : undefined;
      const frame = t ? g.index.traces.get(t.trace)?.[root.frame] : undefined;
      const where = frame ? ` at ${frame.className}.${frame.method}${frame.line > 0 ? `:${frame.line}` : ''}` : '';
      return `${root.kind}:${name ?? `thread ${root.thread}`}${where}`;
    }
    default:
      return `${root.kind}:${g.types[g.typeOf[obj]].name}@0x${g.index.ids[obj].toString(16)}`;
  }
}

/** The name of a java.lang.Thread object (its `name` String), when the dump holds it. */
export function threadName(r: ChunkReader, g: HeapGraph, thread: number): string | undefined {
  const name = refField(r, g, thread, 'name');
  return name < 0 ? undefined : javaString(r, g, name);
}

function refField(r: ChunkReader, g: HeapGraph, obj: number, field: string): number {
  r.seek(g.offset[obj]);
  if (r.u1() !== F.SUB_INSTANCE) return -1;
  r.id();
  r.u4();
  const layout = g.layouts.get(r.id());
  const len = r.u4();
  const f = layout?.fields.find((x) => x.name === field && x.type === F.T_OBJECT);
  if (!f || f.offset + g.index.idSize > len) return -1;
  r.ensure(len);
  const id = r.idAt(f.offset);
  const ids = g.index.ids;
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid] < id) lo = mid + 1;
    else if (ids[mid] > id) hi = mid - 1;
    else return mid;
  }
  return -1;
}

function primField(r: ChunkReader, g: HeapGraph, obj: number, field: string): number | undefined {
  r.seek(g.offset[obj]);
  if (r.u1() !== F.SUB_INSTANCE) return undefined;
  r.id();
  r.u4();
  const layout = g.layouts.get(r.id());
  const len = r.u4();
  const f = layout?.fields.find((x) => x.name === field && x.type === 8);
  if (!f || f.offset + 1 > len) return undefined;
  r.ensure(len);
  r.skip(f.offset);
  return r.u1();
}

/** Decodes a java.lang.String (compact strings: `value` byte[] + `coder`, or a char[] before JDK 9). */
export function javaString(r: ChunkReader, g: HeapGraph, str: number): string | undefined {
  const coder = primField(r, g, str, 'coder') ?? 0;
  const value = refField(r, g, str, 'value');
  if (value < 0) return undefined;
  r.seek(g.offset[value]);
  if (r.u1() !== F.SUB_PRIM_ARRAY) return undefined;
  r.id();
  r.u4();
  const count = r.u4();
  const type = r.u1();
  const bytes = r.bytes(Math.min(count * F.dumpSize(type, g.index.idSize), 4096));
  if (type === 5 || coder === 1) {
    let s = '';
    for (let i = 0; i + 1 < bytes.length; i += 2) s += String.fromCharCode(type === 5 ? bytes.readUInt16BE(i) : bytes.readUInt16LE(i));
    return s;
  }
  return bytes.toString('latin1');
}
