// node --test bench/test/ : the streaming profile scan agrees with JSON.parse at every chunk size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { scanProfile } from '../lib/profile-scan.mjs';
import { readProfile } from '../lib/profile.mjs';
import { generateSql } from '../prepare/gen-sql.mjs';
import { generateBook } from '../prepare/gen-docbook.mjs';

function node(depth, r) {
  const n = { m: depth + 1, calls: 2, a: [[1, 2, 3 + depth, 0, 48 + depth], [2, 3, 1, 10, 56]] };
  if (depth < 4) n.c = [node(depth + 1, r), node(depth + 1, r)];
  return n;
}

const profile = {
  format: 'heaplens-profile',
  version: 1,
  meta: { mode: 'exact', final: true, sequence: 3, command: 'a "quoted" \\ back\\slash \u00e9 }]{[' },
  types: [{ id: 2, name: 'java.lang.String', array: false, size: 24 }, { id: 3, name: 'int[]', array: true, size: null, elementSize: 4 }],
  methods: [{ id: 1, class: 'a.B', name: 'name', desc: '()V' }],
  threads: [
    { id: 1, name: 'main', daemon: false, alive: true, root: { a: [[9, 2, 1, 0, 24]], c: [node(0)] } },
    { id: 2, name: 'we\\"ird \u00fc [name]', daemon: true, alive: false, root: { c: [node(2)] } },
    { id: 3, name: 'allocmeter-poller', daemon: true, alive: true, root: { a: [[9, 2, 1e3, 0, 2.4e4]] } },
  ],
  transform: { classesTransformed: 5, classesFailed: 1, classesSkipped: 2, retransformed: 0, failures: [{ class: 'x', error: 'y' }], warnings: [] },
  agent: { threads: 3, nodes: 12 },
};

function reference(p) {
  const sum = (n, acc) => {
    acc.nodes++;
    for (const a of n.a || []) { acc.objects += a[2]; acc.bytes += a[4]; }
    for (const c of n.c || []) sum(c, acc);
    return acc;
  };
  return p.threads.map((t) => ({ name: t.name, ...sum(t.root, { bytes: 0, objects: 0, nodes: 0 }),
    rootBytes: (t.root.a || []).reduce((s, a) => s + a[4], 0) }));
}

test('scan equals JSON.parse at all chunk sizes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scan-'));
  // plain, pretty-printed, and gzip-compressed as the agent writes large final profiles
  const texts = [JSON.stringify(profile), JSON.stringify(profile, null, 2)];
  for (const [i, bytes] of [...texts, gzipSync(texts[0])].entries()) {
    const f = join(dir, `p${i}.heaplens`);
    writeFileSync(f, bytes);
    const want = reference(profile);
    for (const chunk of [1, 2, 3, 5, 7, 16, 64, 1000, 1 << 20]) {
      const { top, threads } = scanProfile(f, chunk);
      const got = threads.map(({ name, bytes, objects, nodes, rootBytes }) => ({ name, bytes, objects, nodes, rootBytes }));
      assert.deepEqual(got, want, `chunk ${chunk}`);
      assert.equal(top.format, 'heaplens-profile');
      assert.equal(top.version, 1);
      assert.deepEqual(top.meta, profile.meta);
      assert.deepEqual(top.transform, profile.transform);
      assert.deepEqual(top.agent, profile.agent);
    }
  }
});

test('readProfile filters threads and the main root records', () => {
  const f = join(mkdtempSync(join(tmpdir(), 'scan-')), 'p.heaplens');
  writeFileSync(f, JSON.stringify(profile));
  const all = reference(profile);
  const r = readProfile(f, { threadFilter: (t) => !t.name.startsWith('allocmeter-'), skipMainRootRecords: true });
  assert.equal(r.threads, 2);
  assert.equal(r.bytes, all[0].bytes - 24 + all[1].bytes);
  assert.equal(r.transform.classesFailed, 1);
  writeFileSync(f, JSON.stringify({ ...profile, format: 'other' }));
  assert.throws(() => readProfile(f), /not heaplens-profile/);
});

test('generators are deterministic', () => {
  assert.equal(generateSql(0.01), generateSql(0.01));
  assert.equal(generateBook(20000), generateBook(20000));
  assert.ok(generateBook(50000).length >= 50000);
});
