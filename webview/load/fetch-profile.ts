// A saved profile's bytes, fetched by the page from the webview URI its host gave, and read by the load worker (or by
// the page itself when it has no worker): un-gzipped by the browser's DecompressionStream when they start with gzip's
// magic (docs/format.md, "Compression"), then decoded as UTF-8. The text never crosses the host's message channel.
// The page fetches, not the worker: VS Code's webview service worker answers only its page's requests (a worker's
// fetch of a webview resource waited 30 s for a 408 in code-server 1.139).

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
let early: { url: string; response: Promise<Response> } | undefined;

/**
 * Starts fetching a saved file's bytes as soon as the page's script runs (webview/main.ts: the panel's HTML names the
 * file, extension/panels/html.ts), before the host's first message asks for it; `fetchBytes` of that URL takes it.
 */
export function prefetch(url: string, fetcher: typeof fetch = fetch): void {
  const response = fetcher(url, { cache: 'no-store' } as RequestInit);
  response.catch(() => undefined);           // reported by fetchBytes, which takes it
  early = { url, response };
}

/**
 * The response of the fetch begun by `prefetch`, when it was of `url`; once only: a later fetch of the same file (it
 * changed) fetches again.
 */
export function takePrefetched(url: string): Promise<Response> | undefined {
  const p = early;
  early = undefined;
  return p?.url === url ? p.response : undefined;
}

/** Fetches `url`'s bytes (or takes the fetch `prefetch` began); a failed fetch is a FetchFailed. */
export async function fetchBytes(url: string, fetcher: typeof fetch = fetch): Promise<Uint8Array> {
  try {
    // no-store: a file the JVM is still writing is fetched again on each change
    const res = await (takePrefetched(url) ?? fetcher(url, { cache: 'no-store' } as RequestInit));
    if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`.trim());
    return new Uint8Array(await res.arrayBuffer());
  } catch (e) {
    throw new FetchFailed(`cannot fetch ${url}: ${(e as Error).message}`);
  }
}
