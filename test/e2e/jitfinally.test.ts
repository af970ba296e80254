// Fixture `jitfinally`: a try/catch/finally method stays compilable by C1. javac's exception table covers the start
// of the finally handler with that same handler; the probe the agent puts at the start of each handler used to make
// that first block able to throw into itself, and C1 then refused the whole method ("COMPILE SKIPPED: exception
// handler covers itself"), leaving the hottest methods of programs such as xalan interpreted until C2 took them.
import * as assert from 'assert/strict';
import { it } from 'node:test';
import { under } from './support/collapsed';
import { assertCleanRun, describeRuns, Fixture } from './support/fixture';

const fx = new Fixture({
  name: 'jitfinally',
  jvmArgs: ['-XX:+PrintCompilation', '-XX:CompileCommand=quiet', '-XX:CompileCommand=BackgroundCompilation,jitfinally.Main::*,false'],
});
const MAIN = 'jitfinally.Main.main';

describeRuns(fx, 'jitfinally (C1 and try/catch/finally)', (run) => {
  it('runs cleanly', () => assertCleanRun(run(), 'jitfinally', 'jitfinally sum=70000 finallies=20000'));

  it('C1 compiles the try/catch/finally method; no compile is refused for a self-covering handler', () => {
    const out = run().run.stdout;
    const lines = out.split('\n');
    const refused = lines.filter((l) => /covers itself/.test(l));
    assert.deepEqual(refused, [], 'PrintCompilation reported refused compiles');
    // PrintCompilation: timestamp, compile id, flags, tier, method; tiers 1-3 are C1
    const c1 = lines.filter((l) => /^\s*\d+\s+\d+\s+[%sbn! ]*[123]\s+jitfinally\.Main::guarded /.test(l) && !/made not entrant|made zombie/.test(l));
    assert.ok(c1.length >= 1, `no C1 compile of jitfinally.Main::guarded in:\n${lines.filter((l) => l.includes('jitfinally')).join('\n')}`);
  });

  it('counts stay exact: 20000 calls each, 20000 int[] in work', async () => {
    const p = run().profile;
    assert.equal(p.calls('main', [MAIN, 'jitfinally.Main.guarded']), 20_000);
    assert.equal(p.calls('main', [MAIN, 'jitfinally.Main.guarded', 'jitfinally.Main.work']), 20_000);
    const arrays = under(await run().collapsed('arrays'), `${MAIN};jitfinally.Main.guarded`);
    assert.deepEqual(arrays, { 'jitfinally.Main.work;int[]': 20_000 });
  });
});
