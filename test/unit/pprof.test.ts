// The pprof export (core/export/pprof.ts): decoded back with pprof-format's decoder, every sample's stack,
// values and thread label are checked against the hand-written sample profile (test/unit/data/sample.heaplens).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as zlib from 'zlib';
import { Profile as Pprof } from 'pprof-format';
import { loadProfile } from '../../core/profile/load';
import { withTree } from '../../core/profile/modes';
import { pprofGzip } from '../../core/export/pprof-file';
import { dataFile } from './helpers';

const profile = loadProfile(dataFile('sample.heaplens'));

interface Row { thread: string; stack: string[]; count: number; bytes: number }

function decode(gz: Uint8Array): { pp: Pprof; str: (i: unknown) => string; rows: Row[] } {
  const raw = zlib.gunzipSync(gz);
  const pp = Pprof.decode(new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength));
  const str = (i: unknown): string => pp.stringTable.strings[Number(i)];
  const fns = new Map(pp.function.map((f) => [Number(f.id), f]));
  const locs = new Map(pp.location.map((l) => [Number(l.id), l]));
  const rows = pp.sample.map((s) => ({
    thread: str(s.label.find((l) => str(l.key) === 'thread')!.str),
    stack: s.locationId.map((id) => {
      const line = locs.get(Number(id))!.line[0];
      const name = str(fns.get(Number(line.functionId))!.name);
      return Number(line.line) ? `${name}:${Number(line.line)}` : name;
    }),
    count: Number(s.value[0]),
    bytes: Number(s.value[1]),
  }));
  return { pp, str, rows };
}

test('pprof: two sample types, bytes by default, gzip magic', () => {
  const gz = pprofGzip(profile);
  assert.deepEqual([gz[0], gz[1]], [0x1f, 0x8b]);
  const { pp, str } = decode(gz);
  assert.deepEqual(pp.sampleType.map((t) => `${str(t.type)}/${str(t.unit)}`), ['allocations/count', 'bytes/bytes']);
  assert.equal(str(pp.defaultSampleType), 'bytes');
  const meta = profile.file.meta;
  assert.equal(BigInt(pp.timeNanos), BigInt(meta.startTime) * 1_000_000n);
  assert.equal(Number(pp.durationNanos), (meta.writeTime - meta.startTime) * 1e6);
  assert.ok(Number(pp.durationNanos) > 0);
});

test('pprof: one sample per calling context and type; the site is the line under the type; JDK sites above their context', () => {
  const { rows } = decode(pprofGzip(profile));
  const main = rows.filter((r) => r.thread === 'main').map((r) => `${r.stack.join(' < ')} = ${r.count}/${r.bytes}`);
  assert.deepEqual(main, [
    // a record on the root: no context frame, only the site's method at its line
    'new java.lang.Object[] < com.acme.Main.main:11 = 1/32',
    'new com.acme.Outer$Inner < com.acme.Main.main:12 = 2/32',
    // Integer.valueOf is not profiled: its site is charged to main, shown as the frame above main
    'new java.lang.Integer < java.lang.Integer.valueOf:1082 < com.acme.Main.main = 5/80',
    'new java.lang.String < com.acme.Outer$Inner.run:31 < com.acme.Main.main = 3/72',
    'new byte[] < com.acme.Outer$Inner.run:32 < com.acme.Main.main = 3/96',
    // multianewarray: one sample per dimension level's type
    'new int[][] < com.acme.Util.grid:6 < com.acme.Main.main = 1/24',
    'new int[] < com.acme.Util.grid:6 < com.acme.Main.main = 2/64',
  ]);
  assert.deepEqual(rows.filter((r) => r.thread !== 'main').map((r) => `${r.thread}: ${r.stack.join(' < ')} = ${r.count}/${r.bytes}`), [
    'worker-1: new java.lang.String < com.acme.Outer$Inner.run:31 = 1/24',
    'worker-1: new byte[] < com.acme.Outer$Inner.run:32 = 1/32',
    'worker-2: new java.lang.String < com.acme.Outer$Inner.run:31 = 2/48',
  ]);
});

test('pprof: totals equal the profile; functions carry source path and first line', () => {
  const { pp, str, rows } = decode(pprofGzip(profile));
  let count = 0, bytes = 0;
  for (const t of profile.threads) {
    const walk = (n: { a?: number[][]; c?: unknown[] }): void => {
      for (const r of n.a ?? []) { count += r[2]; bytes += r[4]; }
      for (const c of n.c ?? []) walk(c as typeof n);
    };
    walk(t.root);
  }
  assert.equal(rows.reduce((s, r) => s + r.count, 0), count);
  assert.equal(rows.reduce((s, r) => s + r.bytes, 0), bytes);
  const run = pp.function.find((f) => str(f.name) === 'com.acme.Outer$Inner.run')!;
  assert.equal(str(run.filename), 'com/acme/Outer.java');
  assert.equal(Number(run.startLine), 30);
  assert.equal(str(run.systemName), 'com.acme.Outer$Inner.run()V');
});

test('pprof: another mode\'s tree exports through withTree (an empty tree gives no samples)', () => {
  const { rows } = decode(pprofGzip(withTree(profile, 'sampled')));
  assert.equal(rows.length, 0);
});
