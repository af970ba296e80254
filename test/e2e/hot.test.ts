// Fixture `hot`: exact counts must survive the JIT. Each leaf method is called 200000 times from its own
// driver loop, so C2 compiles it (and inlines it into the driver); BackgroundCompilation is off for hot.Main's
// methods so compiled code takes over as soon as it is requested. C2 then applies boxing elimination (an
// Integer.valueOf whose result is only unboxed is removed), escape analysis (the non-escaping Pair and int[]
// are scalar-replaced) and the Arrays.copyOf intrinsic (ArrayList growth). The profile must still count what
// the bytecode allocates: Binder 2006's metric is the number of objects the unmodified program allocates.
import * as assert from 'assert/strict';
import { it } from 'node:test';
import { assertUnder } from './support/collapsed';
import { assertCleanRun, describeRuns, Fixture } from './support/fixture';

const fx = new Fixture({
  name: 'hot',
  jvmArgs: ['-XX:CompileCommand=quiet', '-XX:CompileCommand=BackgroundCompilation,hot.Main::*,false'],
});
const MAIN = 'hot.Main.main';

describeRuns(fx, 'hot (C2-compiled code)', (run) => {
  it('runs cleanly', () => assertCleanRun(run(), 'hot', 'hot 20990000000 20000000 990000000 4000000'));

  it('non-escaping objects and arrays (scalar-replaced by C2) are all counted', async () => {
    assertUnder(await run().collapsed('objects'), `${MAIN};hot.Main.pairLoop`, { 'hot.Main.pairs;hot.Pair': 20_000_000 });
    assertUnder(await run().collapsed('arrays'), `${MAIN};hot.Main.arrayLoop`, { 'hot.Main.arrays;int[]': 20_000_000 });
    assertUnder(await run().collapsed('elements'), `${MAIN};hot.Main.arrayLoop`, { 'hot.Main.arrays;int[]': 40_000_000 });
  });

  it('ArrayList growth through the Arrays.copyOf intrinsic is counted', async () => {
    const at = `${MAIN};hot.Main.listLoop`;
    assertUnder(await run().collapsed('objects'), at, { 'hot.Main.lists;java.util.ArrayList': 200_000 });
    assertUnder(await run().collapsed('arrays'), at, { 'hot.Main.lists;java.lang.Object[]': 600_000 });
    assertUnder(await run().collapsed('elements'), at, { 'hot.Main.lists;java.lang.Object[]': 9_400_000 });
  });

  it('boxing that C2 eliminates (Integer.valueOf result only unboxed) is still counted: 20000000', async () => {
    assertUnder(await run().collapsed('objects'), `${MAIN};hot.Main.boxLoop`, { 'hot.Main.boxes;java.lang.Integer': 20_000_000 });
  });

  it('records the call counts of the drivers and leaves', () => {
    const p = run().profile;
    for (const [driver, leaf] of [['boxLoop', 'boxes'], ['pairLoop', 'pairs'], ['arrayLoop', 'arrays'], ['listLoop', 'lists']]) {
      assert.equal(p.calls('main', [MAIN, `hot.Main.${driver}`, `hot.Main.${leaf}`]), 200_000, `${driver} -> ${leaf}`);
    }
  });
});
