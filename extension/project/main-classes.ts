// The classes with a `public static void main(String[])` in compiled class folders, read from the class files'
// constant pool and method table (no JVM needed), for the main-class picker. No `vscode` import.
import * as fs from 'fs';
import { forEachFile } from './classpath-cache';

const ACC_PUBLIC = 0x0001, ACC_STATIC = 0x0008;

/** The binary class name (dots, `$` for nested) when the class file declares a public static main(String[]). */
export function mainClassOf(bytes: Buffer): string | undefined {
  if (bytes.length < 10 || bytes.readUInt32BE(0) !== 0xcafebabe) return undefined;
  let p = 8;
  const count = bytes.readUInt16BE(p); p += 2;
  const utf8: (string | undefined)[] = new Array(count);
  const classIdx: number[] = new Array(count);
  for (let i = 1; i < count; i++) {
    const tag = bytes[p++];
    switch (tag) {
      case 1: { const len = bytes.readUInt16BE(p); utf8[i] = bytes.toString('utf8', p + 2, p + 2 + len); p += 2 + len; break; }
      case 7: classIdx[i] = bytes.readUInt16BE(p); p += 2; break;
      case 8: case 16: case 19: case 20: p += 2; break;
      case 15: p += 3; break;
      case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18: p += 4; break;
      case 5: case 6: p += 8; i++; break;
      default: return undefined;
    }
  }
  p += 2; // access flags
  const thisClass = utf8[classIdx[bytes.readUInt16BE(p)]];
  p += 4; // this, super
  const interfaces = bytes.readUInt16BE(p); p += 2 + 2 * interfaces;
  const skipMembers = (read: (flags: number, name?: string, desc?: string) => void): void => {
    const n = bytes.readUInt16BE(p); p += 2;
    for (let i = 0; i < n; i++) {
      const flags = bytes.readUInt16BE(p);
      const name = utf8[bytes.readUInt16BE(p + 2)];
      const desc = utf8[bytes.readUInt16BE(p + 4)];
      const attrs = bytes.readUInt16BE(p + 6); p += 8;
      for (let a = 0; a < attrs; a++) p += 6 + bytes.readUInt32BE(p + 2);
      read(flags, name, desc);
    }
  };
  skipMembers(() => undefined);
  let found = false;
  skipMembers((flags, name, desc) => {
    if (name === 'main' && desc === '([Ljava/lang/String;)V' && (flags & ACC_PUBLIC) && (flags & ACC_STATIC)) found = true;
  });
  return found && thisClass ? thisClass.replace(/\//g, '.') : undefined;
}

/** Every main class under the class folders, sorted by name. */
export function findMainClasses(dirs: readonly string[]): string[] {
  const found = new Set<string>();
  for (const d of dirs) {
    forEachFile(d, (p, name) => {
      if (!name.endsWith('.class') || name === 'module-info.class' || name === 'package-info.class') return;
      try {
        const m = mainClassOf(fs.readFileSync(p));
        if (m) found.add(m);
      } catch {
        // a truncated class file is not a main class
      }
    });
  }
  return [...found].sort();
}
