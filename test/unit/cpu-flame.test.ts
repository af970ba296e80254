// CPU samples in the flame tree: a hand-made threads profile with known stacks → known sample counts per
// calling context, per thread and merged, through the flame view's transforms, and the CPU exports.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cpuProfile, splitFrame } from '../../core/views/cpu-flame';
import { cpuCollapsed, cpuExportText, cpuSpeedscope } from '../../core/export/cpu-export';
import { findPath, frameTree, FrameTree } from '../../core/views/frames';
import { isMyCode } from '../../core/profile/names';
import { CpuNodeFile, ThreadsProfile } from '../../core/profile/threads-profile';
import { collapseRecursion, foldFrames, invert, mergeAll } from '../../core/views/transform';
import { ProfileFile } from '../../core/profile/types';
import { fileOf, method, objType, profileOf, site } from './helpers';

const f = (frame: string, s?: number, ...c: CpuNodeFile[]): CpuNodeFile => ({ f: frame, ...(s ? { s, ns: s * 4_000_000 } : {}), ...(c.length ? { c } : {}) });

// ids 1-5 are the agent's; spin is overloaded (the CPU frame names the lower id)
const METHODS = [
  method(1, 'app.Main', 'main'), method(2, 'app.Main', 'run'),
  method(3, 'app.Main', 'spin', { desc: '(I)J' }), method(4, 'app.Main', 'spin', { desc: '(J)J' }),
  method(5, 'java.lang.Thread', 'run', { profiled: false }),
];
const RUN = 2, SPIN = 3, JRUN = 5;

function threadsProfile(): ThreadsProfile {
  const cpu = (id: number, name: string, samples: number, root: CpuNodeFile) => ({
    id, name, samples, cpuNanos: samples * 4_000_000, blockedCount: 0, blockedMillis: 0, waitedCount: 0, waitedMillis: 0, cpu: root,
  });
  return {
    intervalMillis: 5, ticks: 40, samples: 12, locks: [], deadlocks: [],
    threads: [
      // burner: run 1 self, spin 5, System.nanoTime (never registered, JDK) 1
      cpu(10, 'burner', 7, f('<thread>', 0, f('java.lang.Thread.run', 0, f('app.Main.run', 1, f('app.Main.spin', 5), f('java.lang.System.nanoTime', 1))))),
      // worker: spin 2 with a recursive spin 1, app.Util.hash (class not instrumented) 1, app.Main.helper (instrumented class) 1
      cpu(11, 'worker', 5, f('<thread>', 0, f('java.lang.Thread.run', 0, f('app.Main.run', 0,
        f('app.Main.spin', 2, f('app.Main.spin', 1)), f('app.Util.hash', 1), f('app.Main.helper', 1))))),
      cpu(12, 'sleeper', 0, f('<thread>')),
    ],
  };
}

function file(): ProfileFile {
  const fl = fileOf({
    types: [objType(1, 'app.Item', 16)], methods: METHODS, sites: [site(1, RUN, 1)],
    threads: [
      { id: 1, name: 'main', daemon: false, alive: false, root: { c: [{ m: 1, calls: 1, c: [{ m: RUN, calls: 2, a: [[1, 1, 3, 0, 48]] }] }] } },
      { id: 10, name: 'burner', daemon: true, alive: true, root: {} },
    ],
  });
  fl.threadsProfile = threadsProfile();
  return fl;
}

/** self and total samples of the node at the method path, or undefined when the tree has no such node. */
function at(t: FrameTree, path: number[]): [number, number] | undefined {
  const i = findPath(t, path);
  return i < 0 ? undefined : [t.self.samples[i], t.total.samples[i]];
}

const base = () => profileOf({ types: [objType(1, 'app.Item', 16)], methods: METHODS });

test('cpu frames: class and method split at the last dot (nested and hidden classes keep theirs)', () => {
  assert.deepEqual(splitFrame('pkg.Outer$Inner.run'), { class: 'pkg.Outer$Inner', name: 'run' });
  assert.deepEqual(splitFrame('pkg.Main$$Lambda/0x0000000800c03000.run'), { class: 'pkg.Main$$Lambda/0x0000000800c03000', name: 'run' });
  assert.deepEqual(splitFrame('noDot'), { class: '', name: 'noDot' });
});

