// Fixture `contended`: the estimated size of objects whose class (or a superclass) is a JDK class with @Contended
// fields equals the JVM's own, as its class histogram reports it (bytes ÷ instances). HotSpot pads each contention
// group of a boot or platform class by ContendedPaddingWidth (128) bytes and the fields once more after them, and
// starts a subclass's fields after them (JDK 17: at the next aligned offset). Before, the agent left the padding out: ForkJoinPool 80
// bytes where the JVM says 336 (JDK 17), 104 where it says 360 (JDK 25); the subclass Pool 88 / 104 where it says
// 344 / 360; JDK 17's java.lang.Thread 112 where the JVM says 368 (found comparing the smoke run allocation by
// allocation, docs/reliability.md §2h).
import * as assert from 'assert/strict';
import { it } from 'node:test';
import { sumType } from './support/collapsed';
import { describeRuns, Fixture } from './support/fixture';

const fx = new Fixture({ name: 'contended' });

describeRuns(fx, 'contended', (run) => {
  const jvmSize = (cls: 'ForkJoinPool' | 'Pool'): number => {
    const m = /contended ForkJoinPool=(\d+) Pool=(\d+) made=15/.exec(run().run.stdout);
    assert.ok(m, `the fixture's output line; stdout was:\n${run().run.stdout}\nstderr:\n${run().run.stderr}`);
    return Number(cls === 'ForkJoinPool' ? m[1] : m[2]);
  };
  const profileSize = (name: string): number => {
    const t = (run().profile.json.types as Array<{ name: string; size?: number | null }>).find((x) => x.name === name);
    assert.ok(t, `type ${name} in the profile`);
    return Number(t.size);
  };

  it('runs cleanly and counts the objects', async () => {
    jvmSize('ForkJoinPool');
    const objects = await run().collapsed('objects');
    // 10 made by the fixture + the common pool, made by ForkJoinPool.<clinit> in the first `new ForkJoinPool(1)`
    assert.equal(sumType(objects, 'java.util.concurrent.ForkJoinPool', 'contended.Main.pools'), 11);
    assert.equal(sumType(objects, 'contended.Main$Pool', 'contended.Main.ownPools'), 5);
  });

  it('sizes ForkJoinPool as the JVM lays it out, @Contended padding included', () => {
    assert.ok(jvmSize('ForkJoinPool') > 256, `the JVM's ForkJoinPool size ${jvmSize('ForkJoinPool')} includes two paddings of 128 bytes`);
    assert.equal(profileSize('java.util.concurrent.ForkJoinPool'), jvmSize('ForkJoinPool'));
  });

  it('sizes an application class that extends ForkJoinPool as the JVM lays it out', () => {
    assert.equal(profileSize('contended.Main$Pool'), jvmSize('Pool'));
  });
});
