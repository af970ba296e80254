// The lifetime model (core/views/lifetimes.ts) on a hand-written profile whose numbers are worked out here:
// HUP's classifications, the TSV and `stat` of the CLI, sampling scale, and the editor hints' wording.
import * as assert from 'assert/strict';
import { describe, it } from 'node:test';
import { sourcePathOf } from '../../core/views/by-line';
import {
  LIFETIME_TSV_HEADER, lifetimeHints, precisionRuleText, lifetimeRows, lifetimesOf, lifetimeStatText, lifetimeTsv, requireLifetimes,
} from '../../core/views/lifetimes';
import { ProfileError } from '../../core/profile/parse';
import { validateProfile } from '../../core/profile/load';
import { fileOf } from './helpers';

const MIB = 1 << 20;
const zero = { objects: 0, voidObjects: 0, laggedObjects: 0, draggedObjects: 0, lag: 0, drag: 0, void: 0, use: 0, total: 0 };
const rep = (over: Record<string, unknown>): Record<string, unknown> => ({
  size: 24, born: 0, firstUse: -1, lastUse: -1, firstPut: -1, lastPut: -1, unreachable: 0, reachableAtExit: false, uses: 0, puts: 0,
  firstUseSite: null, lastUseSite: null, firstPutSite: null, lastPutSite: null, ...over,
});

/** Kept (24 B): used at 0, kept to 10 MiB → drag 240 MiB·B. Late (24 B): used at 4 MiB → lag 96 MiB·B. int[1000] (4016 B): never read, 1 MiB. */
function profile(sampleEvery = 1) {
  const f = fileOf({
    types: [{ id: 0, name: 'app.Kept', array: false, size: 24 }, { id: 1, name: 'app.Late', array: false, size: 24 },
      { id: 2, name: 'int[]', array: true, size: null, elementSize: 4, elementCode: 'I' }],
    methods: [{ id: 0, class: 'app.Main', name: 'main', desc: '([Ljava/lang/String;)V', file: 'Main.java', line: 5, profiled: true }],
    sites: [{ id: 0, method: 0, bci: 0, line: 10, kind: 'new', type: 0 }, { id: 1, method: 0, bci: 9, line: 11, kind: 'new', type: 1 },
      { id: 2, method: 0, bci: 20, line: 12, kind: 'newarray', type: 2 }],
  }) as unknown as Record<string, unknown>;
  f.meta = { ...(f.meta as object), mode: 'lifetime' };
  const kept = { ...zero, objects: 1, draggedObjects: 1, drag: 24 * 10 * MIB, total: 24 * 10 * MIB };
  const late = { ...zero, objects: 1, laggedObjects: 1, lag: 24 * 4 * MIB, total: 24 * 4 * MIB };
  const arr = { ...zero, objects: 1, voidObjects: 1, void: 4016 * MIB, total: 4016 * MIB };
  f.lifetimes = {
    sampleEvery, clock: 10 * MIB, precision: 65536, precisionTarget: 65536, forcedGcs: 3, forcedGcMillis: 12, tracked: 3, live: 0,
    complete: true, finished: 3, reachableAtExit: 1,
    totals: { objects: 3, voidObjects: 1, laggedObjects: 1, draggedObjects: 1, lag: late.lag, drag: kept.drag, void: arr.void, use: 0, total: kept.total + late.total + arr.total },
    nested: [
      { site: 0, type: 0, trace: 0, ...kept, patterns: [{ firstUseTrace: 0, lastUseSite: [0, 10], ...kept, representative: rep({ firstUse: 0, lastUse: 0, unreachable: 10 * MIB, reachableAtExit: true, uses: 1 }) }] },
      { site: 1, type: 1, trace: 1, ...late, patterns: [{ firstUseTrace: 1, lastUseSite: [0, 11], ...late, representative: rep({ firstUse: 4 * MIB, lastUse: 4 * MIB, unreachable: 4 * MIB, uses: 1 }) }] },
      { site: 2, type: 2, trace: 2, ...arr, patterns: [{ firstUseTrace: -1, lastUseSite: null, ...arr, representative: rep({ size: 4016, length: 1000, puts: 1000, unreachable: MIB }) }] },
    ],
    traces: { 0: [0, 10], 1: [0, 11], 2: [0, 12] },
    timeline: { bucket: MIB, inUse: [0], lag: [24], drag: [24], void: [4016] },
  };
  return validateProfile(JSON.parse(JSON.stringify(f)));
}

