// Fixture `recursion`: down(1000) recurses 1000 levels deep, one recursion.Level per level.
import * as assert from 'assert/strict';
import { it } from 'node:test';
import { sumUnder, under } from './support/collapsed';
import { assertCleanRun, assertFirstSection, describeRuns, Fixture } from './support/fixture';

const fx = new Fixture({ name: 'recursion' });
const RUN = 'recursion.Main.main;recursion.Main.run';
const DOWN = 'recursion.Main.down';

describeRuns(fx, 'recursion', (run) => {
  it('runs cleanly', () => assertCleanRun(run(), 'recursion', 'recursion depth=1000'));

  it('writes the first section the TypeScript writer computes from the same trees', () => assertFirstSection(run()));

  it('has one line per level with 1 Level each, 1000 in total, the deepest 1000 frames down', async () => {
    const lines = await run().collapsed('objects');
    const got = under(lines, RUN);
    const expected: Record<string, number> = {};
    for (let depth = 1; depth <= 1000; depth++) {
      expected[`${Array(depth).fill(DOWN).join(';')};recursion.Level`] = 1;
    }
    assert.equal(Object.keys(got).length, 1000, 'one line per recursion level');
    assert.deepEqual(got, expected);
    const deepest = `${RUN};${Array(1000).fill(DOWN).join(';')};recursion.Level`;
    assert.equal(lines.get(deepest), 1, 'the deepest stack line');
    assert.equal(sumUnder(lines, RUN, (t) => t === 'recursion.Level'), 1000);
  });

  it('records 1 call per level and nothing folded', () => {
    const p = run().profile;
    let node = p.nodes('main', ['recursion.Main.main', 'recursion.Main.run'])[0];
    assert.ok(node, 'run node');
    for (let depth = 1; depth <= 1000; depth++) {
      const downs = (node.c ?? []).filter((c) => p.frame(c) === DOWN);
      assert.equal(downs.length, 1, `one down node at depth ${depth}`);
      node = downs[0];
      assert.equal(node.calls, 1, `calls at depth ${depth}`);
      assert.equal(node.folded ?? 0, 0, `folded at depth ${depth}`);
    }
    assert.equal((node.c ?? []).filter((c) => p.frame(c) === DOWN).length, 0, 'nothing below depth 1000');
  });
});