test('cpu profile: one thread per thread with samples; frames matched to methods, new methods for the rest', () => {
  const c = cpuProfile(base(), threadsProfile())!;
  assert.equal(c.intervalMillis, 5);
  assert.equal(c.samples, 12);
  assert.deepEqual(c.profile.threads.map((t) => [t.id, t.name]), [[10, 'burner'], [11, 'worker']], 'the sleeper has no samples');
  const m = c.profile.methods;
  // new ids continue after the profile's highest (5), in the order the frames are first met
  assert.deepEqual([...m.values()].filter((e) => e.id > 5).map((e) => [e.id, e.class, e.name, e.desc, e.profiled]), [
    [6, 'java.lang.System', 'nanoTime', '', false],
    [7, 'app.Util', 'hash', '', false],
    [8, 'app.Main', 'helper', '', true],
  ]);
  assert.equal(m.size, 8);
  assert.equal(base().methods.size, 5, 'the profile\'s own methods are not changed');
  assert.equal(cpuProfile(base(), undefined), undefined);
  assert.equal(cpuProfile(base(), { ...threadsProfile(), threads: [threadsProfile().threads[2]] }), undefined, 'no samples at all');
});

test('cpu flame tree per thread and merged: known samples per calling context', () => {
  const c = cpuProfile(base(), threadsProfile())!;
  const [burner, worker] = c.profile.threads;
  const tb = frameTree(burner.root, c.profile.methods, c.profile.types);
  assert.deepEqual(at(tb, []), [0, 7]);
  assert.deepEqual(at(tb, [JRUN]), [0, 7]);
  assert.deepEqual(at(tb, [JRUN, RUN]), [1, 7]);
  assert.deepEqual(at(tb, [JRUN, RUN, SPIN]), [5, 5]);
  assert.deepEqual(at(tb, [JRUN, RUN, 6]), [1, 1]);
  assert.equal(tb.total.objects[0] + tb.total.calls[0], 0, 'no allocation figures in a CPU tree');
  const tw = frameTree(worker.root, c.profile.methods, c.profile.types);
  assert.deepEqual(at(tw, [JRUN, RUN, SPIN]), [2, 3]);
  assert.deepEqual(at(tw, [JRUN, RUN, SPIN, SPIN]), [1, 1]);
  const merged = frameTree(mergeAll(c.profile.threads.map((t) => t.root)), c.profile.methods, c.profile.types);
  assert.deepEqual(at(merged, []), [0, 12]);
  assert.deepEqual(at(merged, [JRUN, RUN]), [1, 12]);
  assert.deepEqual(at(merged, [JRUN, RUN, SPIN]), [7, 8]);
  assert.deepEqual(at(merged, [JRUN, RUN, 7]), [1, 1]);
  assert.deepEqual(at(merged, [JRUN, RUN, 8]), [1, 1]);
  assert.equal(merged.n, 8, 'root, Thread.run, run, spin, spin, nanoTime, hash, helper');
});

test('cpu flame tree through the transforms: only my code, collapse recursion, inverted keep the samples', () => {
  const c = cpuProfile(base(), threadsProfile())!;
  const all = mergeAll(c.profile.threads.map((t) => t.root));
  const tree = (root: typeof all) => frameTree(root, c.profile.methods, c.profile.types);
  // only my code: Thread.run vanishes; nanoTime's and Util.hash's samples go to their caller run
  const mine = tree(foldFrames(all, (id) => isMyCode(c.profile.methods.get(id))));
  assert.deepEqual(at(mine, [RUN]), [3, 12]);
  assert.deepEqual(at(mine, [RUN, SPIN]), [7, 8]);
  assert.deepEqual(at(mine, [RUN, 8]), [1, 1], 'helper is in an instrumented class: my code');
  assert.equal(at(mine, [RUN, 6]), undefined);
  const flat = tree(collapseRecursion(all));
  assert.deepEqual(at(flat, [JRUN, RUN, SPIN]), [8, 8]);
  assert.equal(at(flat, [JRUN, RUN, SPIN, SPIN]), undefined);
  const inv = tree(invert(all));
  // a context's samples are charged at the end of its reversed path (the thread's first frame), as allocations are
  assert.deepEqual(at(inv, [SPIN]), [0, 8], 'spin is on top of 8 samples');
  assert.deepEqual(at(inv, [SPIN, RUN, JRUN]), [7, 7]);
  assert.deepEqual(at(inv, [SPIN, RUN]), [0, 7]);
  assert.deepEqual(at(inv, [SPIN, SPIN, RUN]), [0, 1]);
  assert.deepEqual(at(inv, [RUN]), [0, 1]);
  assert.deepEqual(at(inv, []), [0, 12]);
});

