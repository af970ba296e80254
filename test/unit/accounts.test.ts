// Memory accounts in the model: validation of the profile section, the report tables, the leak-suspect rule,
// the snapshot diff and the account of a class (the agent's pattern rule, mirrored for the flame tree's colours).
import * as assert from 'assert/strict';
import { test } from 'node:test';
import {
  ACCOUNTS_HEADER, accountIndexOf, accountsOf, accountsTsv, accountTotals, leakSuspects, livenessLabel, poissonInterval, snapshotDiff,
  snapshotsTsv, suspectEvidence, suspectsTsv,
} from '../../core/views/accounts';
import { ProfileFile } from '../../core/profile/types';
import { fileOf } from './helpers';

const NAMES = ['(unaccounted)', 'srv.http.*', 'srv.cache'];
type Row = [number, string, number, number, number, number, number, number];

/** A profile with an accounts section: one snapshot per entry of `live` (the live/old counts of srv.cache.Entry). */
function withSnapshots(entry: number[], garbage: number[], kind = 'exact', lastAtShutdown = false): ProfileFile {
  const snapshots = entry.map((n, i) => ({
    seq: i + 1, time: 1_700_000_000_000 + i * 1000, reason: lastAtShutdown && i === entry.length - 1 ? 'shutdown' : 'periodic', gc: false, gcs: i * 2,
    rows: [
      [2, 'srv.cache.Entry', 400 * (i + 1), 9600 * (i + 1), n, n * 24, n, i * 2] as Row,
      [1, 'srv.http.Scratch', 1000 * (i + 1), 24000 * (i + 1), garbage[i], garbage[i] * 24, garbage[i], 1] as Row,
      [0, 'srv.Main$Boot', 3, 48, 3, 48, 3, i * 2] as Row,
    ],
  }));
  return { ...fileOf({}), accounts: { mode: 'accounts', names: NAMES, liveness: { kind, every: kind === 'sampled' ? 32 : 1, tracked: 9, refunded: 4 }, gcs: 9, snapshots } } as unknown as ProfileFile;
}

test('accounts: a profile without the section has none; a malformed one is refused with the reason', () => {
  assert.equal(accountsOf(fileOf({})), undefined);
  const bad = (accounts: unknown): ProfileFile => ({ ...fileOf({}), accounts } as unknown as ProfileFile);
  assert.throws(() => accountsOf(bad([])), /accounts: "accounts" is not an object/);
  assert.throws(() => accountsOf(bad({ names: NAMES, liveness: { kind: 'maybe', every: 1 }, snapshots: [] })), /"liveness" is/);
  assert.throws(() => accountsOf(bad({ names: NAMES, liveness: { kind: 'exact', every: 1 }, snapshots: [{ seq: 1, time: 1, reason: 'x', rows: [[7, 'A', 1, 2, 0, 0, 0, 0]] }] })),
    /rows\[0\] names account 7, which is not in "names"/);
  assert.throws(() => accountsOf(bad({ names: NAMES, liveness: { kind: 'off', every: 1 }, snapshots: [{ seq: 1, time: 1, reason: 'x', rows: [[0, 'A', 1, 2, 0, 0, 0, 0]] }] })),
    /expected \[account, class, 2 counts\]/);
});

test('accounts: the TSV of the last snapshot has the exact header and one row per account and class', () => {
  const a = accountsOf(withSnapshots([400, 600, 800], [5, 0, 0], 'exact', true))!;
  const lines = accountsTsv(a).trimEnd().split('\n');
  assert.equal(lines[0], 'account\tclass\tallocated_objects\tallocated_bytes\tlive_objects\tlive_bytes\tlive_low\tlive_high');
  assert.deepEqual(ACCOUNTS_HEADER, lines[0].split('\t'));
  assert.deepEqual(lines.slice(1), [
    '(unaccounted)\tsrv.Main$Boot\t3\t48\t3\t48\t3\t3',
    'srv.cache\tsrv.cache.Entry\t1200\t28800\t800\t19200\t800\t800',
    'srv.http.*\tsrv.http.Scratch\t3000\t72000\t0\t0\t0\t0',
  ]);
  const totals = accountTotals(a);
  assert.deepEqual(totals.map((t) => [t.account, t.liveBytes]), [['srv.cache', 19200], ['(unaccounted)', 48], ['srv.http.*', 0]]);
  const series = snapshotsTsv(a).trimEnd().split('\n');
  assert.equal(series.length, 1 + 3 * 3);
  assert.equal(series[0].split('\t').length, 11);
  assert.match(series[series.length - 1], /^3\t2000\tshutdown\tfalse\t4\tsrv\.http\.\*\t3000\t72000\t0\t0\texact$/);
});

