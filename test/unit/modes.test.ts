import * as assert from 'assert/strict';
import { describe, it } from 'node:test';
import { defaultTree, modeTimeline, treeLabel, treesIn, withTree } from '../../core/profile/modes';
import { collapsed } from '../../core/export/collapsed';
import { validateProfile } from '../../core/profile/parse';

/** One thread with exact data for 3 Points and sampled estimates for 1000; sites counts 7. */
function doc(withExact: boolean): unknown {
  return {
    format: 'heaplens-profile', version: 1,
    meta: { agentVersion: 't', mode: 'sampled', startTime: 0, writeTime: 1, final: true,
      modes: [{ mode: 'exact', since: Date.UTC(2026, 0, 1, 10, 0, 1) }, { mode: 'sampled', since: Date.UTC(2026, 0, 1, 10, 0, 9) }] },
    types: [{ id: 0, name: 'p.Point', array: false, size: 16 }],
    methods: [{ id: 0, class: 'p.Main', name: 'main', desc: '()V', profiled: true }],
    sites: [{ id: 0, method: 0, bci: 4, kind: 'new', type: 0 }],
    threads: [{
      id: 1, name: 'main', daemon: false, alive: false,
      root: withExact ? { c: [{ m: 0, calls: 1, a: [[0, 0, 3, 0, 48]] }] } : {},
      sites: { a: [[0, 0, 7, 0, 112]] },
      sampled: { c: [{ m: 0, calls: 0, a: [[0, 0, 1000, 0, 16000]] }] },
    }],
    transform: { failures: [], warnings: [] }, agent: {},
  };
}

describe('modes: each mode keeps its own tree', () => {
  it('finds the trees with data and prefers exact data', () => {
    const p = validateProfile(doc(true));
    assert.deepEqual(treesIn(p), ['exact', 'sites', 'sampled']);
    assert.equal(defaultTree(p), 'exact');
    assert.equal(defaultTree(validateProfile(doc(false))), 'sampled');
  });

  it('presents the chosen tree as the root, so every view reads it', () => {
    const p = validateProfile(doc(true));
    assert.deepEqual(collapsed(p, { metric: 'objects', threads: false }), ['p.Main.main;p.Point 3']);
    assert.deepEqual(collapsed(withTree(p, 'sampled'), { metric: 'objects', threads: false }), ['p.Main.main;p.Point 1000']);
    assert.deepEqual(collapsed(withTree(p, 'sites'), { metric: 'objects', threads: false }), ['p.Point 7']);
    assert.deepEqual(collapsed(withTree(p, 'traces'), { metric: 'objects', threads: false }), []);
  });

  it('writes the timeline', () => {
    assert.equal(modeTimeline(validateProfile(doc(true))), 'exact from 10:00:01, sampled from 10:00:09');
  });

  it('says when the sampled data came from JFR allocation samples (sampler=jfr)', () => {
    const probes = validateProfile(doc(true));
    assert.equal(treeLabel('sampled', probes), 'ESTIMATES scaled from sampled allocations (sampled mode)');
    const d = doc(true) as { meta: { sampler?: string } };
    d.meta.sampler = 'jfr';
    const jfr = validateProfile(d);
    assert.equal(treeLabel('sampled', jfr), 'ESTIMATES from sampled allocations (sampled mode: JFR TLAB samples, each weighted by 1 / its chance of being seen)');
    assert.equal(treeLabel('exact', jfr), 'exact counts per calling context (exact mode)');
    assert.equal(modeTimeline(jfr), 'exact from 10:00:01, sampled (JFR) from 10:00:09');
  });

  it('says when the sampled data came from HotSpot\'s heap sampler (sampler=jvmti)', () => {
    const d = doc(true) as { meta: { sampler?: string } };
    d.meta.sampler = 'jvmti';
    const jvmti = validateProfile(d);
    assert.equal(treeLabel('sampled', jvmti), "ESTIMATES from sampled allocations (sampled mode: HotSpot's heap sampling, each sample weighted by 1 / its chance of being taken)");
    assert.equal(modeTimeline(jvmti), "exact from 10:00:01, sampled (HotSpot's heap sampler) from 10:00:09");
  });

  it('says when the rate budget raised the heap sampler\'s interval, and not when it stayed', () => {
    const d = doc(true) as { meta: { sampler?: string; sampleBytes?: number; sampleBytesMax?: number; sampleRate?: number } };
    d.meta.sampler = 'jvmti';
    d.meta.sampleBytes = 65_536;
    d.meta.sampleBytesMax = 65_536;
    d.meta.sampleRate = 2000;
    const PLAIN = "ESTIMATES from sampled allocations (sampled mode: HotSpot's heap sampling, each sample weighted by 1 / its chance of being taken)";
    assert.equal(treeLabel('sampled', validateProfile(d)), PLAIN);
    d.meta.sampleBytesMax = 4 * 65_536;
    assert.equal(treeLabel('sampled', validateProfile(d)), "ESTIMATES from sampled allocations (sampled mode: HotSpot's heap sampling, each sample "
      + 'weighted by 1 / its chance of being taken; a sample every 64 KiB allocated on average, raised up to every 256 KiB while '
      + "the program allocated fast to keep the profiler's cost low: fewer samples, so wider ± ranges)");
    d.meta.sampleBytes = 1024 * 1024;
    d.meta.sampleBytesMax = 16 * 1024 * 1024;
    assert.match(treeLabel('sampled', validateProfile(d)), /every 1024 KiB allocated on average, raised up to every 16 MiB /);
  });

  it('says a run that stayed paused counted nothing, and one paused after counting keeps its data\'s label', () => {
    const paused = { ...(doc(false) as object), meta: { agentVersion: 't', mode: 'paused', startTime: 0, writeTime: 1, final: true,
      modes: [{ mode: 'paused', since: 0 }] }, threads: [] };
    assert.equal(treeLabel('exact', validateProfile(paused)), 'nothing counted: the run stayed paused from start to end (paused mode)');
    const noTimeline = { ...paused, meta: { ...paused.meta, modes: undefined } };
    assert.equal(treeLabel('exact', validateProfile(noTimeline)), 'nothing counted: the run stayed paused from start to end (paused mode)');
    const later = doc(true) as { meta: { mode: string; modes: { mode: string; since: number }[] } };
    later.meta.mode = 'paused';
    later.meta.modes.push({ mode: 'paused', since: Date.UTC(2026, 0, 1, 10, 0, 12) });
    assert.equal(treeLabel('exact', validateProfile(later)), 'exact counts per calling context (exact mode)');
  });

  it('validates the extra trees like the exact one', () => {
    const bad = doc(true) as { threads: { sampled: unknown }[] };
    bad.threads[0].sampled = { c: [{ m: 9, calls: 0 }] };
    assert.throws(() => validateProfile(bad), /thread 1 \("main"\) sampled has a node|names method 9/);
  });
});
