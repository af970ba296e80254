// Fixture `server` (srv.Main): memory accounts, Bouché et al. 2009 §3–5. Accounts srv.http.* and srv.cache; srv.xml is a
// library that is NOT an account, srv (Main) neither. Run in the accounts mode with the default liveness (auto: exact
// while fewer than 100,000 objects were tracked, which holds here) and periodic snapshots; the program collects garbage and pauses between its six rounds of 200 requests.
// Expected counts (see the fixture's comment): srv.http.*: 1200 Request, 6000 Scratch, 3600 Element and 3600
// Element[] made by srv.xml on srv.http's behalf, the Parser and the Cache objects (made in Server's fields);
// srv.cache: 1200 Entry, 1200 HashMap$Node (JDK code, charged to the caller's account; one more on JDK 17 from
// the class loading Cache.remember triggers), 1072 Integer keys (ids 128..1199); (unaccounted): 3 Boot, 1 Boot[],
// and the Server object, allocated in Main (the constructor's own allocations belong to srv.http.*).
import * as assert from 'assert/strict';
import { before, describe, it } from 'node:test';
import { CLI, JDKS } from './support/env';
import { assertCleanRun, Fixture } from './support/fixture';
import { exec, FixtureRun, runFixture } from './support/heaplens';

const fx = new Fixture({
  name: 'server', mainClass: 'srv.Main',
  runArgs: ['--accounts', 'srv.http.*,srv.cache', '--agent-opt', 'snapshotInterval=200'],
  jvmArgs: ['-Dsrv.pause=1500'],   // a few periodic snapshots per round even on a loaded machine
});

type Table = { header: string[]; rows: Record<string, string>[] };

function tsv(text: string): Table {
  const [head, ...lines] = text.replace(/\n+$/, '').split('\n');
  const header = head.split('\t');
  return { header, rows: lines.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [header[i], v]))) };
}

async function report(run: FixtureRun, ...flags: string[]): Promise<Table> {
  const r = await exec(process.execPath, [CLI, 'report', run.profileFile, '--format', 'accounts', ...flags]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, flags.includes('--sampled') ? /live counts: sampled/ : /live counts: exact\n/);
  return tsv(r.stdout);
}

const num = (t: Table, account: string, cls: string, col: string): number | undefined => {
  const row = t.rows.find((r) => r.account === account && r.class === cls);
  return row === undefined ? undefined : Number(row[col]);
};

