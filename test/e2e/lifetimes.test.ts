// The lifetime mode (Pan 2001 (HUP)) on real JVMs (JDK 17 and 25), on test/fixtures/java/lifetimes where each
// object's category is known by construction: used at once and dropped; used only after SPAN fillers (lag);
// never used (void); used at once and kept to the end by a static field (drag); an int[] written, never read.
// Time is bytes allocated: one filler is a byte[65536], 65,552 bytes with its header (asserted from the file).
// Lag is measured by the byte clock alone; unreachability is seen through the GC, so drag and void are asserted
// within the precision the profile reports (plus SLACK for the few JDK allocations between the fixture's steps).
import * as assert from 'assert/strict';
import { describe, it } from 'node:test';
import { CLI, JDKS } from './support/env';
import { assertCleanRun, Fixture } from './support/fixture';
import { exec, runFixture } from './support/heaplens';

const fixture = new Fixture({ name: 'lifetimes', runArgs: ['--mode', 'lifetime', '--sample-every', '1'] });
const SPAN = 512;
const FILLER = 65_552;
const SLACK = 1 << 20;
const HEADER = 'key\tobjects\tvoid_objects\tlag_space\tdrag_space\tvoid_space\tuse_space';

interface Row { key: string; objects: number; voidObjects: number; lag: number; drag: number; void: number; use: number }
interface Rep { size: number; puts: number; uses: number; reachableAtExit: boolean; length?: number }
interface Nested { type: number; objects: number; patterns: { representative: Rep }[] }

async function report(file: string, args: string[]): Promise<string> {
  const r = await exec(process.execPath, [CLI, 'report', file, ...args]);
  assert.equal(r.code, 0, `heaplens report ${args.join(' ')} failed:\n${r.stderr}`);
  return r.stdout;
}

function parseTsv(text: string): Row[] {
  const lines = text.trimEnd().split('\n');
  assert.equal(lines[0], HEADER);
  return lines.slice(1).map((l) => {
    const [key, ...n] = l.split('\t');
    const [objects, voidObjects, lag, drag, v, use] = n.map(Number);
    return { key, objects, voidObjects, lag, drag, void: v, use };
  });
}

/** `lo <= v <= hi`, with a message that shows all three. */
function within(what: string, v: number, lo: number, hi: number): void {
  assert.ok(v >= lo && v <= hi, `${what} = ${v}, expected in [${lo}, ${hi}]`);
}

