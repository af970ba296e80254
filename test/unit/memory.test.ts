// The memory chart's data: validation, the live channel's news appended, and the series drawn.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { appendMemory, memoryOf, MemorySection, memorySeries, stopsTheWorld, validateMemory } from '../../core/profile/memory';
import { LiveProfile } from '../../core/profile/live';
import { fileOf } from './helpers';

const T0 = 1_763_780_000_000;
const section = (): MemorySection => ({
  intervalMillis: 500,
  samples: [
    [T0, 10_000_000, 64_000_000, 1_000_000_000, 5_000_000, 1, 4],
    [T0 + 500, 30_000_000, 64_000_000, 1_000_000_000, 25_000_000, 1, 4],
    [T0 + 1000, 12_000_000, 96_000_000, 1_000_000_000, 35_000_000, 2, 16],
    [T0 + 2000, 20_000_000, 96_000_000, 1_000_000_000, 34_000_000, 3, 46],
  ],
  gcs: [
    [T0 + 700, 12, 'G1 Young Generation', 'G1 Evacuation Pause', 31_000_000, 11_000_000],
    [T0 + 1500, 30, 'G1 Concurrent GC', 'G1 Evacuation Pause', 25_000_000, 19_000_000],
  ],
  marks: [[T0 + 1200, 'snapshot']],
});

test('memory series: seconds, heap, allocation rate from allocated-bytes differences, collections and marks', () => {
  const s = memorySeries(section());
  assert.deepEqual(s.t, [0, 0.5, 1, 2]);
  assert.deepEqual(s.used, [10_000_000, 30_000_000, 12_000_000, 20_000_000]);
  assert.deepEqual(s.committed, [64_000_000, 64_000_000, 96_000_000, 96_000_000]);
  // 20 MB in 0.5 s, 10 MB in 0.5 s, then the counter fell (a thread ended): 0, not negative
  assert.deepEqual(s.allocationRate, [0, 40_000_000, 20_000_000, 0]);
  assert.deepEqual(s.pauses.map((p) => [p.t, p.millis, p.stopsTheWorld, p.freed]), [[0.7, 12, true, 20_000_000], [1.5, 30, false, 6_000_000]]);
  assert.deepEqual(s.marks, [{ t: 1.2, what: 'snapshot' }]);
  assert.deepEqual([s.gcCount, s.gcMillis, s.longestPause], [3, 46, 12]);
  assert.equal(stopsTheWorld('ZGC Cycles', 'Allocation Rate'), false);
  assert.equal(stopsTheWorld('PS MarkSweep', 'System.gc()'), true);
});

test('memory section: validated from the file with a message naming the problem', () => {
  const file = { ...fileOf({}), memory: section() };
  assert.equal(memoryOf(file)!.samples.length, 4);
  assert.equal(memoryOf(fileOf({})), undefined);
  assert.throws(() => validateMemory({ ...section(), intervalMillis: 0 }), /intervalMillis must be a positive number/);
  assert.throws(() => validateMemory({ ...section(), samples: [[1, 2, 3]] }), /samples\[0\] must be 7 numbers/);
  assert.throws(() => validateMemory({ ...section(), gcs: [[1, 2, 3, 4, 5, 6]] }), /gcs\[0\] must be \[start, duration, collector, cause, before, after\]/);
});

test('live: each delta\'s memory news is appended; a restart replaces the samples', () => {
  const all = section();
  const first: MemorySection = { ...all, samples: all.samples.slice(0, 2), gcs: all.gcs.slice(0, 1), marks: [] };
  const next: MemorySection = { ...all, samples: all.samples.slice(2), gcs: all.gcs.slice(1), marks: all.marks };
  assert.deepEqual(appendMemory(appendMemory(undefined, first), next), all);
  const thinned = appendMemory(appendMemory(undefined, first), { ...next, intervalMillis: 1000, restart: true });
  assert.deepEqual([thinned.intervalMillis, thinned.samples.length, thinned.gcs.length], [1000, 2, 2]);
  // through the live profile: the news of two deltas end up in the file the views get
  const live = new LiveProfile({});
  live.applyDelta({ seq: 1, time: T0, full: true, nodes: [], memory: first });
  live.applyDelta({ seq: 2, time: T0 + 2000, full: false, nodes: [], memory: next });
  live.applyDelta({ seq: 3, time: T0 + 2500, full: false, nodes: [], memory: { intervalMillis: 500, samples: [[1, 2]], gcs: [], marks: [] } as unknown as MemorySection });
  assert.deepEqual(live.toProfile().file.memory, all, 'a malformed update is dropped, the rest kept');
});