for (const jdk of JDKS) {
  describe(`memory accounts (server) on JDK ${jdk.name}`, () => {
    let run: FixtureRun;
    let accounts: Table;
    before(async () => {
      run = await fx.run(jdk);
      accounts = await report(run);
    });

    it('runs cleanly', () => assertCleanRun(run, 'srv', 'server requests=1200 cached=1200 boots=3 total=24600'));

    it('prints the accounts table with the exact header', () => {
      assert.deepEqual(accounts.header, ['account', 'class', 'allocated_objects', 'allocated_bytes', 'live_objects', 'live_bytes',
        'live_low', 'live_high']);
      assert.deepEqual([...new Set(accounts.rows.map((r) => r.account))].sort(), ['(unaccounted)', 'srv.cache', 'srv.http.*']);
    });

    it('charges exact allocated counts per account and class', () => {
      const want: Array<[string, string, number]> = [
        ['srv.http.*', 'srv.http.Request', 1200], ['srv.http.*', 'srv.http.Scratch', 6000],
        ['srv.http.*', 'srv.xml.Parser', 1], ['srv.http.*', 'srv.cache.Cache', 1],
        ['srv.cache', 'srv.cache.Entry', 1200], ['srv.cache', 'java.lang.Integer', 1072],
        ['(unaccounted)', 'srv.Main$Boot', 3], ['(unaccounted)', 'srv.Main$Boot[]', 1], ['(unaccounted)', 'srv.http.Server', 1],
      ];
      for (const [account, cls, n] of want) assert.equal(num(accounts, account, cls, 'allocated_objects'), n, `${account} ${cls}`);
      const nodes = num(accounts, 'srv.cache', 'java.util.HashMap$Node', 'allocated_objects')!;
      assert.ok(nodes >= 1200 && nodes <= 1201, `HashMap$Node in srv.cache: ${nodes}`);
      assert.equal(num(accounts, 'srv.http.*', 'srv.http.Request', 'allocated_bytes'), 1200 * 16);
    });

    it('charges the XML library to its principal srv.http.*, not to itself or the caller of Server', () => {
      assert.equal(num(accounts, 'srv.http.*', 'srv.xml.Element', 'allocated_objects'), 3600);
      assert.equal(num(accounts, 'srv.http.*', 'srv.xml.Element[]', 'allocated_objects'), 3600);
      const elsewhere = accounts.rows.filter((r) => r.class.startsWith('srv.xml.') && r.account !== 'srv.http.*');
      assert.deepEqual(elsewhere, []);
      assert.ok(!accounts.rows.some((r) => r.account === 'srv.xml' || r.account === 'srv.xml.*'));
    });

    it('refunds short-lived objects after GC and keeps the cache live', () => {
      for (const cls of ['srv.http.Scratch', 'srv.http.Request', 'srv.xml.Element']) {
        const live = num(accounts, 'srv.http.*', cls, 'live_objects')!;
        const allocated = num(accounts, 'srv.http.*', cls, 'allocated_objects')!;
        assert.ok(live <= allocated / 100, `${cls}: live ${live} of ${allocated}`);
      }
      assert.equal(num(accounts, 'srv.cache', 'srv.cache.Entry', 'live_objects'), 1200);
      assert.equal(num(accounts, 'srv.cache', 'srv.cache.Entry', 'live_bytes'), num(accounts, 'srv.cache', 'srv.cache.Entry', 'allocated_bytes'));
      assert.equal(num(accounts, 'srv.cache', 'java.lang.Integer', 'live_objects'), 1072);
    });

    it('takes periodic snapshots and a last one at shutdown', async () => {
      const s = await report(run, '--snapshots');
      const seqs = [...new Set(s.rows.map((r) => r.snapshot))];
      assert.ok(seqs.length >= 4, `${seqs.length} snapshots`);
      const last = s.rows.filter((r) => r.snapshot === seqs[seqs.length - 1]);
      assert.ok(last.every((r) => r.reason === 'shutdown' && r.liveness === 'exact'));
      const cache = s.rows.filter((r) => r.account === 'srv.cache').map((r) => Number(r.live_bytes));
      assert.ok(cache[cache.length - 1] > cache[0], `srv.cache live bytes grew: ${cache.join(',')}`);
    });

    it('names the cache classes as leak suspects, the leaking account on top, with their evidence', async () => {
      const s = await report(run, '--suspects');
      assert.deepEqual(s.header, ['account', 'class', 'live_objects', 'live_bytes', 'growth_objects', 'growth_bytes', 'max_generations',
        'evidence', 'live_series']);
      assert.ok(s.rows.length >= 3, JSON.stringify(s.rows));
      assert.equal(s.rows[0].account, 'srv.cache');
      const entry = s.rows.find((r) => r.class === 'srv.cache.Entry');
      assert.ok(entry && entry.account === 'srv.cache', 'srv.cache.Entry is a suspect');
      const series = entry.live_series.split(',').map(Number);
      assert.equal(series[series.length - 1], 1200);
      assert.ok(series[0] < 1200 && series.every((v, i) => i === 0 || v >= series[i - 1]), entry.live_series);
      assert.ok(Number(entry.max_generations) >= 2, `survived ${entry.max_generations} collections`);
      assert.match(entry.evidence, /^rose in [1-9]\d* of \d+ steps, never fell$/);
      for (const cls of ['java.util.HashMap$Node', 'java.lang.Integer']) {
        assert.ok(s.rows.some((r) => r.account === 'srv.cache' && r.class === cls), `${cls} is a suspect`);
      }
      assert.ok(!s.rows.some((r) => r.account === 'srv.http.*' && r.class.startsWith('srv.')), 'no srv.http class leaks');
    });

    it('auto liveness past its exact budget: every live estimate within allocated, the true cache counts within its stated spread', async () => {
      // liveExactFirst=5000: the first 5,000 objects are tracked one by one, then one in 32 (the default is 100,000)
      const sampled = await runFixture({
        jdk, classpath: [await fx.classes()], mainClass: 'srv.Main', tag: 'server-sampled',
        runArgs: ['--accounts', 'srv.http.*,srv.cache', '--agent-opt', 'snapshotInterval=200', '--agent-opt', 'liveExactFirst=5000'],
        jvmArgs: ['-Dsrv.pause=300'],
      });
      const r = await exec(process.execPath, [CLI, 'report', sampled.profileFile, '--format', 'accounts']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /live counts: exact for the first 5,000 objects, then sampled \(1 in 32 on average, scaled; 95 % intervals\)/);
      const t = tsv(r.stdout);
      for (const row of t.rows) {
        const [alloc, live, lo, hi] = [row.allocated_objects, row.live_objects, row.live_low, row.live_high].map(Number);
        assert.ok(lo <= live && live <= hi && hi <= alloc, `${row.account} ${row.class}: allocated ${alloc}, live ${live} [${lo}, ${hi}]`);
      }
      // The cache is alive at exit: 1200 Entry, 1072 Integer keys. A 95 % interval misses the truth in one run in
      // twenty by definition, and these rows are interleaved with other classes' objects, so their sample counts
      // spread like Poisson's (JDK 25 in CI: 735 [500, 1070] for 1072; 24 runs by hand: 758–1072). So the check is
      // the truth within 5 of the stated standard deviations, σ = (live − low) / 1.96 (the low side: the high one is
      // clamped at the allocated count): a false failure about 6e-7 per row. An exact row (σ = 0) must be exact.
      for (const [cls, truth] of [['srv.cache.Entry', 1200], ['java.lang.Integer', 1072]] as const) {
        const lo = num(t, 'srv.cache', cls, 'live_low')!, hi = num(t, 'srv.cache', cls, 'live_high')!;
        const live = num(t, 'srv.cache', cls, 'live_objects')!;
        const sd = (live - lo) / 1.96;
        assert.ok(Math.abs(truth - live) <= 5 * sd + 0.5, `${cls}: true live ${truth}, estimate ${live} [${lo}, ${hi}]`);
      }
    });

    it('the exact mode derives the same accounts from the call tree (no per-call work), allocations only', async () => {
      const exact = await runFixture({
        jdk, classpath: [await fx.classes()], mainClass: 'srv.Main', tag: 'server-exact',
        runArgs: ['--mode', 'exact', '--accounts', 'srv.http.*,srv.cache'], jvmArgs: ['-Dsrv.pause=10'],
      });
      const r = await exec(process.execPath, [CLI, 'report', exact.profileFile, '--format', 'accounts']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /live counts: off \(exact mode: allocations only\)/);
      const t = tsv(r.stdout);
      for (const row of accounts.rows.filter((x) => x.class.startsWith('srv.'))) {
        assert.equal(num(t, row.account, row.class, 'allocated_objects'), Number(row.allocated_objects), `${row.account} ${row.class}`);
      }
      assert.ok(t.rows.every((x) => x.live_objects === ''), 'live columns are empty');
    });
  });
}
