// Fixture `threads`: four named threads; worker-i allocates (i+1)*100 threads.Item in Main.work.
import * as assert from 'assert/strict';
import { it } from 'node:test';
import { assertUnder, under } from './support/collapsed';
import { assertCleanRun, assertFirstSection, describeRuns, Fixture } from './support/fixture';

const fx = new Fixture({ name: 'threads' });
const WORK = 'threads.Main$Job.run;threads.Main.work';

describeRuns(fx, 'threads', (run) => {
  it('runs cleanly', () => assertCleanRun(run(), 'threads', 'threads total=1000'));

  it('writes the first section the TypeScript writer computes from the same trees', () => assertFirstSection(run()));

  it('counts each thread separately with --threads (100, 200, 300, 400)', async () => {
    const lines = await run().collapsed('objects', true);
    for (let i = 0; i < 4; i++) {
      assertUnder(lines, `thread:worker-${i};${WORK}`, { 'threads.Item': (i + 1) * 100 }, `worker-${i}`);
    }
  });

  it('names every worker thread and the main thread in --threads stacks', async () => {
    const threads = new Set([...(await run().collapsed('objects', true)).keys()].map((k) => k.split(';')[0]));
    for (const name of ['thread:main', 'thread:worker-0', 'thread:worker-1', 'thread:worker-2', 'thread:worker-3']) {
      assert.ok(threads.has(name), `${name} appears (have ${[...threads].join(', ')})`);
    }
    // each worker's tree starts at Job.run (the first profiled method of the thread)
    const arrays = await run().collapsed('arrays', true);
    for (let i = 0; i < 4; i++) assert.deepEqual(under(arrays, `thread:worker-${i};${WORK}`), {});
  });

  it('merges the four identical stacks without --threads: 1000 Items', async () => {
    assertUnder(await run().collapsed('objects'), WORK, { 'threads.Item': 1000 });
  });

  it('keeps one MCT per thread with the right call counts', () => {
    const p = run().profile;
    for (let i = 0; i < 4; i++) {
      const t = p.thread(`worker-${i}`);
      assert.deepEqual((t.root.c ?? []).map((c) => p.frame(c)), ['threads.Main$Job.run'], `worker-${i} root children`);
      assert.equal(p.calls(`worker-${i}`, ['threads.Main$Job.run', 'threads.Main.work']), 1);
      assert.equal(p.calls(`worker-${i}`, ['threads.Main$Job.run', 'threads.Main.work', 'threads.Item.<init>']), (i + 1) * 100);
    }
    assert.equal(p.calls('main', ['threads.Main.main', 'threads.Main$Job.<init>']), 4);
  });
});
