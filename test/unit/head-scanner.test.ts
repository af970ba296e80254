// Reading a fetched profile's head as it arrives (webview/load/fetch-profile.ts fetchBytesWithHead): the first section
// is found in a gzipped and in a plain file cut into chunks of any size, before the last chunk is read; the bytes
// returned are the file's; a file without a section (an older one) reports none and loads as before.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { withFirstSection } from '../../core/profile/first-section';
import { ProfileFile } from '../../core/profile/types';
import { fetchBytesWithHead, HeadScanner, prefetch, ProfileHead } from '../../webview/load/fetch-profile';

const ROOT_DIR = join(__dirname, '..', '..', '..');
const OLD = readFileSync(join(ROOT_DIR, 'test', 'unit', 'data', 'wordindex.heaplens'), 'utf8');
const WITH = JSON.stringify(withFirstSection(JSON.parse(OLD) as ProfileFile));

/** A fetch whose body arrives in the given chunks; `served` counts the chunks handed out so far. */
function chunked(bytes: Uint8Array, sizes: () => number): { f: typeof fetch; served: () => number; total: number } {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length;) {
    const n = Math.max(1, Math.min(sizes(), bytes.length - at));
    parts.push(bytes.slice(at, at + n));
    at += n;
  }
  let served = 0;
  // the streams API's types are the DOM library's, which this compile has not
  const Stream = (globalThis as unknown as { ReadableStream: new (src: object) => object }).ReadableStream;
  const f = (async () => new Response(new Stream({
    // a chunk per macrotask, as a network delivers them (the inflater runs between them)
    async pull(c: { enqueue(b: Uint8Array): void; close(): void }) {
      await new Promise((r) => setTimeout(r, 0));
      if (served < parts.length) c.enqueue(parts[served++]);
      else c.close();
    },
  }) as ConstructorParameters<typeof Response>[0])) as unknown as typeof fetch;
  return { f, served: () => served, total: parts.length };
}

/** A seeded sequence of chunk sizes from 1 byte to `max`. */
function sizes(seed: number, max: number): () => number {
  let s = seed >>> 0;
  return () => 1 + ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) % max);
}

for (const gz of [false, true]) {
  for (const [seed, max] of [[1, 61], [2, 300], [3, 4096], [4, 1 << 20]] as const) {
    test(`the section of a ${gz ? 'gzipped' : 'plain'} file in chunks of 1–${max} bytes is found before its end, the bytes are the file's`, async () => {
      const bytes = gz ? new Uint8Array(gzipSync(WITH)) : new TextEncoder().encode(WITH);
      const src = chunked(bytes, sizes(seed, max));
      let head: ProfileHead | undefined;
      let at = -1;
      const got = await fetchBytesWithHead('u', (h) => { head = h; at = src.served(); }, src.f);
      assert.deepEqual(got, bytes);
      assert.ok(head, 'no head');
      assert.deepEqual(head.first, JSON.parse(WITH).first);
      assert.equal(head.meta.command, JSON.parse(OLD).meta.command);
      // found before the end of a file of many chunks (the section is in its first few KB, the file is 16 KB)
      if (src.total > 20) assert.ok(at < src.total, `found at chunk ${at} of ${src.total}`);
    });
  }
  test(`a ${gz ? 'gzipped' : 'plain'} file without a section (written before it): the head says none, the bytes are whole`, async () => {
    const bytes = gz ? new Uint8Array(gzipSync(OLD)) : new TextEncoder().encode(OLD);
    const src = chunked(bytes, sizes(9, 500));
    const heads: ProfileHead[] = [];
    const got = await fetchBytesWithHead('u', (h) => heads.push(h), src.f);
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(got, bytes);
    assert.equal(heads.length, 1);
    assert.equal(heads[0].first, undefined);
    assert.equal(heads[0].meta.command, JSON.parse(OLD).meta.command);
  });
}

test('a text that is not a profile: no head, the bytes still come back (the whole read reports the error)', async () => {
  const bytes = new TextEncoder().encode('[1,2,3]');
  const heads: ProfileHead[] = [];
  const got = await fetchBytesWithHead('u', (h) => heads.push(h), chunked(bytes, () => 2).f);
  assert.deepEqual(got, bytes);
  assert.equal(heads.length, 0);
});

test('the head is looked for only when the text reaches the top level: a few times, not once per chunk', async () => {
  // strings holding brackets, quotes and backslashes in meta and in the section (a thread's name) do not mislead it
  const file = JSON.parse(OLD) as ProfileFile;
  file.meta.command = 'java -Dx="{[" \\ ]} -jar a.jar';
  file.threads[0].name = 'pool-1 "}]\\" {';
  const text = JSON.stringify(withFirstSection(file));
  const expected = JSON.parse(text) as { meta: unknown; first: unknown };
  const bytes = new TextEncoder().encode(text);
  const next = sizes(5, 21);
  const heads: ProfileHead[] = [];
  const scanner = new HeadScanner((h) => heads.push(h));
  let chunks = 0;
  let from = -1;
  let at = -1;
  for (let i = 0; i < bytes.length && heads.length === 0; chunks++) {
    const n = next();
    scanner.push(bytes.slice(i, i + n));
    if (heads.length > 0) [from, at] = [i, i + n];
    i += n;
  }
  assert.equal(heads.length, 1);
  assert.deepEqual(heads[0].meta, expected.meta);
  assert.deepEqual(heads[0].first, expected.first);
  // found with the chunk that holds the section's last byte, not later
  const start = text.indexOf('"first":') + '"first":'.length;
  const end = new TextEncoder().encode(text.slice(0, start + JSON.stringify(expected.first).length)).length;
  assert.ok(from < end && end <= at, `section ends at byte ${end}, found with the chunk [${from}, ${at})`);
  assert.ok(chunks > 100, `${chunks} chunks`);
  // format, version, meta, the key after it, the section's end, and the chunks that end at the top level between them
  assert.ok(scanner.scans <= 8, `${scanner.scans} scans for ${chunks} chunks`);
});

test('the page\'s early fetch is read as it arrives before the load takes it; the load then has the head at once', async () => {
  // a body nobody reads stops arriving when the browser's buffer is full: prefetch reads it from the start
  const bytes = new TextEncoder().encode(WITH);
  const src = chunked(bytes, sizes(6, 300));
  prefetch('u', src.f);
  for (let k = 0; k < 400 && src.served() < src.total; k++) await new Promise((r) => setTimeout(r, 0));
  assert.equal(src.served(), src.total, 'every chunk read before anyone asked for the bytes');
  const heads: ProfileHead[] = [];
  const got = fetchBytesWithHead('u', (h) => heads.push(h), () => {
    throw new Error('the early fetch is taken, no second request');
  });
  assert.equal(heads.length, 1, 'the head is handed over as the load takes the fetch');
  assert.deepEqual(heads[0].first, JSON.parse(WITH).first);
  assert.deepEqual(await got, bytes);
});
