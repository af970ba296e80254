// A chunked, forward-reading view of a file: the dump is never in memory at once, only one buffer of it.
import * as fs from 'fs';

const CHUNK = 8 << 20;

export class ChunkReader {
  private buf: Buffer;
  private bufStart = 0;   // file offset of buf[0]
  private pos = 0;        // read position inside buf
  private len = 0;        // valid bytes in buf
  readonly size: number;
  /** bytes per object id (4 or 8), set once the header is read */
  idSize = 8;
  /** called after each read from the file with the file offset read up to (progress of a pass) */
  onRead?: (offset: number) => void;

  constructor(private readonly fd: number, chunk = CHUNK) {
    this.buf = Buffer.allocUnsafe(chunk);
    this.size = fs.fstatSync(fd).size;
  }

  position(): number {
    return this.bufStart + this.pos;
  }

  atEnd(): boolean {
    return this.position() >= this.size;
  }

  seek(offset: number): void {
    if (offset >= this.bufStart && offset <= this.bufStart + this.len) {
      this.pos = offset - this.bufStart;
      return;
    }
    this.bufStart = offset;
    this.pos = 0;
    this.len = 0;
  }

  /** Makes at least n bytes readable at pos; throws at the end of the file (a truncated dump). */
  ensure(n: number): void {
    if (this.len - this.pos >= n) return;
    if (n > this.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(n, this.buf.length * 2));
      bigger.set(this.buf.subarray(this.pos, this.len) as unknown as Uint8Array);
      this.buf = bigger;
    } else {
      this.buf.copyWithin(0, this.pos, this.len);
    }
    this.bufStart += this.pos;
    this.len -= this.pos;
    this.pos = 0;
    while (this.len < n) {
      const got = fs.readSync(this.fd, this.buf as unknown as Uint8Array, this.len, this.buf.length - this.len, this.bufStart + this.len);
      if (got === 0) throw new Error(`the file ends early (truncated dump?) at byte ${this.bufStart + this.len}`);
      this.len += got;
    }
    this.onRead?.(this.bufStart + this.len);
  }

  u1(): number {
    this.ensure(1);
    return this.buf[this.pos++];
  }

  u2(): number {
    this.ensure(2);
    const v = this.buf.readUInt16BE(this.pos);
    this.pos += 2;
    return v;
  }

  u4(): number {
    this.ensure(4);
    const v = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  /** An object id as a number: heap addresses stay below 2^53, so doubles hold them exactly. */
  id(): number {
    if (this.idSize === 4) return this.u4();
    this.ensure(8);
    const v = this.buf.readUInt32BE(this.pos) * 4294967296 + this.buf.readUInt32BE(this.pos + 4);
    this.pos += 8;
    return v;
  }

  /** Reads an id at a byte offset of the readable window without moving (after ensure). */
  idAt(delta: number): number {
    const p = this.pos + delta;
    if (this.idSize === 4) return this.buf.readUInt32BE(p);
    return this.buf.readUInt32BE(p) * 4294967296 + this.buf.readUInt32BE(p + 4);
  }

  bytes(n: number): Buffer {
    this.ensure(n);
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  skip(n: number): void {
    if (this.len - this.pos >= n) this.pos += n;
    else this.seek(this.position() + n);
  }
}
