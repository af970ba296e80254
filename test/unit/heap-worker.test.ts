// The heap analysis worker (extension/heap/heap-worker.ts) driven through its host (worker-host.ts) on a real
// dump: the staticmap fixture dumps its own heap. Requests, progress, follow-ups without re-reading, cancel,
// bad files and the memory limits.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HeapAnalysis, HeapProgress, formatPath } from '../../extension/heap/analysis';
import { HeapCancelled, HeapWorker } from '../../extension/heap/worker-host';

const root = path.resolve(__dirname, '..', '..', '..');
/** the worker as compiled from the sources next to this test (out/extension/heap/heap-worker.js) */
const workerFile = path.resolve(__dirname, '..', '..', 'extension', 'heap', 'heap-worker.js');
/** the bundle the .vsix ships */
const bundle = path.join(root, 'dist', 'heap-worker.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-heapworker-'));
const dump = path.join(tmp, 'staticmap.hprof');
const started: HeapWorker[] = [];

function start(file: string, options?: ConstructorParameters<typeof HeapWorker>[2], worker = workerFile): HeapWorker {
  const w = new HeapWorker(worker, file, options);
  started.push(w);
  return w;
}

before(() => {
  const classes = path.join(tmp, 'classes');
  execFileSync('javac', ['--release', '17', '-d', classes, path.join(root, 'test/fixtures/java/staticmap/Main.java')]);
  execFileSync('java', ['-cp', classes, 'staticmap.Main', 'dump', dump]);
});

