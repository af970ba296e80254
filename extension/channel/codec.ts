// Frame codec of the live channel (docs/protocol.md): a 4-byte big-endian length, then that many bytes of
// UTF-8 JSON holding one object with a string `type`. No `vscode` import: the CLI and the tests share it.

/** Largest frame payload accepted or sent, in bytes (16 MiB). */
export const MAX_FRAME = 16 * 1024 * 1024;

/** A violation of the wire format; the connection must be closed. */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** Node's Buffer or any Uint8Array (their declared types differ between @types/node and lib versions). */
export type Bytes = Uint8Array | Buffer;

export interface Frame {
  type: string;
  [key: string]: unknown;
}

/** Encodes one message as a frame. */
export function encodeFrame(message: Frame): Uint8Array {
  if (typeof message !== 'object' || message === null || typeof message.type !== 'string') {
    throw new ProtocolError('a frame must be an object with a string "type"');
  }
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  if (body.length > MAX_FRAME) throw new ProtocolError(`frame of ${body.length} bytes exceeds the ${MAX_FRAME}-byte limit`);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length, 0);
  const out = new Uint8Array(4 + body.length);
  out.set(head, 0);
  out.set(body, 4);
  return out;
}

function concat(chunks: Buffer[], length: number): Buffer {
  return Buffer.concat(chunks as unknown as Uint8Array[], length);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses one frame payload: strict UTF-8, JSON, an object with a non-empty string `type`. */
export function decodePayload(payload: Bytes): Frame {
  let text: string;
  try {
    text = utf8.decode(payload as Uint8Array);
  } catch {
    throw new ProtocolError('frame payload is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ProtocolError(`frame payload is not JSON: ${(e as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProtocolError('frame payload is not a JSON object');
  }
  const type = (value as Record<string, unknown>).type;
  if (typeof type !== 'string' || type === '') throw new ProtocolError('frame has no string "type"');
  return value as Frame;
}

/**
 * Incremental decoder: feed it the bytes as they arrive, get the complete frames. After it has thrown once
 * it stays failed (the stream position is lost): every later push throws the same error.
 */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private failure: ProtocolError | undefined;

  constructor(private readonly maxFrame: number = MAX_FRAME) {}

  /** Bytes received and not yet returned as frames. */
  get pending(): number {
    return this.buffered;
  }

  push(data: Bytes): Frame[] {
    if (this.failure) throw this.failure;
    try {
      return this.drain(data);
    } catch (e) {
      this.failure = e instanceof ProtocolError ? e : new ProtocolError(String(e));
      this.chunks = [];
      this.buffered = 0;
      throw this.failure;
    }
  }

  private drain(data: Bytes): Frame[] {
    if (data.length > 0) {
      this.chunks.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      this.buffered += data.length;
    }
    const frames: Frame[] = [];
    while (this.buffered >= 4) {
      if (this.chunks[0].length < 4) this.chunks = [concat(this.chunks, this.buffered)];
      const length = this.chunks[0].readUInt32BE(0);
      if (length > this.maxFrame) {
        throw new ProtocolError(`frame length ${length} exceeds the ${this.maxFrame}-byte limit`);
      }
      if (this.buffered < 4 + length) break; // wait for the rest without copying
      const all = this.chunks.length === 1 ? this.chunks[0] : concat(this.chunks, this.buffered);
      const payload = all.subarray(4, 4 + length);
      const rest = all.subarray(4 + length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
      frames.push(decodePayload(payload));
    }
    return frames;
  }
}
