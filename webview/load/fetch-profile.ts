// A saved profile's bytes, fetched by the page from the webview URI its host gave, and read by the load worker (or by
// the page itself when it has no worker): un-gzipped by the browser's DecompressionStream when they start with gzip's
// magic (docs/format.md, "Compression"), then decoded as UTF-8. The text never crosses the host's message channel.
// The page fetches, not the worker: VS Code's webview service worker answers only its page's requests (a worker's
// fetch of a webview resource waited 30 s for a 408 in code-server 1.139).

import { readHead } from '../../core/profile/meta-read';
import { Meta } from '../../core/profile/types';

/** The fetch itself failed (no such resource, a URI the webview cannot reach): the host sends the file instead. */
export class FetchFailed extends Error {}

/** The bytes as text, and the (inflated) bytes themselves. */
export interface FetchedProfile {
  text: string;
  bytes: Uint8Array;
}

/** Whether the bytes start as a gzip stream does (RFC 1952). */
export function isGzip(b: Uint8Array): boolean {
  return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
}

/** The browser's (and Node's) DecompressionStream, typed here: the shared compiler settings have no DOM library. */
function decompressor(): new (format: 'gzip') => object {
  return (globalThis as unknown as { DecompressionStream: new (format: 'gzip') => object }).DecompressionStream;
}

/** Inflates a gzip stream; a damaged or cut one is an error saying so. */
export async function gunzip(b: Uint8Array): Promise<Uint8Array> {
  try {
    const bytes = new Blob([b as Uint8Array<ArrayBuffer>]).stream() as unknown as { pipeThrough(t: object): unknown };
    const inflated = bytes.pipeThrough(new (decompressor())('gzip'));
    return new Uint8Array(await new Response(inflated as ConstructorParameters<typeof Response>[0]).arrayBuffer());
  } catch (e) {
    throw new Error(`the compressed profile is damaged: ${(e as Error).message}`);
  }
}

/** The profile's text from its file's bytes (gzipped or not); `inflated` is called once gzipped bytes are inflated. */
export async function profileBytesText(raw: Uint8Array, inflated?: () => void): Promise<FetchedProfile> {
  const bytes = isGzip(raw) ? await gunzip(raw) : raw;
  if (bytes !== raw) inflated?.();
  return { text: new TextDecoder('utf-8').decode(bytes), bytes };
}

/** The fetch the page's script began as it started (prefetch), until the load takes it. */
let early: { url: string; body: ArrivingBody } | undefined;

/**
 * Starts fetching a saved file's bytes as soon as the page's script runs (webview/main.ts: the panel's HTML names the
 * file, extension/panels/html.ts), before the host's first message asks for it, and reads them as they arrive (a
 * response body nobody reads stops arriving once the browser's buffer is full); `fetchBytes` and `fetchBytesWithHead`
 * of that URL take it.
 */
export function prefetch(url: string, fetcher: typeof fetch = fetch): void {
  early = { url, body: new ArrivingBody(fetcher(url, { cache: 'no-store' } as RequestInit), url) };
}

/**
 * The body of the fetch begun by `prefetch`, when it was of `url`; once only: a later fetch of the same file (it
 * changed) fetches again.
 */
export function takePrefetched(url: string): ArrivingBody | undefined {
  const p = early;
  early = undefined;
  return p?.url === url ? p.body : undefined;
}

/** The head of a profile as it arrives: its meta and its first section (undefined: none). */
export interface ProfileHead {
  meta: Meta;
  first?: unknown;
}

/** The parts of the streams API used here (the shared compiler settings have no DOM library). */
interface ChunkWriter {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}
interface ChunkReader {
  read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }>;
  cancel(): Promise<void>;
}

/** Past this much text without its end, the head is not looked for any more (the whole file is read anyway). */
const HEAD_LIMIT = 32 << 20;

/**
 * Reads a profile's head (meta and first section, core/profile/meta-read.ts readHead) from its bytes as they arrive:
 * gzipped bytes inflated by a DecompressionStream fed chunk by chunk, the text decoded as it comes. `found` is called
 * once, when the section is read or known to be absent (not for a damaged head: the whole file's read says what is wrong).
 */
export class HeadScanner {
  private text = '';
  private done = false;
  /** the JSON's nesting as far as the text is read (strings skipped), so that readHead runs only at the top level */
  private depth = 0;
  private inString = false;
  private escaped = false;
  private decoder = new TextDecoder('utf-8');
  /** the first bytes until there are two (gzip or not), then undefined */
  private start?: Uint8Array = new Uint8Array(0);
  private inflate?: { writer: ChunkWriter; reading: Promise<void> };

  constructor(private readonly found: (head: ProfileHead) => void) {}

  push(chunk: Uint8Array): void {
    if (this.done) return;
    if (this.start !== undefined) {
      // the first two bytes say whether it is gzip (a chunk may hold one)
      const joined = new Uint8Array(this.start.length + chunk.length);
      joined.set(this.start);
      joined.set(chunk, this.start.length);
      if (joined.length < 2) {
        this.start = joined;
        return;
      }
      this.start = undefined;
      if (isGzip(joined)) this.startInflate();
      chunk = joined;
    }
    if (this.inflate) void this.inflate.writer.write(chunk).catch(() => this.stop());
    else this.add(this.decoder.decode(chunk, { stream: true }));
  }

