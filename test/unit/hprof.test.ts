// The HPROF reader on a real dump: the staticmap fixture dumps its own heap (HotSpotDiagnosticMXBean, live).
import { test, before } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HeapAnalysis, formatPath } from '../../extension/heap/analysis';

const root = path.resolve(__dirname, '..', '..', '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-hprof-'));
const dump = path.join(tmp, 'staticmap.hprof');
let heap: HeapAnalysis;

before(() => {
  const classes = path.join(tmp, 'classes');
  execFileSync('javac', ['--release', '17', '-d', classes, path.join(root, 'test/fixtures/java/staticmap/Main.java')]);
  execFileSync('java', ['-cp', classes, 'staticmap.Main', 'dump', dump]);
  heap = HeapAnalysis.open(dump);
});

test('histogram: 200 Leaked objects, their shallow and retained sizes', () => {
  const rows = heap.histogram();
  const leaked = rows.find((r) => r.className === 'staticmap.Leaked');
  assert.ok(leaked, 'staticmap.Leaked in the histogram');
  // Leaked: 12-byte header + int + reference = 20 → 24; its byte[1000]: 16 + 1000 = 1016.
  assert.equal(leaked.objects, 200);
  assert.equal(leaked.shallowBytes, 200 * 24);
  assert.equal(leaked.retainedBytes, 200 * (24 + 1016));
  const bytes = rows.find((r) => r.className === 'byte[]')!;
  assert.ok(bytes.objects >= 200);
  assert.ok(rows.some((r) => r.className === 'java.util.HashMap$Node[]'));
});

test('dominators: each payload is dominated by its Leaked object, each Leaked by its map node', () => {
  const g = heap.graph;
  const leakedType = g.types.findIndex((t) => t.name === 'staticmap.Leaked');
  let checked = 0;
  for (let i = 0; i < g.n; i++) {
    if (g.typeOf[i] !== leakedType) continue;
    assert.equal(heap.describe(heap.idom(i)), 'java.util.HashMap$Node');
    assert.equal(heap.retainedOf(i), 24 + 1016);
    checked++;
  }
  assert.equal(checked, 200);
  const top = heap.dominated(heap.superRoot, 1000);
  assert.ok(top.length > 0 && top[0].retainedBytes >= top[top.length - 1].retainedBytes, 'largest first');
});

test('paths from GC roots name the static field, the map table and the array index', () => {
  const r = heap.pathsTo('Leaked', 5);
  assert.equal(r.className, 'staticmap.Leaked');
  assert.equal(r.instances, 200);
  assert.equal(r.paths.length, 5);
  for (const p of r.paths) {
    const line = formatPath(p);
    assert.match(line, /^[a-z-]+:\S.* -> staticmap\.Main\.CACHE -> java\.util\.HashMap\.table -> java\.util\.HashMap\$Node\[\d+\] -> (java\.util\.HashMap\$Node\.next -> )*java\.util\.HashMap\$Node\.value -> staticmap\.Leaked$/, line);
  }
  assert.throws(() => heap.pathsTo('NoSuchClass'), /no class named NoSuchClass/);
});

test('bad input: not a dump, a truncated dump', () => {
  const notDump = path.join(tmp, 'not.hprof');
  fs.writeFileSync(notDump, '{"format":"heaplens-profile"}');
  assert.throws(() => HeapAnalysis.open(notDump), /not an HPROF heap dump/);
  const cut = path.join(tmp, 'cut.hprof');
  const fd = fs.openSync(dump, 'r');
  const head = new Uint8Array(Math.floor(fs.statSync(dump).size / 2));
  fs.readSync(fd, head, 0, head.length, 0);
  fs.closeSync(fd);
  fs.writeFileSync(cut, head);
  assert.throws(() => HeapAnalysis.open(cut), /ends early/);
});

test('a path through the profiler\'s own thread, or through a weak reference, is not shown as what keeps an object alive', () => {
  // heldbyagent: 50 Kept in a static map, each also watched by a WeakReference (a shorter path, through `referent`),
  // and a "heaplens-collector" thread holding them all (and one Orphan)
  const classes = path.join(tmp, 'held');
  const held = path.join(tmp, 'held.hprof');
  execFileSync('javac', ['--release', '17', '-d', classes, path.join(root, 'test/fixtures/java/heldbyagent/Main.java')]);
  execFileSync('java', ['-cp', classes, 'heldbyagent.Main', held]);
  const h = HeapAnalysis.open(held);
  const kept = h.pathsTo('heldbyagent.Kept', 50);
  assert.equal(kept.instances, 50);
  assert.equal(kept.paths.length, 50);
  for (const p of kept.paths) assert.match(formatPath(p), / -> heldbyagent\.Main\.STORE -> java\.util\.HashMap\.table -> /);
  for (const p of kept.paths) assert.doesNotMatch(formatPath(p), /WATCHED|referent/);
  const orphan = h.pathsTo('heldbyagent.Orphan', 5);
  assert.equal(orphan.paths.length, 1);
  assert.match(formatPath(orphan.paths[0]), /heaplens-collector/);
});
