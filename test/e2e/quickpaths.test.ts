// Fixture `quickpaths`: methods that can return before their first call or allocation. With the agent's default
// leaves=skip such an invocation is no call of the tree (the method enters at its first call or allocation,
// agent/…/instrument/EntryPlacement.java); leaves=keep enters every method at its start and counts every call.
import * as assert from 'assert/strict';
import * as path from 'path';
import { describe, it } from 'node:test';
import { RawProfile } from './support/profile';
import { under } from './support/collapsed';
import { CLI, JDKS, PROFILE_DIR } from './support/env';
import { assertCleanRun, describeRuns, Fixture } from './support/fixture';
import { exec } from './support/heaplens';

const fx = new Fixture({ name: 'quickpaths' });
const MAIN = 'quickpaths.Main.main';
const OUTPUT = 'quickpaths labels=100000 made=5000 depth=3';

describeRuns(fx, 'quickpaths (leaves=skip, the default)', (run) => {
  it('runs cleanly', () => assertCleanRun(run(), 'quickpaths', OUTPUT));

  it('counts only the invocations that allocated, with everything they allocated', async () => {
    const p = run().profile;
    assert.equal(p.calls('main', [MAIN, 'quickpaths.Main.numeric']), 100_000, 'one in three values is wrapped');
    assert.deepEqual(under(await run().collapsed('objects'), `${MAIN};quickpaths.Main.numeric`),
      { 'quickpaths.Main$Label': 100_000 });
    assert.equal(p.calls('main', [MAIN, 'quickpaths.Main.numeric', 'quickpaths.Main$Label.<init>']), 100_000);
  });

  it('enters a method once at its first allocation inside a loop', async () => {
    assert.equal(run().profile.calls('main', [MAIN, 'quickpaths.Main.everyThird']), 1_000, 'everyThird(0) allocated nothing');
    assert.deepEqual(under(await run().collapsed('arrays'), `${MAIN};quickpaths.Main.everyThird`), { 'int[]': 2_000 });
    assert.deepEqual(under(await run().collapsed('elements'), `${MAIN};quickpaths.Main.everyThird`), { 'int[]': 5_000 });
  });

  it('gives the innermost call of a recursion that returns at once no node', () => {
    const p = run().profile;
    const d = 'quickpaths.Main.depth';
    assert.equal(p.calls('main', [MAIN, d, d, d]), 1);
    assert.equal(p.nodes('main', [MAIN, d, d, d, d]).length, 0);
  });

  it('leaves nothing charged to main itself but its own string', async () => {
    const own = Object.keys(under(await run().collapsed('objects'), MAIN)).filter((k) => !k.includes(';'));
    assert.ok(!own.includes('quickpaths.Main$Label'), `main's own objects: ${own.join(', ')}`);
  });
});

for (const jdk of JDKS) {
  describe(`quickpaths with leaves=keep on JDK ${jdk.name}`, () => {
    it('counts every invocation again', async () => {
      const classes = await fx.classes();
      const out = path.join(PROFILE_DIR, `quickpaths-keep-jdk${jdk.name}.heaplens`);
      const r = await exec(process.execPath, [CLI, 'run', '--java', jdk.java, '--out', out, '--agent-opt', 'leaves=keep',
        '--', '-cp', classes, 'quickpaths.Main']);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.stdout.includes(OUTPUT), r.stdout);
      const p = new RawProfile(out);
      assert.equal(p.calls('main', [MAIN, 'quickpaths.Main.numeric']), 300_000);
      assert.equal(p.calls('main', [MAIN, 'quickpaths.Main.everyThird']), 2_000);
      const d = 'quickpaths.Main.depth';
      assert.equal(p.calls('main', [MAIN, d, d, d, d]), 1);
    });
  });
}
