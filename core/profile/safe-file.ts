// Reading and writing only regular files, failing fast. `readFileSync('/dev/zero')` never ends, opening a FIFO waits
// for a writer, and Node's `mkdirSync(…, { recursive: true })` loops for ever under /proc (e.g. /proc/nope/x):
// every file HeapLens reads or writes on a user's word goes through here.
import * as fs from 'fs';
import * as path from 'path';

/** Node cannot hold a longer string (V8's limit is just under 512 MiB), so a larger file cannot be read as text. */
export const READ_MAX_BYTES = 512 * 1024 * 1024 - 64;

export class FileProblem extends Error {}

function why(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'ENOENT') return 'no such file';
  if (err.code === 'EISDIR') return 'is a directory';
  if (err.code === 'EACCES' || err.code === 'EPERM') return 'permission denied';
  if (err.code === 'ENOTDIR') return 'a part of the path is not a directory';
  return err.message;
}

function kindOf(st: fs.Stats): string {
  return st.isDirectory() ? 'a directory' : st.isFIFO() ? 'a named pipe (FIFO)' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device'
    : st.isSocket() ? 'a socket' : 'not a regular file';
}

/** The text of a regular file of at most `maxBytes`; anything else is a FileProblem saying "cannot read: …". */
export function readRegularFile(file: string, maxBytes = READ_MAX_BYTES): string {
  return new TextDecoder('utf-8').decode(readRegularFileBytes(file, maxBytes));
}

/** As {@link readRegularFile}, the bytes (a profile may be gzip-compressed). */
export function readRegularFileBytes(file: string, maxBytes = READ_MAX_BYTES): Uint8Array {
  return readRegular(file, maxBytes);
}

/** The first `count` bytes of a regular file (all of a shorter one), with the same checks. */
export function readRegularFileHead(file: string, count: number): Uint8Array {
  return readRegular(file, READ_MAX_BYTES, count);
}

function readRegular(file: string, maxBytes: number, head?: number): Uint8Array {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below by its type
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (e) {
    throw new FileProblem(`cannot read: ${why(e)}`);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new FileProblem(`cannot read: ${kindOf(st)}, not a file`);
    if (st.size > maxBytes) throw new FileProblem(`cannot read: ${st.size.toLocaleString('en-US')} bytes, more than the ${maxBytes.toLocaleString('en-US')} HeapLens reads`);
    if (head === undefined) return fs.readFileSync(fd) as unknown as Uint8Array;
    const buf = new Uint8Array(Math.min(head, st.size));
    let got = 0;
    while (got < buf.length) {
      const r = fs.readSync(fd, buf, got, buf.length - got, got);
      if (r === 0) break;
      got += r;
    }
    return buf.subarray(0, got);
  } catch (e) {
    if (e instanceof FileProblem) throw e;
    throw new FileProblem(`cannot read: ${why(e)}`);
  } finally {
    fs.closeSync(fd);
  }
}

/** Creates the missing folders of `dir` one level at a time (never Node's recursive mkdir: see the top). */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  for (;;) {
    let st: fs.Stats | undefined;
    try { st = fs.statSync(at); } catch (e) { if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new FileProblem(`cannot create ${at}: ${why(e)}`); }
    if (st) {
      if (!st.isDirectory()) throw new FileProblem(`cannot create ${dir}: ${at} is not a directory`);
      break;
    }
    missing.push(at);
    const up = path.dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const d of missing.reverse()) {
    try { fs.mkdirSync(d); } catch (e) { if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new FileProblem(`cannot create ${d}: ${why(e)}`); }
  }
}

/**
 * Checks, before any work, that `file` can be written as a regular file: its folder exists or is created, is
 * writable, and the file is absent or a regular file (a FIFO or a device would block or swallow the output).
 */
export function prepareOutput(file: string): void {
  makeDirs(path.dirname(file));
  let st: fs.Stats | undefined;
  try { st = fs.statSync(file); } catch (e) { if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new FileProblem(`cannot write ${file}: ${why(e)}`); }
  if (st && !st.isFile()) throw new FileProblem(`cannot write ${file}: ${kindOf(st)}, not a file`);
  try {
    fs.accessSync(st ? file : path.dirname(file), fs.constants.W_OK);
  } catch (e) {
    throw new FileProblem(`cannot write ${file}: ${why(e)}`);
  }
}
