// Fixture `figure3`: the eight multi-dimensional array allocations of Binder 2006 Figure 3, one per method.
import * as assert from 'assert/strict';
import { it } from 'node:test';
import { elementCode, under } from './support/collapsed';
import { assertCleanRun, describeRuns, Fixture } from './support/fixture';

const fx = new Fixture({ name: 'figure3' });
const RUN = 'figure3.Main.main;figure3.Main.run';

/** Binder 2006 Figure 3, verbatim: code → [arrays, elements]. */
const FIGURE3: Record<string, Record<string, [number, number]>> = {
  obj235: { R: [9, 38] }, // new Object[2][3][5]
  obj230: { R: [9, 8] }, // new Object[2][3][0]
  obj205: { R: [3, 2] }, // new Object[2][0][5]
  obj035: { R: [1, 0] }, // new Object[0][3][5]
  int235: { R: [3, 8], I: [6, 30] }, // new int[2][3][5]
  int230: { R: [3, 8], I: [6, 0] }, // new int[2][3][0]
  int205: { R: [3, 2], I: [0, 0] }, // new int[2][0][5]
  int035: { R: [1, 0], I: [0, 0] }, // new int[0][3][5]
};

/** Per dimension level (collapsed lines; a level with 0 arrays has no line, 0 elements no elements line). */
const LEVELS: Record<string, { arrays: Record<string, number>; elements: Record<string, number> }> = {
  obj235: {
    arrays: { 'java.lang.Object[][][]': 1, 'java.lang.Object[][]': 2, 'java.lang.Object[]': 6 },
    elements: { 'java.lang.Object[][][]': 2, 'java.lang.Object[][]': 6, 'java.lang.Object[]': 30 },
  },
  obj230: {
    arrays: { 'java.lang.Object[][][]': 1, 'java.lang.Object[][]': 2, 'java.lang.Object[]': 6 },
    elements: { 'java.lang.Object[][][]': 2, 'java.lang.Object[][]': 6 },
  },
  obj205: {
    arrays: { 'java.lang.Object[][][]': 1, 'java.lang.Object[][]': 2 },
    elements: { 'java.lang.Object[][][]': 2 },
  },
  obj035: { arrays: { 'java.lang.Object[][][]': 1 }, elements: {} },
  int235: {
    arrays: { 'int[][][]': 1, 'int[][]': 2, 'int[]': 6 },
    elements: { 'int[][][]': 2, 'int[][]': 6, 'int[]': 30 },
  },
  int230: { arrays: { 'int[][][]': 1, 'int[][]': 2, 'int[]': 6 }, elements: { 'int[][][]': 2, 'int[][]': 6 } },
  int205: { arrays: { 'int[][][]': 1, 'int[][]': 2 }, elements: { 'int[][][]': 2 } },
  int035: { arrays: { 'int[][][]': 1 }, elements: {} },
};

describeRuns(fx, 'figure3', (run) => {
  it('runs cleanly', () => assertCleanRun(run(), 'figure3', 'figure3 done 12'));

  for (const method of Object.keys(FIGURE3)) {
    it(`${method}: one line per dimension level, and the per-element-code totals of Figure 3`, async () => {
      const arrays = under(await run().collapsed('arrays'), `${RUN};figure3.Main.${method}`);
      const elements = under(await run().collapsed('elements'), `${RUN};figure3.Main.${method}`);
      assert.deepEqual(arrays, LEVELS[method].arrays, `${method} arrays per level`);
      assert.deepEqual(elements, LEVELS[method].elements, `${method} elements per level`);
      const totals: Record<string, [number, number]> = {};
      for (const [type, n] of Object.entries(arrays)) {
        const code = elementCode(type);
        assert.ok(code, `${type} is an array type`);
        totals[code] = totals[code] ?? [0, 0];
        totals[code][0] += n;
      }
      for (const [type, n] of Object.entries(elements)) {
        const code = elementCode(type) as string;
        totals[code] = totals[code] ?? [0, 0];
        totals[code][1] += n;
      }
      // a code whose arrays and elements are both 0 has no line at all: the paper still lists I 0/0
      for (const code of Object.keys(FIGURE3[method])) totals[code] = totals[code] ?? [0, 0];
      assert.deepEqual(totals, FIGURE3[method], `${method}: Figure 3 profileArrays totals`);
    });
  }

  it('allocates no objects and nothing else in the eight methods', async () => {
    const objects = under(await run().collapsed('objects'), RUN);
    assert.deepEqual(objects, {});
    const arrays = under(await run().collapsed('arrays'), RUN);
    for (const k of Object.keys(arrays)) {
      assert.ok(Object.keys(FIGURE3).some((m) => k.startsWith(`figure3.Main.${m};`)), `unexpected line ${k}`);
    }
  });

  it('labels the array types with the element codes of Binder 2006 and records one multianewarray site each', () => {
    const p = run().profile;
    for (const t of p.types.values()) {
      if (!t.array) continue;
      if (/^(int|java\.lang\.Object)(\[\])+$/.test(t.name)) {
        assert.equal(t.elementCode, elementCode(t.name), `elementCode of ${t.name}`);
      }
    }
    for (const method of Object.keys(FIGURE3)) {
      const m = p.methodsNamed('figure3.Main', method);
      assert.equal(m.length, 1, `one method entry for ${method}`);
      const sites = [...p.sites.values()].filter((s) => s.method === m[0].id);
      assert.deepEqual(sites.map((s) => [s.kind, p.typeName(s.type)]),
        [['multianewarray', method.startsWith('obj') ? 'java.lang.Object[][][]' : 'int[][][]']], `sites of ${method}`);
    }
  });
});
