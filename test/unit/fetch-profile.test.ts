// The page's side of a saved profile fetched from its file (webview/load/fetch-profile.ts): the bytes, plain or
// gzipped, decode to the text, and the fast reader's tree of that text equals the JSON.parse path's, array for array.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ProfileFile } from '../../core/profile/types';
import { expandVersion2 } from '../../core/profile/version2';
import { ProfileData } from '../../webview/data';
import { FetchFailed, fetchBytes, isGzip, prefetch, profileBytesText, takePrefetched } from '../../webview/load/fetch-profile';
import { parseFlat } from '../../webview/load/flat-parse';
import { flatTree } from '../../webview/load/flat-tree';
import { PackedTree, packTree } from '../../webview/load/tree-pack';
import { assertSamePackedTree } from './helpers';

const ROOT_DIR = join(__dirname, '..', '..', '..');
const TEXT = readFileSync(join(ROOT_DIR, 'test', 'unit', 'data', 'wordindex.heaplens'), 'utf8');
const URL_OF = 'https://file+.vscode-resource.vscode-cdn.net/ws/wordindex.heaplens';

/** A fetch that answers with `body` (or `status`), and records what it was asked. */
function fetcher(body: Uint8Array, status = 200): { f: typeof fetch; asked: Array<[string, RequestInit | undefined]> } {
  const asked: Array<[string, RequestInit | undefined]> = [];
  const f = (async (url: string, init?: RequestInit) => {
    asked.push([url, init]);
    return new Response(status === 200 ? new Uint8Array(body) : null, { status });
  }) as unknown as typeof fetch;
  return { f, asked };
}

/** The text path's first tree (the page's JSON.parse of the text the host posted), packed as the worker sends it. */
function textPathTree(text: string): PackedTree {
  const file = JSON.parse(text) as ProfileFile;
  expandVersion2(file);
  const d = new ProfileData(file, 't');
  return packTree(d.tree({ thread: -1, myCode: false, collapseRecursion: false, inverted: false }));
}

test('fetched profile: a plain and a gzipped file decode to the text, and to the text path\'s tree array for array', async () => {
  const expected = textPathTree(TEXT);
  assert.ok(expected.n > 10, `the demo profile has a real tree (${expected.n} nodes)`);
  const plain = new TextEncoder().encode(TEXT);
  for (const [what, bytes] of [['plain', plain], ['gzip', new Uint8Array(gzipSync(plain))]] as const) {
    const { f, asked } = fetcher(bytes);
    const raw = await fetchBytes(URL_OF, f);
    assert.equal(isGzip(raw), what === 'gzip');
    assert.deepEqual(asked, [[URL_OF, { cache: 'no-store' }]], 'fetched once, never from a cache (a file still written)');
    const got = await profileBytesText(raw);
    assert.equal(got.text, TEXT, what);
    assert.deepEqual(got.bytes, plain, `${what}: the inflated bytes (the page's diff decodes them)`);
    const flat = parseFlat(got.text);
    assert.ok(flat, `${what}: the fast reader knows the text`);
    assertSamePackedTree(flatTree(flat, -1), expected, what);
  }
});

test('fetched profile: a failed fetch is a FetchFailed (the host then sends the file); a damaged gzip says so', async () => {
  const { f } = fetcher(new Uint8Array(), 408);
  await assert.rejects(fetchBytes(URL_OF, f), (e: Error) => e instanceof FetchFailed && /HTTP 408/.test(e.message) && e.message.includes(URL_OF));
  const refused = (async () => {
    throw new TypeError('Failed to fetch');
  }) as unknown as typeof fetch;
  await assert.rejects(fetchBytes(URL_OF, refused), (e: Error) => e instanceof FetchFailed && /Failed to fetch/.test(e.message));
  const gz = gzipSync(TEXT);
  await assert.rejects(profileBytesText(new Uint8Array(gz.subarray(0, gz.length >> 1))),
    (e: Error) => !(e instanceof FetchFailed) && /compressed profile is damaged/.test(e.message));
});

test('fetched profile: the fetch the page\'s script began is taken once, for its own URL only; a later fetch asks again', async () => {
  const plain = new TextEncoder().encode(TEXT);
  const { f, asked } = fetcher(plain);
  prefetch(URL_OF, f);
  assert.deepEqual(asked, [[URL_OF, { cache: 'no-store' }]], 'begun at once, never from a cache');
  assert.equal(takePrefetched(`${URL_OF}.other`), undefined, 'another file: not this fetch');
  prefetch(URL_OF, f);
  assert.deepEqual(await fetchBytes(URL_OF, f), plain, 'the early response\'s bytes');
  assert.equal(asked.length, 2, 'no request of its own');
  assert.deepEqual(await fetchBytes(URL_OF, f), plain);
  assert.equal(asked.length, 3, 'once taken, the next fetch of the file asks again (it changed)');
  const refused = (async () => {
    throw new TypeError('Failed to fetch');
  }) as unknown as typeof fetch;
  prefetch(URL_OF, refused);
  await assert.rejects(fetchBytes(URL_OF, f), (e: Error) => e instanceof FetchFailed && /Failed to fetch/.test(e.message));
  prefetch(URL_OF, fetcher(plain, 404).f);
  await assert.rejects(fetchBytes(URL_OF, f), (e: Error) => e instanceof FetchFailed && /HTTP 404/.test(e.message));
  assert.equal(asked.length, 3);
});
