// The memory chart's data on real JVMs (JDK 17 and 25): the agent's MemorySampler writes heap samples, the
// collections the JVM notified (the fixture's System.gc() among them) and the allocation counter into the profile.
import * as assert from 'assert/strict';
import { before, describe, it } from 'node:test';
import { memoryOf, memorySeries, MemorySection } from '../../core/profile/memory';
import { JDKS } from './support/env';
import { compileFixture, runFixture } from './support/heaplens';
import { loadProfile } from '../../core/profile/load';

for (const jdk of JDKS) {
  describe(`memory chart (JDK ${jdk.name})`, () => {
    let memory: MemorySection;
    let start = 0;
    let end = 0;
    before(async () => {
      const classes = await compileFixture('memchart', { jdk, release: 17 });
      const run = await runFixture({ jdk, classpath: [classes], mainClass: 'memchart.Main', tag: 'memchart', jvmArgs: ['-Xmx256m'] });
      assert.match(run.run.stdout, /arrays true, collected true/);
      const p = loadProfile(run.profileFile);
      memory = memoryOf(p.file)!;
      start = p.file.meta.startTime;
      end = p.file.meta.writeTime;
    });

    it('samples every 500 ms (the start, the run, the end): used within committed within max', () => {
      assert.equal(memory.intervalMillis, 500);
      // one at the start, one at the final write, and periodic ones in between (3 s of the fixture's CPU time, so a
      // loaded machine stretches the run rather than leaving the collector no time)
      assert.ok(memory.samples.length >= 3, `${memory.samples.length} samples`);
      for (let i = 1; i < memory.samples.length; i++) assert.ok(memory.samples[i][0] >= memory.samples[i - 1][0], 'in time order');
      for (const [time, used, committed, max] of memory.samples) {
        assert.ok(time >= start - 1000 && time <= end + 1000, `sample time ${time} within the run ${start}–${end}`);
        assert.ok(used > 0 && used <= committed, `used ${used} ≤ committed ${committed}`);
        assert.ok(committed <= max, `committed ${committed} ≤ max ${max} (-Xmx256m)`);
        assert.ok(max <= 256 * 1024 * 1024 + 16 * 1024 * 1024, `max ${max}`);
      }
    });

    it('records the fixture\'s System.gc() with its duration and the heap before and after', () => {
      const full = memory.gcs.filter((g) => g[3] === 'System.gc()');
      assert.ok(full.length >= 1, `collections: ${memory.gcs.map((g) => `${g[2]} (${g[3]})`).join(', ')}`);
      const [time, millis, , , usedBefore, usedAfter] = full[0];
      assert.ok(time >= start && time <= end, `collection at ${time}, run ${start}–${end}`);
      assert.ok(millis >= 0 && usedBefore > 0 && usedAfter >= 0);
      const s = memorySeries(memory);
      assert.ok(s.gcCount >= full.length, `${s.gcCount} collections counted`);
    });

    it('counts the bytes allocated: 4 KiB arrays for 3 s make the counter climb by megabytes', () => {
      const first = memory.samples[0][4];
      const last = memory.samples[memory.samples.length - 1][4];
      assert.ok(first >= 0, 'HotSpot reports allocated bytes');
      assert.ok(last - first > 16 * 1024 * 1024, `allocated ${first} → ${last}`);
      assert.ok(memorySeries(memory).allocationRate.some((r) => r > 1024 * 1024), 'a rate above 1 MiB/s');
    });
  });
}