for (const jdk of JDKS) {
  describe(`lifetimes on JDK ${jdk.name}`, () => {
    it('classifies each object and measures lag, drag and void space within the reported precision', async () => {
      const run = await fixture.run(jdk);
      assertCleanRun(run, 'lifetimes', 'lifetimes done 1241');
      const doc = run.profile.json as unknown as {
        types: { id: number; name: string }[];
        lifetimes: { precision: number; precisionTarget: number; precisionRule: string; sampleEvery: number; complete: boolean; nested: Nested[] };
      };
      const l = doc.lifetimes;
      assert.equal(l.sampleEvery, 1);
      assert.equal(l.complete, true);
      const P = l.precision;
      assert.ok(P > 0, 'a precision is reported');
      // the stated target is met: a due forced GC is never skipped, so no gap exceeds the largest spacing used
      assert.equal(l.precisionRule, 'time');
      assert.ok(P <= l.precisionTarget, `precision ${P} <= stated target ${l.precisionTarget}`);
      const typeName = new Map(doc.types.map((t) => [t.id, t.name]));
      const rep = (name: string): Rep => {
        const n = l.nested.find((x) => typeName.get(x.type) === name);
        assert.ok(n, `a nested site of ${name}`);
        return n!.patterns[0].representative;
      };
      // A filler's size as this JVM measured it: the clock unit of the fixture.
      assert.equal(rep('byte[]').size, FILLER);

      const rows = parseTsv(await report(run.profileFile, ['--format', 'lifetime', '--by', 'class']));
      const row = (k: string): Row => {
        const r = rows.find((x) => x.key === k);
        assert.ok(r, `a row for ${k} in:\n${rows.map((x) => x.key).join('\n')}`);
        return r!;
      };
      for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1].drag >= rows[i].drag, 'sorted by drag space');

      const quick = row('lifetimes.Quick');
      const qs = rep('lifetimes.Quick').size;
      assert.deepEqual([quick.objects, quick.voidObjects, quick.lag], [50, 0, 0], 'Quick: used at once, never void, no lag');
      within('Quick drag space', quick.drag, 0, 50 * qs * P);

      const late = row('lifetimes.Late');
      const ls = rep('lifetimes.Late').size;
      assert.deepEqual([late.objects, late.voidObjects], [1, 0]);
      within('Late lag space', late.lag, ls * SPAN * FILLER, ls * (SPAN * FILLER + SLACK));
      within('Late drag space', late.drag, 0, ls * P);

      const unused = row('lifetimes.Unused');
      const us = rep('lifetimes.Unused').size;
      assert.deepEqual([unused.objects, unused.voidObjects, unused.lag, unused.drag, unused.use], [1, 1, 0, 0, 0], 'Unused is void');
      within('Unused void space', unused.void, us * SPAN * FILLER, us * (SPAN * FILLER + SLACK + P));

      const kept = row('lifetimes.Kept');
      const k = rep('lifetimes.Kept');
      assert.deepEqual([kept.objects, kept.voidObjects], [1, 0]);
      assert.equal(k.reachableAtExit, true, 'Kept is reachable until the end');
      within('Kept lag space', kept.lag, 0, k.size * SLACK);
      within('Kept drag space', kept.drag, k.size * 2 * SPAN * FILLER, k.size * (2 * SPAN * FILLER + SLACK));
      assert.equal(rows.find((r) => r.key.startsWith('lifetimes.'))!.key, 'lifetimes.Kept', 'the dragged class tops the drag table');

      const arr = row('int[]');
      const a = rep('int[]');
      assert.deepEqual([arr.objects, arr.voidObjects, arr.lag, arr.drag], [1, 1, 0, 0], 'the written, never read array is void');
      assert.deepEqual([a.length, a.puts, a.uses], [1000, 1000, 0], 'its 1000 element stores are puts, not uses');
      within('int[1000] void space', arr.void, a.size * SPAN * FILLER, a.size * (SPAN * FILLER + SLACK + P));

      const pair = rep('lifetimes.Pair');
      assert.deepEqual([pair.puts, pair.uses], [2, 3], 'Pair: two putfields (long, int) are puts; two getfields from outside and a checkcast are uses');

      // instanceof, monitorenter and monitorexit are get operations too (Pan 2001 (HUP) Table 3): Checked is lagged, not void
      const checked = row('lifetimes.Checked');
      const cs = rep('lifetimes.Checked');
      assert.deepEqual([checked.objects, checked.voidObjects, cs.uses], [1, 0, 3], 'Checked: instanceof + monitorenter + monitorexit');
      within('Checked lag space', checked.lag, cs.size * SPAN * FILLER, cs.size * (SPAN * FILLER + SLACK));
      const refs = rep('java.lang.Object[]');
      assert.deepEqual([refs.length, refs.puts, refs.uses], [2, 1, 1], 'Object[2]: one aastore (put), one aaload (use)');

      const stat = await report(run.profileFile, ['--format', 'lifetime-stat']);
      const field = (name: string): string[] => {
        const line = stat.split('\n').find((s) => s.startsWith(name + '\t'));
        assert.ok(line, `stat has "${name}":\n${stat}`);
        return line!.split('\t').slice(1);
      };
      assert.equal(Number(field('precision')[0]), P);
      assert.match(field('precision')[1], new RegExp(`at most ${l.precisionTarget}, forced GCs kept near 10 % of the run: \\d+ forced GCs, `));
      const total = Number(field('total space')[0]);
      const parts = ['lag space', 'drag space', 'void space', 'use space'].map((n) => Number(field(n)[0]));
      assert.equal(parts.reduce((x, y) => x + y, 0), total, 'lag + drag + void + use = total space');
      assert.match(field('drag space')[1], /^\d+\.\d\d%$/);

      const nested = parseTsv(await report(run.profileFile, ['--format', 'lifetime', '--by', 'nested']));
      assert.ok(nested.some((r) => r.key === 'lifetimes.Main.main:45 lifetimes.Late'), `nested site of Late:\n${nested.map((r) => r.key).join('\n')}`);
      assert.ok(nested.some((r) => /^lifetimes\.Main\.advance:\d+ <- lifetimes\.Main\.main:\d+ byte\[\]$/.test(r.key)), 'fillers by calling context');
    });

    it('lifetimePrecision=5%: the precision ends within 5 % of the bytes allocated, with what the forced GCs cost', async () => {
      const run = await runFixture({
        jdk, classpath: [await fixture.classes()], mainClass: fixture.mainClass, tag: 'lifetimes-precise',
        runArgs: ['--mode', 'lifetime', '--sample-every', '1', '--precision', '5%'],
      });
      assertCleanRun(run, 'lifetimes', 'lifetimes done 1241');
      const l = (run.profile.json as unknown as { lifetimes: { precision: number; precisionTarget: number; precisionRule: string;
        precisionShareBp: number; clock: number; forcedGcs: number; forcedGcMillis: number; runMillis: number } }).lifetimes;
      assert.deepEqual([l.precisionRule, l.precisionShareBp], ['share', 500]);
      assert.ok(l.precision <= l.precisionTarget && l.precisionTarget <= 0.05 * l.clock,
        `precision ${l.precision} <= target ${l.precisionTarget} <= 5 % of ${l.clock}`);
      assert.ok(l.forcedGcs > 10 && l.forcedGcMillis <= l.runMillis, `${l.forcedGcs} forced GCs, ${l.forcedGcMillis} of ${l.runMillis} ms`);
      const stat = await report(run.profileFile, ['--format', 'lifetime-stat']);
      assert.match(stat, new RegExp(`^precision\\t${l.precision}\\tbytes allocated .*; at most ${l.precisionTarget}, 5 % of the bytes allocated: ${l.forcedGcs} forced GCs, `, 'm'));
    });
  });
}
