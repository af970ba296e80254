// Memory accounts in the model: validation of the profile section, the report tables, the leak-suspect rule,
// the snapshot diff and the account of a class (the agent's pattern rule, mirrored for the flame tree's colours).
import * as assert from 'assert/strict';
import { test } from 'node:test';
import {
  ACCOUNTS_HEADER, accountIndexOf, accountsOf, accountsTsv, accountTotals, leakSuspects, snapshotDiff, snapshotsTsv, suspectsTsv,
} from '../../extension/model/accounts';
import { ProfileFile } from '../../extension/model/types';
import { fileOf } from './helpers';

const NAMES = ['(unaccounted)', 'srv.http.*', 'srv.cache'];
type Row = [number, string, number, number, number, number, number, number];

/** A profile with an accounts section: one snapshot per entry of `live` (the live/old counts of srv.cache.Entry). */
function withSnapshots(entry: number[], garbage: number[], kind = 'exact', lastAtShutdown = false): ProfileFile {
  const snapshots = entry.map((n, i) => ({
    seq: i + 1, time: 1_700_000_000_000 + i * 1000, reason: lastAtShutdown && i === entry.length - 1 ? 'shutdown' : 'periodic', gc: false, gcs: i * 2,
    rows: [
      [2, 'srv.cache.Entry', 200 * (i + 1), 4800 * (i + 1), n, n * 24, n, i * 2] as Row,
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
  assert.equal(lines[0], 'account\tclass\tallocated_objects\tallocated_bytes\tlive_objects\tlive_bytes');
  assert.deepEqual(ACCOUNTS_HEADER, lines[0].split('\t'));
  assert.deepEqual(lines.slice(1), [
    '(unaccounted)\tsrv.Main$Boot\t3\t48\t3\t48',
    'srv.cache\tsrv.cache.Entry\t600\t14400\t800\t19200',
    'srv.http.*\tsrv.http.Scratch\t3000\t72000\t0\t0',
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
  assert.match(suspectsTsv(rising), /^account\tclass\tlive_objects\tlive_bytes\tgrowth_objects\tgrowth_bytes\tmax_generations\tlive_series\nsrv\.cache\tsrv\.cache\.Entry\t800\t19200\t600\t14400\t10\t200,200,400,600,600,800\n$/);
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
  const a = accountsOf(withSnapshots([200, 900], [40, 0]))!;
  assert.deepEqual(snapshotDiff(a, a.snapshots[0], a.snapshots[1]), [
    { account: 'srv.cache', cls: 'srv.cache.Entry', objects: 700, bytes: 700 * 24 },
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