test('cpu exports: collapsed stacks and speedscope weighted by samples', () => {
  const tp = threadsProfile();
  assert.deepEqual(cpuCollapsed(tp), [
    'java.lang.Thread.run;app.Main.run 1',
    'java.lang.Thread.run;app.Main.run;app.Main.helper 1',
    'java.lang.Thread.run;app.Main.run;app.Main.spin 7',
    'java.lang.Thread.run;app.Main.run;app.Main.spin;app.Main.spin 1',
    'java.lang.Thread.run;app.Main.run;app.Util.hash 1',
    'java.lang.Thread.run;app.Main.run;java.lang.System.nanoTime 1',
  ]);
  assert.equal(cpuCollapsed(tp, { threads: true }).filter((l) => l.startsWith('thread:worker;')).length, 4);
  const s = cpuSpeedscope(tp, { name: 'x' });
  assert.deepEqual(s.profiles.map((p) => [p.name, p.endValue, p.weights]), [
    ['burner (CPU samples, every 5 ms)', 7, [1, 5, 1]],
    ['worker (CPU samples, every 5 ms)', 5, [2, 1, 1, 1]],
  ]);
  assert.deepEqual(s.profiles[0].samples[1].map((k) => s.shared.frames[k].name), ['java.lang.Thread.run', 'app.Main.run', 'app.Main.spin']);
  assert.equal(s.activeProfileIndex, 0);
  assert.throws(() => cpuExportText(undefined, 'collapsed', 'x'), /no CPU samples/);
  assert.equal(cpuExportText(tp, 'collapsed', 'x').split('\n').length, 7, 'six lines and a final newline');
});

test('views data: CPU trees beside the allocation trees, with their own threads and methods', async () => {
  const { ProfileData } = await import('../../webview/data');
  const d = new ProfileData(file(), 'cpu');
  const o = { thread: -1, myCode: false, collapseRecursion: false, inverted: false };
  const alloc = d.tree(o);
  assert.equal(alloc.total.objects[0], 3);
  assert.equal(alloc.total.samples[0], 0);
  const cpu = d.tree({ ...o, cpu: true });
  assert.equal(cpu.total.samples[0], 12);
  assert.equal(cpu.total.objects[0], 0);
  assert.equal(d.tree({ ...o, cpu: true, thread: 11 }).total.samples[0], 5);
  assert.deepEqual(d.threads(true).map((t) => [t.id, t.name, t.daemon]), [[10, 'burner', true], [11, 'worker', false]]);
  assert.deepEqual(d.threads(false).map((t) => t.name), ['main', 'burner']);
  assert.equal(d.threadName(11, true), 'worker');
  assert.equal(d.methods(true).get(6)?.name, 'nanoTime');
  assert.equal(d.methods(false).get(6), undefined);
  assert.equal(d.isMine(8), true);
  assert.equal(d.isMine(6), false);
  assert.deepEqual(at(d.tree({ ...o, cpu: true, myCode: true }), [RUN]), [3, 12]);
  // a profile without the threads profile: no CPU data, the CPU option shows the allocation tree
  const plain = file();
  delete plain.threadsProfile;
  const p = new ProfileData(plain, 'plain');
  assert.equal(p.cpu(), undefined);
  assert.equal(p.tree({ ...o, cpu: true }).total.objects[0], 3);
});

test('view state: metric=samples in a link is kept', async () => {
  const { hashState, restoreState } = await import('../../webview/state');
  assert.deepEqual(hashState('#metric=samples&thread=19'), { metric: 'samples', thread: 19 });
  assert.equal(restoreState({ metric: 'samples' }).metric, 'samples');
});

test('cli: report --format collapsed --metric samples [--threads] writes the CPU stacks', async () => {
  const { runCli } = await import('../../extension/cli/cli');
  const fs = await import('fs');
  const os = await import('os');
  const path = await import('path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-cpu-'));
  fs.writeFileSync(path.join(dir, 'cpu.heaplens'), JSON.stringify(file()));
  const c = { env: { PATH: process.env.PATH }, cwd: dir, cliDir: dir, out: '', err: '',
    stdout(t: string) { c.out += t; }, stderr(t: string) { c.err += t; } };
  assert.equal(await runCli(['report', 'cpu.heaplens', '--format', 'collapsed', '--metric', 'samples', '--threads'], c), 0, c.err);
  assert.deepEqual(c.out.split('\n').filter((l) => l.startsWith('thread:burner;')), [
    'thread:burner;java.lang.Thread.run;app.Main.run 1',
    'thread:burner;java.lang.Thread.run;app.Main.run;app.Main.spin 5',
    'thread:burner;java.lang.Thread.run;app.Main.run;java.lang.System.nanoTime 1',
  ]);
  c.out = '';
  assert.equal(await runCli(['report', 'cpu.heaplens', '--format', 'speedscope', '--metric', 'samples'], c), 0, c.err);
  assert.deepEqual(JSON.parse(c.out).profiles.map((p: { endValue: number }) => p.endValue), [7, 5]);
  fs.rmSync(dir, { recursive: true, force: true });
});