  /** The bytes ended (a head not found by then is absent). */
  end(): Promise<void> {
    if (this.inflate && !this.done) {
      void this.inflate.writer.close().catch(() => undefined);
      return this.inflate.reading;
    }
    if (!this.done) this.scan(true);
    return Promise.resolve();
  }

  private startInflate(): void {
    const ds = new (decompressor())('gzip') as unknown as { readable: { getReader(): ChunkReader }; writable: { getWriter(): ChunkWriter } };
    const writer = ds.writable.getWriter();
    const reader = ds.readable.getReader();
    const reading = (async () => {
      try {
        for (;;) {
          const r = await reader.read();
          if (r.done || this.done) break;
          this.add(this.decoder.decode(r.value, { stream: true }));
        }
        if (!this.done) this.scan(true);
      } catch {
        this.stop();
      }
      void reader.cancel().catch(() => undefined);
    })();
    this.inflate = { writer, reading };
  }

  private add(text: string): void {
    this.text += text;
    // readHead reads the head from the start: run it only when this text reaches the top object's level (a key, a
    // value's end), not for each chunk inside the section (which made it quadratic in the section's size)
    if (this.topLevel(text)) this.scan(false);
  }

  /** Reads `text` on from the last state: whether some of it is at the top object's own level (depth 1). */
  private topLevel(text: string): boolean {
    let top = false;
    let { depth, inString, escaped } = this;
    for (let k = 0; k < text.length; k++) {
      const c = text.charCodeAt(k);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
        continue;
      }
      if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) depth--;
      else if (c <= 0x20) continue;
      if (depth <= 1) top = true;
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return top;
  }

  /** how many times the head was looked for (a test's figure: a few, whatever the chunks) */
  scans = 0;

  private scan(whole: boolean): void {
    if (this.done) return;
    this.scans++;
    let r: ReturnType<typeof readHead>;
    try {
      r = readHead(this.text, whole, true);
    } catch {
      this.stop();                    // not a profile: the whole file's read reports it
      return;
    }
    if ('more' in r) {
      if (whole || this.text.length > HEAD_LIMIT) this.stop();
      return;
    }
    this.stop();
    this.found(r);
  }

  private stop(): void {
    this.done = true;
    this.text = '';
    if (this.inflate) void this.inflate.writer.abort().catch(() => undefined);
  }
}

/** A response read from the moment it is asked for: its bytes kept for the load worker, its head looked for on the way. */
export class ArrivingBody {
  /** the file's bytes, whole; a failed fetch is a FetchFailed */
  readonly bytes: Promise<Uint8Array>;
  private head?: ProfileHead;
  private onHead?: (h: ProfileHead) => void;

  constructor(response: Promise<Response>, url: string) {
    const scanner = new HeadScanner((h) => {
      this.head = h;
      this.onHead?.(h);
    });
    this.bytes = readBody(response, url, scanner);
    this.bytes.catch(() => undefined);        // reported to the one that takes it
  }

  /** `f` gets the head when it is read: now when it already is (found before the load took the fetch). */
  whenHead(f: (h: ProfileHead) => void): void {
    if (this.head) f(this.head);
    else this.onHead = f;
  }
}

async function readBody(response: Promise<Response>, url: string, scanner: HeadScanner): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await response;
    if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`.trim());
  } catch (e) {
    throw new FetchFailed(`cannot fetch ${url}: ${(e as Error).message}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    if (!res.body) {
      const all = new Uint8Array(await res.arrayBuffer());
      scanner.push(all);
      await scanner.end();
      return all;
    }
    const reader = (res.body as unknown as { getReader(): ChunkReader }).getReader();
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      chunks.push(r.value);
      size += r.value.length;
      scanner.push(r.value);
    }
  } catch (e) {
    throw new FetchFailed(`cannot fetch ${url}: ${(e as Error).message}`);
  }
  // the head of a gzipped file may still be inflating (a few KB: it stops at the head)
  await scanner.end();
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * Fetches `url`'s bytes as fetchBytes does (or takes the fetch `prefetch` began), reading the response as it arrives:
 * `head` gets the profile's meta and first section as soon as they are in, long before the last byte on a large file.
 */
export function fetchBytesWithHead(url: string, head: (h: ProfileHead) => void, fetcher: typeof fetch = fetch): Promise<Uint8Array> {
  const body = takePrefetched(url) ?? new ArrivingBody(fetcher(url, { cache: 'no-store' } as RequestInit), url);
  body.whenHead(head);
  return body.bytes;
}

/** Fetches `url`'s bytes (or takes the fetch `prefetch` began); a failed fetch is a FetchFailed. */
export async function fetchBytes(url: string, fetcher: typeof fetch = fetch): Promise<Uint8Array> {
  const early = takePrefetched(url);
  if (early) return early.bytes;
  try {
    // no-store: a file the JVM is still writing is fetched again on each change
    const res = await fetcher(url, { cache: 'no-store' } as RequestInit);
    if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`.trim());
    return new Uint8Array(await res.arrayBuffer());
  } catch (e) {
    throw new FetchFailed(`cannot fetch ${url}: ${(e as Error).message}`);
  }
}