after(() => {
  for (const w of started) w.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('open, then the view: histogram, dominators and paths as the in-process analysis computes them', async () => {
  const progress: HeapProgress[] = [];
  const w = start(dump);
  w.onProgress = (p) => progress.push(p);
  const opened = await w.opened;
  const inProcess = HeapAnalysis.open(dump);
  try {
    assert.equal(opened.file, dump);
    assert.equal(opened.objects, inProcess.objectCount);
    assert.equal(opened.references, inProcess.graph.edges.length);
    assert.ok(opened.objects > 10_000, `${opened.objects} objects`);

    const size = fs.statSync(dump).size;
    for (const phase of ['index', 'graph'] as const) {
      const seen = progress.filter((p) => p.phase === phase);
      assert.ok(seen.length >= 2, `${phase}: ${seen.length} progress messages`);
      assert.ok(seen.every((p, i) => p.total === size && (i === 0 || p.bytes >= seen[i - 1].bytes)), `${phase}: bytes grow toward the file size`);
    }
    assert.equal(progress.filter((p) => p.phase === 'index').at(-1)!.bytes, size, 'pass 1 reads to the end of the file');
    assert.ok(progress.findIndex((p) => p.phase === 'graph') > progress.findIndex((p) => p.phase === 'index'), 'pass 1 before pass 2');

    progress.length = 0;
    const view = await w.view('staticmap.hprof', 'staticmap.Leaked');
    assert.deepEqual(progress.map((p) => p.phase), ['dominators', 'paths'], 'the view computes dominators and paths, nothing is re-read');
    assert.equal(view.file, dump);
    assert.equal(view.objects, inProcess.objectCount);
    assert.deepEqual(view.histogram, inProcess.histogram().slice(0, 1000));
    assert.deepEqual(view.dominators, inProcess.dominated(inProcess.superRoot, 50));
    const leaked = view.histogram.find((r) => r.className === 'staticmap.Leaked')!;
    assert.deepEqual(leaked, { className: 'staticmap.Leaked', objects: 200, shallowBytes: 200 * 24, retainedBytes: 200 * (24 + 1016) });
    assert.equal(view.paths?.className, 'staticmap.Leaked');
    assert.equal(view.paths?.instances, 200);
    assert.equal(view.paths?.paths.length, 20);
    assert.deepEqual(view.paths?.paths, inProcess.pathsTo('staticmap.Leaked', 20).paths.map((p) => p.steps));
  } finally {
    inProcess.close();
  }
});

test('follow-up requests reuse the parsed dump: another class, the histogram, an unknown class', async () => {
  const progress: HeapProgress[] = [];
  const w = start(dump);
  await w.opened;
  await w.view('first', 'staticmap.Leaked');
  w.onProgress = (p) => progress.push(p);
  const r = await w.paths('java.util.HashMap$Node[]', 3);
  assert.equal(r.className, 'java.util.HashMap$Node[]');
  assert.equal(r.paths.length, 3);
  for (const p of r.paths) assert.match(formatPath(p), /^[a-z-]+:\S.* -> java\.util\.HashMap\.table -> java\.util\.HashMap\$Node\[\]$/);
  const leaked = await w.paths('Leaked', 2);
  assert.equal(leaked.instances, 200);
  assert.match(formatPath(leaked.paths[0]), /-> staticmap\.Main\.CACHE -> java\.util\.HashMap\.table -> /);
  const hist = await w.histogram(5);
  assert.equal(hist.rows.length, 5);
  assert.ok(hist.more > 100, `${hist.more} more rows`);
  assert.ok(hist.rows.every((row, i) => i === 0 || row.retainedBytes <= hist.rows[i - 1].retainedBytes), 'largest retained first');
  assert.deepEqual(progress, [], 'nothing read or computed again: graph, dominators and the BFS from the roots are kept');
  await assert.rejects(w.paths('NoSuchClass', 3), /no class named NoSuchClass/);
  const view = await w.view('again', 'NoSuchClass');
  assert.equal(view.pathsError, 'no class named NoSuchClass in the dump');
  assert.ok(w.usable, 'a request that fails leaves the dump open');
});

test('cancel terminates the worker: waiting requests reject with HeapCancelled, later ones too', async () => {
  const w = start(dump);
  let progressCalls = 0;
  w.onProgress = () => {
    progressCalls++;
    w.cancel();                                 // at the first progress message: pass 1 has just begun
  };
  const view = w.view('x');
  await assert.rejects(w.opened, (e: Error) => e instanceof HeapCancelled && /reading .*staticmap\.hprof was cancelled/.test(e.message));
  await assert.rejects(view, HeapCancelled);
  assert.equal(progressCalls, 1, 'no progress after the cancel');
  assert.equal(typeof await w.exited, 'number', 'the worker thread ended');
  assert.equal(w.usable, false);
  await assert.rejects(w.histogram(10), HeapCancelled);
});

test('a file that is not a dump, and a truncated dump: a clear message, the worker ends', async () => {
  const notDump = path.join(tmp, 'not.hprof');
  fs.writeFileSync(notDump, '{"format":"heaplens-profile"}');
  const w = start(notDump);
  const view = w.view('x');
  await assert.rejects(w.opened, new RegExp(`^Error: ${notDump.replace(/[.]/g, '\\.')}: not an HPROF heap dump`));
  await assert.rejects(view, /not an HPROF heap dump/);
  await w.exited;
  assert.equal(w.usable, false);

  const cut = path.join(tmp, 'cut.hprof');
  fs.writeFileSync(cut, new Uint8Array(fs.readFileSync(dump)).subarray(0, Math.floor(fs.statSync(dump).size / 2)));
  await assert.rejects(start(cut).opened, /the file ends early \(truncated dump\?\) at byte \d+/);
  await assert.rejects(start(path.join(tmp, 'missing.hprof')).opened, /ENOENT/);
});

test('limits: a dump over the memory budget is refused with its numbers; a JS heap overrun ends only the worker', async () => {
  const w = start(dump, { memoryLimitBytes: 1_000_000 });
  await assert.rejects(w.opened, /the dump holds [\d,]+ objects: analysing it needs about [\d.]+ GB, more than the 0\.0 GB it may use here/);
  // a 1 MB JavaScript heap cannot even load the worker's code: the worker ends with ERR_WORKER_OUT_OF_MEMORY
  const tiny = start(dump, { heapMb: 1 });
  await assert.rejects(tiny.opened, /staticmap\.hprof: the heap analysis ran out of memory \(its JavaScript heap may grow to 1 MB\)/);
  assert.equal(tiny.usable, false);
});

test('the bundle the .vsix ships (dist/heap-worker.js) reads the dump too', { skip: !fs.existsSync(bundle) && 'run npm run build first' }, async () => {
  const w = start(dump, {}, bundle);
  const view = await w.view('bundle', 'Leaked');
  assert.equal(view.paths?.instances, 200);
  assert.match(view.paths!.paths[0].join(' -> '), /-> staticmap\.Main\.CACHE -> java\.util\.HashMap\.table -> /);
});

test('a missing worker file is a clear error', () => {
  assert.throws(() => new HeapWorker(path.join(tmp, 'nope.js'), dump), /the heap analysis worker .*nope\.js is missing \(run npm run build\)/);
});
