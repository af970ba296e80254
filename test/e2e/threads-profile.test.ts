// Fixture `monitors` with the agent's threads profiler (heaplens run --threads): the CPU tree charges the
// spinning thread and not the sleeping ones; a contended lock with its waiting threads and counts; a deadlock
// naming both threads and both locks, in the profile file and as a live channel event.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { before, describe, it } from 'node:test';
import { ChannelClient } from '../../extension/channel/client';
import { runningSessions } from '../../extension/cli/sessions';
import { Deadlock, ThreadsProfile, selfByFrame } from '../../extension/model/threads-profile';
import { CLI, JDK17, JDKS, PROFILE_DIR } from './support/env';
import { compileFixture, exec } from './support/heaplens';
import { startRun } from './support/spawn-run';

let classes: string;
before(async () => {
  classes = await compileFixture('monitors', { jdk: JDK17, release: 17 });
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
});

async function scenario(jdk: { name: string; java: string }, name: string): Promise<ThreadsProfile> {
  const out = path.join(PROFILE_DIR, `monitors-${name}-jdk${jdk.name}.heaplens`);
  const r = await exec(process.execPath, [CLI, 'run', '--threads', '--java', jdk.java, '--out', out, '--', '-cp', classes, 'monitors.Main', name]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`monitors: ${name} done`));
  const tp = JSON.parse(fs.readFileSync(out, 'utf8')).threadsProfile as ThreadsProfile;
  assert.ok(tp, 'the profile has a threadsProfile section');
  return tp;
}

for (const jdk of JDKS) {
  describe(`threads profiler on JDK ${jdk.name}`, () => {
    it('CPU samples: the spinning thread is charged, the sleeping threads are not', async () => {
      const tp = await scenario(jdk, 'cpu');
      const burner = tp.threads.find((t) => t.name === 'burner')!;
      const sleepers = tp.threads.filter((t) => t.name.startsWith('sleeper-'));
      assert.equal(sleepers.length, 3);
      assert.ok(burner.samples >= 20, `burner samples ${burner.samples}`);
      for (const s of sleepers) assert.ok(s.samples <= 2, `${s.name} has ${s.samples} samples (it sleeps)`);
      const self = selfByFrame(burner.cpu);
      const spin = self.get('monitors.Main.spin') ?? 0;
      assert.ok(spin >= burner.samples / 2, `spin self samples ${spin} of ${burner.samples}: ${JSON.stringify([...self])}`);
    });

    it('monitor contention: the lock, the waiting threads and their counts', async () => {
      const tp = await scenario(jdk, 'contended');
      const lock = tp.locks.find((l) => l.lock.startsWith('monitors.SharedLock@'));
      assert.ok(lock, `locks: ${tp.locks.map((l) => l.lock).join(', ')}`);
      const waiters = lock.waiters.filter((w) => /^worker-\d$/.test(w.thread) && w.observations > 0);
      assert.ok(waiters.length >= 2, JSON.stringify(lock.waiters));
      assert.ok(lock.episodes > 0);
      assert.ok(lock.owners.every((o) => /^worker-\d$/.test(o)) && lock.owners.length > 0);
      assert.match(lock.stacks[0].frames[0], /^monitors\.SharedLock\.hold/);
      const blocked = tp.threads.filter((t) => t.name.startsWith('worker-')).reduce((n, t) => n + t.blockedCount, 0);
      assert.ok(blocked >= lock.episodes, `workers blocked ${blocked} times`);
    });

    it('deadlock: both threads and both locks, with their stacks, in the profile', async () => {
      const tp = await scenario(jdk, 'deadlock');
      assert.equal(tp.deadlocks.length, 1);
      assertCycle(tp.deadlocks[0]);
    });

    it('deadlock: a live channel event for a client that connects', async () => {
      const run = startRun(['--threads', '--java', jdk.java, '--out', path.join(PROFILE_DIR, `monitors-live-jdk${jdk.name}.heaplens`),
        '--', '-cp', classes, 'monitors.Main', 'deadlock', '20000']);
      try {
        let session;
        for (let i = 0; i < 1200 && !session; i++) {   // up to 60 s: JVM start and retransformation under load
          session = runningSessions(run.env)[0];
          if (!session) await new Promise((r) => setTimeout(r, 50));
        }
        assert.ok(session, 'the run has a session with an open channel');
        const client = await ChannelClient.connect({ port: session.port, token: session.token, client: 'e2e' });
        try {
          const d = await new Promise<Deadlock>((resolve, reject) => {
            const t = setTimeout(() => reject(new Error('no deadlock event within 40 s')), 40_000);
            client.on('event', (e: { event: string; deadlock?: Deadlock }) => {
              if (e.event === 'deadlock' && e.deadlock) { clearTimeout(t); resolve(e.deadlock); }
            });
          });
          assertCycle(d);
        } finally {
          client.close();
        }
      } finally {
        run.child.kill('SIGTERM');
        await run.exit;
      }
    });
  });
}

function assertCycle(d: Deadlock): void {
  const byName = new Map(d.threads.map((t) => [t.name, t]));
  const alice = byName.get('alice')!;
  const bob = byName.get('bob')!;
  assert.ok(alice && bob, `threads: ${[...byName.keys()].join(', ')}`);
  assert.match(alice.waitsFor ?? '', /^monitors\.LockB@/);
  assert.match(bob.waitsFor ?? '', /^monitors\.LockA@/);
  assert.equal(alice.heldBy, 'bob');
  assert.equal(bob.heldBy, 'alice');
  assert.ok(alice.holds.some((h) => h.startsWith('monitors.LockA@')), alice.holds.join());
  assert.ok(bob.holds.some((h) => h.startsWith('monitors.LockB@')), bob.holds.join());
  assert.ok(alice.stack.some((f) => f.startsWith('monitors.LockA.thenB')), alice.stack.join('\n'));
  assert.ok(bob.stack.some((f) => f.startsWith('monitors.LockB.thenA')), bob.stack.join('\n'));
}
