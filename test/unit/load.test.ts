import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { loadProfile, parseProfile, ProfileError } from '../../core/profile/load';
import { MctNode } from '../../core/profile/types';
import { fileOf, method, objType, site } from './helpers';

function valid(): ReturnType<typeof fileOf> {
  return fileOf({
    types: [objType(1, 'java.lang.Integer', 16)],
    methods: [method(1, 'com.acme.Main', 'main'), method(2, 'com.acme.Main', '<init>', { ctorTarget: 3 }),
      method(3, 'java.lang.Object', '<init>', { profiled: false })],
    sites: [site(1, 1, 1)],
    threads: [{ id: 1, name: 'main', daemon: false, alive: false, root: { c: [{ m: 1, calls: 1, a: [[1, 1, 4, 0, 64]], folded: 0 }] } }],
  });
}

function rejects(doc: unknown, message: RegExp | string): void {
  const text = typeof doc === 'string' ? doc : JSON.stringify(doc);
  assert.throws(() => parseProfile(text), (e: unknown) => {
    assert.ok(e instanceof ProfileError, 'a ProfileError');
    if (typeof message === 'string') assert.equal(e.message, message);
    else assert.match(e.message, message);
    return true;
  });
}

test('a valid profile loads with indexed tables', () => {
  const p = parseProfile(JSON.stringify(valid()));
  assert.equal(p.types.get(1)?.name, 'java.lang.Integer');
  assert.equal(p.methods.get(2)?.ctorTarget, 3);
  assert.equal(p.sites.get(1)?.method, 1);
  assert.equal(p.threads[0].root.c?.[0].calls, 1);
});

test('a truncated file is refused as truncated or corrupted', () => {
  const text = JSON.stringify(valid());
  rejects(text.slice(0, Math.floor(text.length / 2)), /^not a HeapLens profile: the file is truncated or corrupted \(invalid JSON: /);
  rejects('', /truncated or corrupted/);
});

test('a wrong magic is refused', () => {
  rejects({ ...valid(), format: 'hprof' }, 'not a HeapLens profile: "format" is "hprof", expected "heaplens-profile"');
  rejects({ ...valid(), format: undefined }, 'not a HeapLens profile: "format" is missing, expected "heaplens-profile"');
  rejects([1, 2], 'not a HeapLens profile: the top level is not a JSON object');
});

test('a newer format version is refused with both versions named', () => {
  rejects({ ...valid(), version: 3 }, 'written by a newer HeapLens (format version 3); this build reads version 2');
  rejects({ ...valid(), version: 0 }, /"version" is 0, expected a positive integer/);
});

test('missing tables are refused', () => {
  const doc: Record<string, unknown> = { ...valid() };
  delete doc.sites;
  rejects(doc, 'invalid profile: missing "sites" table');
  rejects({ ...valid(), meta: null }, 'invalid profile: missing "meta" object');
});

test('dangling ids are refused, naming the id and the table', () => {
  const badNode = valid();
  badNode.threads[0].root.c![0].m = 99;
  rejects(badNode, 'dangling id: a node in thread 1 ("main") names method 99, which is not in "methods"');
  const badSite = valid();
  badSite.threads[0].root.c![0].a = [[7, 1, 1, 0, 16]];
  rejects(badSite, 'dangling id: an allocation record in thread 1 ("main") names site 7, which is not in "sites"');
  const badType = valid();
  badType.threads[0].root.c![0].a = [[1, 5, 1, 0, 16]];
  rejects(badType, 'dangling id: an allocation record in thread 1 ("main") names type 5, which is not in "types"');
  const siteMethod = valid();
  siteMethod.sites[0].method = 42;
  rejects(siteMethod, 'dangling id: site 1 names method 42, which is not in "methods"');
  const siteType = valid();
  siteType.sites[0].type = 43;
  rejects(siteType, 'dangling id: site 1 names type 43, which is not in "types"');
  const ctor = valid();
  ctor.methods[1].ctorTarget = 44;
  rejects(ctor, 'dangling id: method 2 (com.acme.Main.<init>) has ctorTarget 44, which is not in "methods"');
});

test('malformed entries are refused', () => {
  const dup = valid();
  dup.types.push(objType(1, 'java.lang.Long', 24));
  rejects(dup, 'invalid profile: duplicate id 1 in "types"');
  const code = valid();
  code.types.push({ id: 2, name: 'int[]', array: true, size: null, elementSize: 4 });
  rejects(code, /types\[1\] \(int\[\]\) has elementCode missing, expected one of B C D F I J S Z R/);
  const rec = valid();
  (rec.threads[0].root.c![0] as unknown as { a: unknown }).a = [[1, 1, 4]];
  rejects(rec, /allocation record \[1,1,4\], expected \[site, type, count, elements, bytes\]/);
  const calls = valid();
  delete calls.threads[0].root.c![0].calls;
  rejects(calls, /node of method 1 has "calls" missing/);
});

test('a very deep tree loads (no recursion limit)', () => {
  // Deeper than the agent's default maxDepth (4096). JSON.stringify itself overflows at this depth,
  // so the text is built by hand.
  let text = '{"m":1,"calls":1}';
  for (let i = 0; i < 5000; i++) text = `{"m":1,"calls":1,"c":[${text}]}`;
  const doc = JSON.stringify({ ...valid(), threads: [] }).replace('"threads":[]',
    `"threads":[{"id":1,"name":"main","daemon":false,"alive":true,"root":{"c":[${text}]}}]`);
  const p = parseProfile(doc);
  let depth = 0;
  for (let n: MctNode | undefined = p.threads[0].root; n; n = n.c?.[0]) depth++;
  assert.equal(depth, 5002);
});

test('loadProfile names the file in its errors', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-load-'));
  const file = path.join(dir, 'cut.heaplens');
  fs.writeFileSync(file, '{"format":"heaplens-profile","vers');
  assert.throws(() => loadProfile(file), (e: Error) => e.message.startsWith(`${file}: not a HeapLens profile: the file is truncated`));
  assert.throws(() => loadProfile(path.join(dir, 'none.heaplens')), /none\.heaplens: cannot read: no such file$/);
  assert.throws(() => loadProfile(dir), /: cannot read: a directory, not a file$/);
  fs.writeFileSync(file, JSON.stringify(valid()));
  assert.equal(loadProfile(file).methods.size, 3);
  fs.rmSync(dir, { recursive: true });
});

