// The host's cheap read of a profile's `meta` (core/profile/meta-read.ts, load.ts loadProfileMeta): what the editor
// needs to open a saved file whose bytes its page fetches, without parsing the whole profile.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readMeta } from '../../core/profile/meta-read';
import { loadProfileMeta, META_HEAD_BYTES, ProfileError, profileHeadText } from '../../core/profile/load';

const ROOT_DIR = join(__dirname, '..', '..', '..');
const SAMPLE = readFileSync(join(ROOT_DIR, 'test', 'unit', 'data', 'sample.heaplens'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'heaplens-meta-'));

/** The sample with `final` set, and padded with a thread list of `padNodes` nodes (a big file). */
function profile(final: boolean, padNodes = 0, metaLast = false): string {
  const p = JSON.parse(SAMPLE) as Record<string, unknown> & { meta: Record<string, unknown>; threads: unknown[] };
  p.meta.final = final;
  if (padNodes) p.threads.push({ id: 99, name: 'pad', daemon: false, alive: false, root: { c: Array.from({ length: padNodes }, () => ({ m: 1, calls: 1 })) } });
  if (!metaLast) return JSON.stringify(p);
  const { meta, ...rest } = p;
  return JSON.stringify({ ...rest, meta });
}

test('meta read: a final and a still-written profile, from the whole text and from its head', () => {
  for (const final of [true, false]) {
    const text = profile(final);
    const whole = readMeta(text, true);
    assert.ok('meta' in whole);
    assert.equal(whole.meta.final, final);
    assert.equal(whole.meta.pid, 31337);
    // the head of the file: meta ends within it
    const head = readMeta(text.slice(0, text.indexOf('"threads"')), false);
    assert.ok('meta' in head);
    assert.equal(head.meta.final, final);
  }
});

test('meta read: a head that ends inside meta asks for more; a whole text cut there is an error', () => {
  const text = profile(true);
  const cut = text.slice(0, text.indexOf('"layout"'));
  assert.deepEqual(readMeta(cut, false), { more: true });
  assert.deepEqual(readMeta('', false), { more: true });
  assert.throws(() => readMeta(cut, true), (e: Error) => e instanceof ProfileError && /truncated or corrupted/.test(e.message));
});

test('meta read: meta after the call trees (another writer) is found by walking over them; strings with brackets are skipped', () => {
  const text = profile(false, 100, true).replace('"name":"pad"', '"name":"p}a]d\\"{["');
  assert.ok(text.indexOf('"meta"') > text.indexOf('"threads"'));
  const r = readMeta(text, true);
  assert.ok('meta' in r);
  assert.equal(r.meta.final, false);
});

test('meta read: what is not a profile says why', () => {
  const cases: Array<[string, RegExp]> = [
    ['[1, 2]', /top level is not a JSON object/],
    ['{"format": "other", "meta": {}}', /"format" is "other"/],
    ['{"format": "heaplens-profile", "version": 9, "meta": {}}', /newer HeapLens \(format version 9\)/],
    ['{"format": "heaplens-profile", "meta": [1]}', /"meta" is not an object/],
    ['{"format": "heaplens-profile", "version": 2}', /no "meta" object/],
    ['{"format": "heaplens-profile", "meta": {"final": tru}}', /"meta" is not valid JSON/],
    ['garbage', /top level is not a JSON object/],
  ];
  for (const [text, why] of cases) assert.throws(() => readMeta(text, true), (e: Error) => e instanceof ProfileError && why.test(e.message), text);
});

test('loadProfileMeta: plain and gzipped files, final or not, small and larger than the head read', () => {
  for (const final of [true, false]) {
    for (const pad of [0, 20000]) {
      const text = profile(final, pad);
      for (const gz of [false, true]) {
        const bytes = gz ? new Uint8Array(gzipSync(text)) : new TextEncoder().encode(text);
        const f = join(dir, `p-${final}-${pad}-${gz}.heaplens`);
        writeFileSync(f, bytes);
        if (pad) assert.ok(text.length > META_HEAD_BYTES, 'the padded text is longer than the head read');
        assert.equal(loadProfileMeta(f).final, final, f);
      }
    }
  }
});

test('loadProfileMeta: meta after 64 KB of call trees is read from the whole file', () => {
  const text = profile(true, 20000, true);
  assert.ok(text.indexOf('"meta"') > META_HEAD_BYTES);
  for (const gz of [false, true]) {
    const f = join(dir, `late-${gz}.heaplens`);
    writeFileSync(f, gz ? new Uint8Array(gzipSync(text)) : text);
    assert.equal(loadProfileMeta(f).final, true);
  }
});

test('loadProfileMeta: a malformed, empty or missing file is an error naming the file', () => {
  const bad = join(dir, 'bad.heaplens');
  writeFileSync(bad, 'this is not json');
  assert.throws(() => loadProfileMeta(bad), (e: Error) => e instanceof ProfileError && e.message.startsWith(bad) && /not a HeapLens profile/.test(e.message));
  const empty = join(dir, 'empty.heaplens');
  writeFileSync(empty, '');
  assert.throws(() => loadProfileMeta(empty), (e: Error) => e instanceof ProfileError && /truncated or corrupted/.test(e.message));
  const cut = join(dir, 'cut.heaplens');
  writeFileSync(cut, profile(true).slice(0, 200));
  assert.throws(() => loadProfileMeta(cut), (e: Error) => e instanceof ProfileError && /truncated or corrupted/.test(e.message));
  assert.throws(() => loadProfileMeta(join(dir, 'none.heaplens')), (e: Error) => e instanceof ProfileError && /no such file/.test(e.message));
  const damaged = join(dir, 'damaged.heaplens');
  writeFileSync(damaged, new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0xff, 0xff, 0xff]));
  assert.throws(() => loadProfileMeta(damaged), (e: Error) => e instanceof ProfileError);
});

test('profileHeadText: a gzip stream cut anywhere inflates as far as it goes', () => {
  const text = profile(true, 20000);
  const gz = gzipSync(text);
  const head = profileHeadText(new Uint8Array(gz).subarray(0, 4096));
  assert.ok(head.length > 4096 && text.startsWith(head), 'a prefix of the text, longer than the compressed bytes');
});