test('accounts: a leak suspect rises in both halves of the series and never falls in the later one', () => {
  const rising = accountsOf(withSnapshots([200, 200, 400, 600, 600, 800], [50, 0, 60, 0, 40, 0]))!;
  const s = leakSuspects(rising);
  assert.deepEqual(s.map((x) => [x.account, x.cls]), [['srv.cache', 'srv.cache.Entry']]);
  assert.deepEqual(s[0].series, [200, 200, 400, 600, 600, 800]);
  assert.equal(s[0].growthObjects, 600);
  assert.equal(s[0].growthBytes, 600 * 24);
  assert.equal(s[0].maxGenerations, 10);
  assert.equal(suspectEvidence(s[0]), 'rose in 3 of 5 steps, never fell');
  assert.match(suspectsTsv(rising), /^account\tclass\tlive_objects\tlive_bytes\tgrowth_objects\tgrowth_bytes\tmax_generations\tevidence\tlive_series\nsrv\.cache\tsrv\.cache\.Entry\t800\t19200\t600\t14400\t10\trose in 3 of 5 steps, never fell\t200,200,400,600,600,800\n$/);
  // grew early, flat late: warm-up, not a leak; grew late only: not yet established; fell late: not rising
  assert.deepEqual(leakSuspects(accountsOf(withSnapshots([100, 300, 500, 500, 500, 500], [0, 0, 0, 0, 0, 0]))!), []);
  assert.deepEqual(leakSuspects(accountsOf(withSnapshots([100, 100, 100, 100, 300, 500], [0, 0, 0, 0, 0, 0]))!), []);
  assert.deepEqual(leakSuspects(accountsOf(withSnapshots([100, 300, 500, 700, 900, 800], [0, 0, 0, 0, 0, 0]))!), []);
  // fewer than three snapshots: nothing to compare
  assert.deepEqual(leakSuspects(accountsOf(withSnapshots([100, 300], [0, 0]))!), []);
  // the snapshot at shutdown is the teardown, not the trend: a jump only there is no leak ...
  assert.deepEqual(leakSuspects(accountsOf(withSnapshots([100, 300, 300, 300, 300, 900], [0, 0, 0, 0, 0, 0], 'exact', true))!), []);
  // old objects rising while all live objects fall (young objects promoted): not a leak, no negative growth shown
  const promoted = accountsOf(withSnapshots([500, 500, 500, 500, 500, 500], [0, 0, 0, 0, 0, 0]))!;
  for (const [i, snap] of promoted.snapshots.entries()) {
    const row = snap.rows.find((r) => r.cls === 'srv.cache.Entry')!;
    row.oldObjects = 100 + 50 * i;
    row.liveObjects = 600 - 20 * i;
  }
  assert.deepEqual(leakSuspects(promoted), []);
  // ... and a rising class is judged, and shown, on the snapshots before it
  const atExit = leakSuspects(accountsOf(withSnapshots([200, 200, 400, 600, 600, 800], [0, 0, 0, 0, 0, 0], 'exact', true))!);
  assert.deepEqual(atExit.map((x) => [x.cls, x.series.join(','), x.growthObjects]), [['srv.cache.Entry', '200,200,400,600,600', 400]]);
});

test('accounts: snapshot diff of live objects, largest byte change first', () => {
  const a = accountsOf(withSnapshots([200, 800], [40, 0]))!;
  assert.deepEqual(snapshotDiff(a, a.snapshots[0], a.snapshots[1]), [
    { account: 'srv.cache', cls: 'srv.cache.Entry', objects: 600, bytes: 600 * 24 },
    { account: 'srv.http.*', cls: 'srv.http.Scratch', objects: -40, bytes: -40 * 24 },
  ]);
});

test('accounts: the most specific pattern wins, as in the agent', () => {
  const names = ['(unaccounted)', 'a.*', 'a.b.*', 'a.b', 'a.b.c.*'];
  assert.equal(accountIndexOf(names, 'a.X'), 1);
  assert.equal(accountIndexOf(names, 'a.b.X$Y'), 3);
  assert.equal(accountIndexOf(names, 'a.b.q.X'), 2);
  assert.equal(accountIndexOf(names, 'a.b.c.d.X'), 4);
  assert.equal(accountIndexOf(names, 'z.X'), 0);
  assert.equal(accountIndexOf(names, 'Main'), 0);
});