describe('lifetimes model', () => {
  it('tabulates by class, sorted by drag space (ties by key), with the exact header', () => {
    const lines = lifetimeTsv(profile(), 'class').trimEnd().split('\n');
    assert.equal(lines[0], LIFETIME_TSV_HEADER);
    assert.deepEqual(lines.slice(1), [
      `app.Kept\t1\t0\t0\t${24 * 10 * MIB}\t0\t0`,
      `app.Late\t1\t0\t${24 * 4 * MIB}\t0\t0\t0`,
      `int[]\t1\t1\t0\t0\t${4016 * MIB}\t0`,
    ]);
  });

  it('keys sites by line, methods by method, nested sites by their trace', () => {
    const p = profile();
    const l = requireLifetimes(p);
    assert.deepEqual(lifetimeRows(p, l, 'site').map((r) => r.key).sort(), ['app.Main.main:10 app.Kept', 'app.Main.main:11 app.Late', 'app.Main.main:12 int[]']);
    assert.deepEqual(lifetimeRows(p, l, 'method').map((r) => [r.key, r.objects]), [['app.Main.main', 3]]);
    assert.equal(lifetimeRows(p, l, 'nested').find((r) => r.key.endsWith('app.Late'))!.key, 'app.Main.main:11 app.Late');
  });

  it('scales counts and spaces by the sampling rate', () => {
    const lines = lifetimeTsv(profile(100), 'class').split('\n');
    assert.equal(lines[1], `app.Kept\t100\t0\t0\t${100 * 24 * 10 * MIB}\t0\t0`);
    assert.match(lifetimeStatText(profile(100)), /^objects\t300\t\(estimate: every 100th object tracked/);
  });

  it("prints HUP's stat with shares that add up and the precision", () => {
    const s = lifetimeStatText(profile());
    const total = 24 * 10 * MIB + 24 * 4 * MIB + 4016 * MIB;
    assert.ok(s.includes(`total space\t${total}\t`));
    assert.ok(s.includes(`drag space\t${24 * 10 * MIB}\t${((100 * 240) / (240 + 96 + 4016)).toFixed(2)}%`));
    assert.ok(s.includes('void objects\t1\n'));
    assert.match(s, /precision\t65536\tbytes allocated/);
  });

  it('hints at HUP transformations for lines with much drag, lag or void, as hints', () => {
    const p = profile();
    const hints = lifetimeHints(p, requireLifetimes(p), sourcePathOf);
    assert.deepEqual(hints.map((h) => [h.source, h.line, h.kind]).sort(), [['app/Main.java', 10, 'drag'], ['app/Main.java', 11, 'lag'], ['app/Main.java', 12, 'void']]);
    const drag = hints.find((h) => h.kind === 'drag')!;
    assert.match(drag.message, /1 app\.Kept object\(s\) allocated here stayed reachable for ~10\.0 MiB of allocation after their last use: 100\.0% of all drag space/);
    assert.match(drag.message, /assigning null/);
    assert.match(hints.find((h) => h.kind === 'lag')!.message, /lazy allocation/);
    assert.match(hints.find((h) => h.kind === 'void')!.message, /written but never read: HUP suggests dead code removal or array length reduction/);
    for (const h of hints) assert.match(h.message, /not proof that the change is safe/);
  });

  it('gives no drag or void hint that the precision could explain, except for objects reachable to the end', () => {
    const f = JSON.parse(JSON.stringify(profile().file));
    f.lifetimes.precision = 100 * MIB;                  // larger than int[]'s 1 MiB of void and Kept's 10 MiB of drag
    const p = validateProfile(f);
    const hints = lifetimeHints(p, requireLifetimes(p), sourcePathOf);
    assert.deepEqual(hints.map((h) => [h.line, h.kind]).sort(), [[10, 'drag'], [11, 'lag']], 'Kept (to the end) and Late (lag is exact) only');
  });

  it('explains a profile without lifetime data and rejects dangling ids', () => {
    const p = validateProfile(JSON.parse(JSON.stringify(fileOf({}))));
    assert.equal(lifetimesOf(p), undefined);
    assert.throws(() => lifetimeTsv(p, 'class'), (e: Error) => e instanceof ProfileError && /no lifetime data.*--mode lifetime/.test(e.message));
    const bad = JSON.parse(JSON.stringify(profile().file));
    bad.lifetimes.nested[0].site = 99;
    assert.throws(() => lifetimesOf(validateProfile(bad)), /dangling id: lifetimes.nested refers to site 99/);
  });
});

it('lifetimes: how the precision was bought, in words', () => {
  assert.equal(precisionRuleText({ precisionRule: 'time', gcBudgetPercent: 10, forcedGcs: 91, forcedGcMillis: 38_500, runMillis: 385_000 }),
    'forced GCs kept near 10 % of the run: 91 forced GCs, 39 s of 385 s (10.0 %)');
  assert.equal(precisionRuleText({ precisionRule: 'share', precisionShareBp: 100, forcedGcs: 412, forcedGcMillis: 6_100, runMillis: 40_000 }),
    '1 % of the bytes allocated: 412 forced GCs, 6.1 s of 40 s (15.3 %)');
  // files written before the rule was stated: the time budget, without the run's duration
  assert.equal(precisionRuleText({ forcedGcs: 4, forcedGcMillis: 120 }), 'forced GCs kept near 10 % of the run: 4 forced GCs, 0.1 s');
});
