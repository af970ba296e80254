// LiveProfile: applying define/delta frames, full resets, extra roots, rates, a profile the loader accepts.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { validateProfile } from '../../core/profile/load';
import { LiveProfile } from '../../core/profile/live';
import { METHODS, SITES, TYPES } from './support/fake-agent';

function base(): LiveProfile {
  const live = new LiveProfile({ mode: 'exact', pid: 9 }, 1000);
  live.applyDefine({ types: TYPES, methods: METHODS, sites: SITES, threads: [{ id: 1, name: 'main', daemon: false, alive: true }] });
  return live;
}

test('absolute node values replace; unlisted records stay; full forgets everything', () => {
  const live = base();
  live.applyDelta({ seq: 1, time: 1000, full: true, nodes: [{ t: 1, n: 0, p: -1 }, { t: 1, n: 1, p: 0, m: 10, calls: 1, a: [[100, 1, 5, 0, 120]] }], stats: { objects: 5 } });
  live.applyDelta({ seq: 2, time: 1250, full: false, nodes: [{ t: 1, n: 1, p: 0, m: 10, calls: 2, a: [[101, 2, 1, 3, 32]] }], stats: { objects: 5 } });
  let p = live.toProfile();
  assert.deepEqual(p.threads[0].root.c, [{ m: 10, calls: 2, a: [[100, 1, 5, 0, 120], [101, 2, 1, 3, 32]] }]);
  validateProfile(JSON.parse(JSON.stringify(p.file)));
  assert.equal(p.file.meta.pid, 9);
  assert.equal(p.file.meta.final, false);
  live.applyDelta({ seq: 3, time: 1500, full: true, nodes: [{ t: 1, n: 0, p: -1 }], stats: { objects: 0 } });
  p = live.toProfile();
  assert.deepEqual(p.threads[0].root, {});
  assert.equal(live.nodeCount, 1);
});

test('a second parentless tree of a thread is not taken for its call tree', () => {
  const live = base();
  live.applyDelta({ seq: 1, time: 0, full: true, nodes: [{ t: 1, n: 0, p: -1 }, { t: 1, n: 1, p: 0, m: 10, calls: 1 }, { t: 1, n: 7, p: -1 }, { t: 1, n: 8, p: 7, m: 11, calls: 0 }] });
  assert.deepEqual(live.toProfile().threads[0].root.c?.map((n) => n.m), [10]);
  assert.equal(live.extraRoots, 1);
});

test("named side trees (sites, sampled) become the thread's side trees; the mode timeline follows the deltas and events", () => {
  const live = base();
  live.applyDelta({ seq: 1, time: 2000, full: true, stats: { mode: 'exact' }, nodes: [
    { t: 1, n: 0, p: -1, tree: 'root' }, { t: 1, n: 1, p: 0, m: 10, calls: 1, a: [[100, 1, 5, 0, 120]] },
  ] });
  // the user switches to sites: the agent's event carries the retransformation, the next delta the new mode
  live.noteMode('sites', 2600, { retransformed: 850, retransformMillis: 412 });
  live.applyDelta({ seq: 2, time: 2750, full: false, stats: { mode: 'sites' }, nodes: [
    { t: 1, n: 7, p: -1, tree: 'sites' }, { t: 1, n: 8, p: 7, m: 10, calls: 0, a: [[101, 2, 40, 0, 640]] },
    { t: 1, n: 9, p: -1, tree: 'siteTraces' }, { t: 1, n: 10, p: 9, m: 11, calls: 1, a: [[101, 2, 1, 0, 16]] },
  ] });
  live.applyDelta({ seq: 3, time: 3000, full: false, stats: { mode: 'sampled' }, nodes: [
    { t: 1, n: 11, p: -1, tree: 'sampled' }, { t: 1, n: 12, p: 11, m: 10, calls: 0, a: [[100, 1, 2048, 0, 49152]] },
  ] });
  const p = live.toProfile();
  const [t] = p.threads;
  assert.deepEqual(t.root.c, [{ m: 10, calls: 1, a: [[100, 1, 5, 0, 120]] }]);
  assert.deepEqual(t.sites?.c, [{ m: 10, calls: 0, a: [[101, 2, 40, 0, 640]] }]);
  assert.deepEqual(t.siteTraces?.c?.map((n) => n.m), [11]);
  assert.deepEqual(t.sampled?.c?.[0].a, [[100, 1, 2048, 0, 49152]]);
  assert.equal(live.extraRoots, 0);
  assert.equal(p.file.meta.mode, 'sampled');
  assert.deepEqual(p.file.meta.modes, [
    { mode: 'exact', since: 1000 },
    { mode: 'sites', since: 2600, retransformed: 850, retransformMillis: 412 },
    { mode: 'sampled', since: 3000 },
  ]);
  validateProfile(JSON.parse(JSON.stringify(p.file)));
});

test('a node whose parent never came is counted, not crashed on', () => {
  const live = base();
  live.applyDelta({ seq: 1, time: 0, full: true, nodes: [{ t: 1, n: 5, p: 4, m: 10, calls: 1 }] });
  assert.equal(live.orphans, 1);
  validateProfile(JSON.parse(JSON.stringify(live.toProfile().file)));
});

test('rates: objects and bytes per second over the last deltas', () => {
  const live = base();
  for (let i = 0; i <= 8; i++) live.applyDelta({ seq: i, time: 10_000 + 250 * i, full: i === 0, nodes: [], stats: { objects: 1000 * i, bytes: 10 * i } });
  const r = live.rates();
  assert.equal(Math.round(r.objectsPerSecond), 4000);
  assert.equal(Math.round(r.bytesPerSecond), 40);
  assert.equal(live.stats.objects, 8000);
});