test('implausible counts (2^62, 1e300, past 2^53−1) are refused, not printed as data (issue 20)', () => {
  for (const [text, shown] of [['4611686018427387904', '4611686018427388000'], ['1e300', '1e+300'], ['9007199254740992', '9007199254740992']]) {
    const json = JSON.stringify(valid()).replace('[[1,1,4,0,64]]', `[[1,1,${text},0,64]]`);
    assert.ok(json.includes(text), 'the count was replaced');
    rejects(json, new RegExp(`allocation record \\[1,1,${shown.replace('+', '\\+')},0,64\\], expected .* whole numbers from 0 to 2\\^53−1`));
    const calls = JSON.stringify(valid()).replace('"calls":1', `"calls":${text}`);
    rejects(calls, /node of method 1 has "calls" /);
  }
  // the largest exact count still loads
  assert.equal(parseProfile(JSON.stringify(valid()).replace('[[1,1,4,0,64]]', '[[1,1,9007199254740991,0,64]]')).threads.length, 1);
});

test('a gzip-compressed profile (the agent compresses large final profiles) loads like the plain one', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-gz-'));
  try {
    const text = JSON.stringify(valid());
    const plain = path.join(dir, 'plain.heaplens'), gz = path.join(dir, 'gz.heaplens');
    fs.writeFileSync(plain, text);
    fs.writeFileSync(gz, new Uint8Array(zlib.gzipSync(text)));
    assert.ok(fs.statSync(gz).size < fs.statSync(plain).size, 'the compressed file is smaller');
    assert.deepEqual(loadProfile(gz).file, loadProfile(plain).file);
    assert.equal(loadProfile(gz).methods.get(2)?.ctorTarget, 3);
    fs.writeFileSync(gz, new Uint8Array(zlib.gzipSync(text)).subarray(0, 40));
    assert.throws(() => loadProfile(gz), (e: unknown) => e instanceof ProfileError
      && /^.*gz\.heaplens: the compressed profile is damaged: /.test(e.message));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
