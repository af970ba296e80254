// Fixture `catchblock`: allocations in catch/finally handlers after exceptions unwound deeper frames.
import * as assert from 'assert/strict';
import { it } from 'node:test';
import { assertUnder, sumType, under } from './support/collapsed';
import { assertCleanRun, describeRuns, Fixture } from './support/fixture';

const fx = new Fixture({ name: 'catchblock' });
const RUN = 'catchblock.Main.main;catchblock.Main.run';
const APP = `${RUN};catchblock.Main.appCatcher`;
const JDK = `${RUN};catchblock.Main.jdkCatcher`;

describeRuns(fx, 'catchblock', (run) => {
  it('runs cleanly', () => assertCleanRun(run(), 'catchblock', 'catchblock caught=5'));

  it('exception from an app method: catch-block allocation charged to the catching method', async () => {
    assertUnder(await run().collapsed('objects'), APP, {
      'catchblock.Marker': 3,
      'catchblock.Main.thrower;catchblock.Main.deeper;java.lang.IllegalStateException': 3,
      'catchblock.Main.thrower;catchblock.Main.cleanup;catchblock.Cleanup': 3,
      'catchblock.Main.after;catchblock.AfterWork': 3,
    });
    assertUnder(await run().collapsed('arrays'), APP, {});
  });

  it('exception from JDK code (Integer.parseInt("x")): charged to the catching method', async () => {
    const objects = await run().collapsed('objects');
    const got = under(objects, JDK);
    assert.equal(got['catchblock.Marker'], 2, 'Marker in the catch block');
    assert.equal(got['java.lang.NumberFormatException'], 2, 'the exception built in JDK code');
    assert.equal(got['catchblock.Main.after;catchblock.AfterWork'], 2, 'after() is a child of jdkCatcher');
    // everything below jdkCatcher is after() (no JDK frame, no other callee)
    for (const k of Object.keys(got)) {
      if (k.includes(';')) assert.equal(k, 'catchblock.Main.after;catchblock.AfterWork', `unexpected deeper line ${k}`);
    }
  });

  it('restores the call tree at each handler: callees after the catch are children of the catcher', () => {
    const p = run().profile;
    const base = ['catchblock.Main.main', 'catchblock.Main.run'];
    assert.equal(p.calls('main', [...base, 'catchblock.Main.appCatcher']), 3);
    assert.equal(p.calls('main', [...base, 'catchblock.Main.appCatcher', 'catchblock.Main.thrower']), 3);
    assert.equal(p.calls('main', [...base, 'catchblock.Main.appCatcher', 'catchblock.Main.thrower', 'catchblock.Main.deeper']), 3);
    assert.equal(p.calls('main', [...base, 'catchblock.Main.appCatcher', 'catchblock.Main.thrower', 'catchblock.Main.cleanup']), 3);
    assert.equal(p.calls('main', [...base, 'catchblock.Main.appCatcher', 'catchblock.Main.after']), 3);
    assert.equal(p.calls('main', [...base, 'catchblock.Main.jdkCatcher']), 2);
    assert.equal(p.calls('main', [...base, 'catchblock.Main.jdkCatcher', 'catchblock.Main.after']), 2);
    // appCatcher loop continues in run: run has exactly the two catcher children
    const runNode = p.nodes('main', base)[0];
    assert.deepEqual((runNode.c ?? []).map((c) => p.frame(c)).sort(),
      ['catchblock.Main.appCatcher', 'catchblock.Main.jdkCatcher'].sort());
    // and nothing ever landed below deeper (no callee there)
    const deeper = p.nodes('main', [...base, 'catchblock.Main.appCatcher', 'catchblock.Main.thrower', 'catchblock.Main.deeper'])[0];
    assert.deepEqual(deeper.c ?? [], []);
  });

  it('no Marker, Cleanup or AfterWork is charged anywhere else in run', async () => {
    const objects = await run().collapsed('objects');
    assert.equal(sumType(objects, 'catchblock.Marker', 'catchblock.Main.run'), 5);
    assert.equal(sumType(objects, 'catchblock.AfterWork', 'catchblock.Main.run'), 5);
    assert.equal(sumType(objects, 'catchblock.Cleanup', 'catchblock.Main.run'), 3);
  });
});
