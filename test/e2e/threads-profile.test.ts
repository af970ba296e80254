// Fixture `monitors` with the agent's threads profiler (heaplens run --threads): the CPU tree charges the
// spinning thread and not the sleeping ones; a contended lock with its waiting threads and counts; a deadlock
// naming both threads and both locks, in the profile file and as a live channel event. The CPU samples in the
// flame tree: the views' data (webview/data.ts) and the HTML report in headless Chromium, with a screenshot.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { before, describe, it } from 'node:test';
import { ChannelClient } from '../../extension/channel/client';
import { runningSessions } from '../../extension/cli/sessions';
import { Deadlock, ThreadsProfile, selfByFrame } from '../../core/profile/threads-profile';
import { findPath } from '../../core/views/frames';
import { ProfileFile } from '../../core/profile/types';
import { ProfileData } from '../../webview/data';
import { pathToFileURL } from 'url';
import { chromium, findChromium } from './support/chromium';
import { CLI, JDK17, JDKS, PROFILE_DIR, ROOT } from './support/env';
import { compileFixture, exec } from './support/heaplens';
import { startRun } from './support/spawn-run';

let classes: string;
before(async () => {
  classes = await compileFixture('monitors', { jdk: JDK17, release: 17 });
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
});

function profilePath(jdk: { name: string }, name: string): string {
  return path.join(PROFILE_DIR, `monitors-${name}-jdk${jdk.name}.heaplens`);
}

async function scenario(jdk: { name: string; java: string }, name: string): Promise<ThreadsProfile> {
  const out = profilePath(jdk, name);
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
      assertCpuFlame(JSON.parse(fs.readFileSync(profilePath(jdk, 'cpu'), 'utf8')) as ProfileFile, spin);
    });

    it('CPU samples in the HTML report\'s flame tree (headless Chromium), with a screenshot', { skip: findChromium() ? false : 'no Chromium' }, async () => {
      const file = JSON.parse(fs.readFileSync(profilePath(jdk, 'cpu'), 'utf8')) as ProfileFile;
      const burner = file.threadsProfile!.threads.find((t) => t.name === 'burner')!;
      const html = path.join(PROFILE_DIR, `monitors-cpu-jdk${jdk.name}.html`);
      const r = await exec(process.execPath, [CLI, 'report', profilePath(jdk, 'cpu'), '--format', 'html', '-o', html]);
      assert.equal(r.code, 0, r.stderr);
      const url = `${pathToFileURL(html).href}#metric=samples&thread=${burner.id}&mycode=1`;
      const page = (await chromium(url, ['--dump-dom', '--window-size=1400,900'])).stdout;
      assert.ok(page.includes('data-zoom="burner"'), 'the flame tree shows the burner thread');
      const frames = [...page.matchAll(/<li data-frame="([^"]+)">([^<]*)</g)].map((m) => [m[1], m[2]]);
      // only my code: Thread.run folds away, Burner.run is the top frame with (nearly: a sample at the thread's start
      // may have no Burner.run yet) all of the thread's samples
      assert.equal(frames[0]?.[0], 'monitors.Main$Burner.run', JSON.stringify(frames));
      const n = Number(/: ([\d,]+) CPU samples \(/.exec(frames[0][1])?.[1].replace(/,/g, '') ?? 0);
      assert.ok(n <= burner.samples && n >= burner.samples - 2, `${frames[0][1]} (the thread has ${burner.samples})`);
      const note = /class="cpu-note"[^>]*>([^<]*)</.exec(page)?.[1] ?? '(no note)';
      assert.match(note, new RegExp(`^CPU samples, one every 5 ms, charged only to threads that used CPU in the interval — not allocations .*"burner": ${burner.samples} samples`), note);
      assert.match(page, /<span class="data-label">Data: CPU samples of the threads profile/, 'the data line names the CPU samples');
      assert.ok(Number(/data-painted="(\d+)"/.exec(page)?.[1] ?? 0) >= 3, 'frames painted on the canvas');
      const shot = path.join(ROOT, 'build', 'shots', `cpu-flame-jdk${jdk.name}.png`);
      fs.mkdirSync(path.dirname(shot), { recursive: true });
      fs.rmSync(shot, { force: true });
      await chromium(`${pathToFileURL(html).href}#metric=samples&thread=-1`, [`--screenshot=${shot}`, '--window-size=1400,800', '--hide-scrollbars']);
      assert.ok(fs.existsSync(shot) && fs.statSync(shot).size > 10_000, `screenshot ${shot}`);
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

/** The flame tab's CPU data for the monitors profile: the burner's tree and the merge of all threads. */
function assertCpuFlame(file: ProfileFile, spinSelf: number): void {
  const d = new ProfileData(file, 'monitors');
  const cpu = d.cpu();
  assert.ok(cpu, 'the views have CPU data');
  const burner = d.threads(true).find((t) => t.name === 'burner')!;
  assert.ok(burner, `CPU threads: ${d.threads(true).map((t) => t.name).join(', ')}`);
  assert.ok(d.threads(true).every((t) => file.threadsProfile!.threads.find((x) => x.id === t.id)!.samples > 0), 'only threads with samples');
  const methods = d.methods(true);
  const idOf = (frame: string): number => [...methods.values()].find((m) => `${m.class}.${m.name}` === frame)!.id;
  const spin = idOf('monitors.Main.spin');
  const run = idOf('monitors.Main$Burner.run');
  const o = { thread: burner.id, myCode: false, collapseRecursion: false, inverted: false, cpu: true };
  const samples = file.threadsProfile!.threads.find((t) => t.id === burner.id)!.samples;
  const tree = d.tree(o);
  assert.equal(tree.total.samples[0], samples, 'the burner tree holds all of its samples');
  // Thread.run → (JDK 21+: Thread.runWith →) Burner.run → spin
  const at = [...tree.method.keys()].find((i) => tree.method[i] === spin && tree.method[tree.parent[i]] === run) ?? -1;
  // the path to spin starts at Thread.run (which child of the root comes first depends on the first sample taken)
  let top = at;
  while (top > 0 && tree.parent[top] !== 0) top = tree.parent[top];
  const roots = [...tree.method.keys()].filter((i) => i > 0 && tree.parent[i] === 0).map((i) => methods.get(tree.method[i])?.name);
  assert.ok(at > 0 && tree.method[top] === idOf('java.lang.Thread.run'), `Thread.run … Burner.run → spin (the root's children: ${roots.join(', ')})`);
  assert.equal(tree.self.samples[at], spinSelf, 'spin has the samples the threads profile charged it');
  // only my code: spin (a method the agent never registered, in an instrumented class) is my code, under Burner.run
  const mine = d.tree({ ...o, myCode: true });
  assert.equal(mine.self.samples[findPath(mine, [run, spin])], spinSelf);
  // all threads merged: every sample, spin's only from the burner
  const all = d.tree({ ...o, thread: -1 });
  assert.equal(all.total.samples[0], file.threadsProfile!.threads.reduce((n, t) => n + t.samples, 0));
  const inv = d.tree({ ...o, thread: -1, inverted: true });
  assert.equal(inv.total.samples[findPath(inv, [spin])], spinSelf, 'inverted: spin on top with its self samples');
  // the allocation tree is unchanged by the CPU data
  assert.equal(d.tree({ ...o, cpu: false, thread: -1 }).total.samples[0], 0);
}
