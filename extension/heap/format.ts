// The subset of the HPROF binary format HeapLens reads (docs/heap.md, "Format").

export const TAG_STRING = 0x01;
export const TAG_LOAD_CLASS = 0x02;
export const TAG_FRAME = 0x04;
export const TAG_TRACE = 0x05;
export const TAG_HEAP_DUMP = 0x0c;
export const TAG_HEAP_DUMP_SEGMENT = 0x1c;

export const SUB_CLASS_DUMP = 0x20;
export const SUB_INSTANCE = 0x21;
export const SUB_OBJ_ARRAY = 0x22;
export const SUB_PRIM_ARRAY = 0x23;

/** GC root sub-records: tag → [kind name, bytes after the object id (in units: ids, u4s)]. */
export const ROOTS: Record<number, { kind: string; ids: number; u4s: number }> = {
  0xff: { kind: 'unknown', ids: 0, u4s: 0 },
  0x01: { kind: 'jni-global', ids: 1, u4s: 0 },
  0x02: { kind: 'jni-local', ids: 0, u4s: 2 },
  0x03: { kind: 'java-frame', ids: 0, u4s: 2 },
  0x04: { kind: 'native-stack', ids: 0, u4s: 1 },
  0x05: { kind: 'sticky-class', ids: 0, u4s: 0 },
  0x06: { kind: 'thread-block', ids: 0, u4s: 1 },
  0x07: { kind: 'monitor-used', ids: 0, u4s: 0 },
  0x08: { kind: 'thread-object', ids: 0, u4s: 2 },
};
export const ROOT_KINDS = ['unknown', 'jni-global', 'jni-local', 'java-frame', 'native-stack', 'sticky-class',
  'thread-block', 'monitor-used', 'thread-object'];

export const T_OBJECT = 2;
/** Basic type code → name of the primitive array type (HPROF's codes 4..11). */
export const PRIM_NAMES: Record<number, string> = {
  4: 'boolean', 5: 'char', 6: 'float', 7: 'double', 8: 'byte', 9: 'short', 10: 'int', 11: 'long',
};
const PRIM_SIZES: Record<number, number> = { 4: 1, 5: 2, 6: 4, 7: 8, 8: 1, 9: 2, 10: 4, 11: 8 };

/** Bytes a value of this type takes in the dump. */
export function dumpSize(type: number, idSize: number): number {
  if (type === T_OBJECT) return idSize;
  const s = PRIM_SIZES[type];
  if (s === undefined) throw new Error(`unknown basic type ${type} in the dump`);
  return s;
}

/**
 * Bytes a value takes in the running JVM: references are 4 bytes (compressed oops, heaps below 32 GB), the
 * rest as in the dump. Shallow sizes are estimates built from this (docs/heap.md, "Sizes").
 */
export function heapSize(type: number): number {
  return type === T_OBJECT ? REF_BYTES : PRIM_SIZES[type];
}
export const REF_BYTES = 4;
export const OBJECT_HEADER = 12;
export const ARRAY_HEADER = 16;
export function align8(n: number): number {
  return (n + 7) & ~7;
}

/** `java/util/HashMap$Node` → `java.util.HashMap$Node`; `[Ljava/lang/Object;` → `java.lang.Object[]`. */
export function javaName(internal: string): string {
  let dims = 0;
  while (internal[dims] === '[') dims++;
  let base = internal.slice(dims);
  if (dims > 0) {
    if (base.startsWith('L') && base.endsWith(';')) base = base.slice(1, -1);
    else base = ({ Z: 'boolean', C: 'char', F: 'float', D: 'double', B: 'byte', S: 'short', I: 'int', J: 'long' } as Record<string, string>)[base] ?? base;
  }
  return base.replace(/\//g, '.') + '[]'.repeat(dims);
}