test('accounts: a sampled live count is kept between the objects seen alive and those allocated, with a Poisson interval', () => {
  // Byar's approximation; the exact (Garwood) 95 % bounds are k = 0 → [0, 3.689], k = 10 → [4.795, 18.39]
  assert.deepEqual(poissonInterval(0).map((v) => +v.toFixed(2)), [0, 3.67]);
  assert.deepEqual(poissonInterval(10).map((v) => +v.toFixed(2)), [4.79, 18.39]);
  const file = (rows: unknown[][], liveness: object): ProfileFile => ({
    ...fileOf({}), accounts: { mode: 'accounts', names: NAMES, liveness, snapshots: [{ seq: 1, time: 1, reason: 'shutdown', rows }] },
  } as unknown as ProfileFile);
  // The reproduction of the old defect: one object allocated, one sampled object alive, scaled to 32.
  const once = accountsOf(file([[2, 'srv.cache.Cache', 1, 16, 32, 512, 32, 1, 1]], { kind: 'sampled', every: 32, tracked: 1, refunded: 0 }))!;
  const row = once.snapshots[0].rows[0];
  assert.deepEqual([row.liveObjects, row.liveBytes, row.oldObjects, row.liveLow, row.liveHigh], [1, 16, 1, 1, 1]);
  // 38 sampled objects (× 32 = 1216) plus 40 tracked one by one, of 5000 allocated: 1256, interval 40 + 32 × [26.9, 52.2]
  const mixed = accountsOf(file([[2, 'srv.cache.Entry', 5000, 120000, 1256, 30144, 1256, 4, 38]],
    { kind: 'sampled', every: 32, exactFirst: 100000, tracked: 9, refunded: 0 }))!;
  const m = mixed.snapshots[0].rows[0];
  const [lo, hi] = poissonInterval(38);
  assert.deepEqual([m.liveObjects, m.liveLow, m.liveHigh], [1256, Math.floor(40 + 32 * lo), Math.ceil(40 + 32 * hi)]);
  assert.deepEqual([m.liveLow, m.liveHigh], [900, 1710]);
  assert.equal(livenessLabel(mixed), 'exact for the first 100,000 objects, then sampled (1 in 32 on average, scaled; 95 % intervals)');
  // A file written before the ninth column: a sampled row's live objects are all sampled ones.
  const old = accountsOf(file([[2, 'srv.cache.Entry', 5000, 120000, 320, 7680, 320, 4]], { kind: 'sampled', every: 32, tracked: 9, refunded: 0 }))!;
  const o = old.snapshots[0].rows[0];
  assert.deepEqual([o.liveObjects, o.liveLow, o.liveHigh], [320, Math.floor(32 * poissonInterval(10)[0]), Math.ceil(32 * poissonInterval(10)[1])]);
  // exact rows: the interval is the count itself
  const exact = accountsOf(file([[2, 'srv.cache.Entry', 5000, 120000, 1200, 28800, 1200, 4, 0]], { kind: 'exact', every: 1, tracked: 9, refunded: 0 }))!;
  assert.deepEqual([exact.snapshots[0].rows[0].liveLow, exact.snapshots[0].rows[0].liveHigh], [1200, 1200]);
});

test('accounts: sampled growth smaller than the noise is no suspect; series that never fell rank first', () => {
  // Entry: sampled counts 10 → 11 → 12 → 13 (×32): rising, but the last interval overlaps the first → not a suspect.
  const snap = (i: number, entrySampled: number, scratchOld: number) => ({
    seq: i + 1, time: i * 1000, reason: 'periodic', gc: false, gcs: i,
    rows: [
      [2, 'srv.cache.Entry', 100000, 2400000, entrySampled * 32, entrySampled * 768, entrySampled * 32, i, entrySampled],
      [1, 'srv.http.Scratch', 100000, 2400000, scratchOld, scratchOld * 24, scratchOld, i, 0],
      [0, 'srv.Main$Boot', 100000, 2400000, [100, 50, 200, 300, 400][i], 0, [100, 50, 200, 300, 400][i], i, 0],
    ],
  });
  const file = (series: number[]): ProfileFile => ({
    ...fileOf({}), accounts: { mode: 'accounts', names: NAMES, liveness: { kind: 'sampled', every: 32, tracked: 9, refunded: 0 },
      snapshots: series.map((n, i) => snap(i, n, [100, 200, 300, 400, 500][i])) },
  } as unknown as ProfileFile);
  const noisy = leakSuspects(accountsOf(file([10, 11, 12, 12, 13]))!);
  assert.deepEqual(noisy.map((s) => s.cls), ['srv.http.Scratch', 'srv.Main$Boot']);
  // Boot fell once (100 → 50) and grew more than Scratch, but Scratch never fell: it ranks first.
  assert.deepEqual(noisy.map((s) => [s.falls, s.growthObjects]), [[0, 400], [1, 300]]);
  assert.equal(suspectEvidence(noisy[1]), 'rose in 3 of 4 steps, fell in 1');
  // Entry 10 → 60 samples: the intervals separate, so it is a suspect.
  const clear = leakSuspects(accountsOf(file([10, 20, 35, 50, 60]))!);
  assert.ok(clear.some((s) => s.cls === 'srv.cache.Entry'));
});
