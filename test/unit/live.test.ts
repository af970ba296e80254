// LiveProfile: applying define/delta frames, full resets, extra roots, rates, a profile the loader accepts.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { validateProfile } from '../../extension/model/load';
import { LiveProfile } from '../../extension/model/live';
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
