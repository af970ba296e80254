// Fixture `lambdas`: allocations in lambda bodies (synthetic methods lambda$run$N) and a static initializer.
import * as assert from 'assert/strict';
import * as path from 'path';
import { RawProfile } from './support/profile';
import { describe, it } from 'node:test';
import { assertUnder, under } from './support/collapsed';
import { CLI, JDKS, PROFILE_DIR } from './support/env';
import { assertCleanRun, describeRuns, Fixture } from './support/fixture';
import { exec } from './support/heaplens';

const fx = new Fixture({ name: 'lambdas' });
const RUN = 'lambdas.Main.main;lambdas.Main.run';

describeRuns(fx, 'lambdas', (run) => {
  it('runs cleanly', () => assertCleanRun(run(), 'lambdas', 'lambdas cells=22 holder=16 captured=45'));

  it('charges lambda-body allocations to the synthetic lambda method under its caller', async () => {
    // r.run() twice: the lambda proxy class is not a frame, lambda$run$0 is a child of run
    assertUnder(await run().collapsed('objects'), `${RUN};lambdas.Main.lambda$run$0`, { 'lambdas.Cell': 14 });
    // LIST.forEach: ArrayList.forEach is JDK code, not a frame
    assertUnder(await run().collapsed('objects'), `${RUN};lambdas.Main.lambda$run$1`, { 'lambdas.Cell': 3 });
    assertUnder(await run().collapsed('arrays'), `${RUN};lambdas.Main.lambda$run$0`, {});
  });

  it('charges static-initializer allocations to <clinit> under the method that triggered it', async () => {
    const clinit = `${RUN};lambdas.Holder.<clinit>`;
    assertUnder(await run().collapsed('objects'), clinit, { 'lambdas.Cell': 5 });
    assertUnder(await run().collapsed('arrays'), clinit, { 'int[]': 1, 'lambdas.Cell[]': 1 });
    assertUnder(await run().collapsed('elements'), clinit, { 'int[]': 11, 'lambdas.Cell[]': 5 });
  });

  it('counts the instances of a capturing lambda: 10 evaluations, 10 proxy objects', async () => {
    // the proxy is a hidden class: lambdas.Main$$Lambda$14/0x… (JDK 17), lambdas.Main$$Lambda/0x… (JDK 25)
    const got = under(await run().collapsed('objects'), `${RUN};lambdas.Main.capture`);
    const proxies = Object.entries(got).filter(([k]) => k.startsWith('lambdas.Main$$Lambda'));
    const others = Object.fromEntries(Object.entries(got).filter(([k]) => !k.startsWith('lambdas.Main$$Lambda')));
    assert.deepEqual(others, {}, 'nothing else is allocated under capture');
    assert.equal(proxies.reduce((s, [, n]) => s + n, 0), 10, `lambda proxy objects under capture: ${JSON.stringify(got)}`);
    // `() -> total += k` calls and allocates nothing: by default (agent option leaves=skip) such a method is no
    // node of the call tree; the last test of this file checks leaves=keep restores it.
    assert.equal(run().profile.nodes('main', ['lambdas.Main.main', 'lambdas.Main.run', 'lambdas.Main.capture', 'lambdas.Main.lambda$capture$2']).length, 0);
  });

  it('keeps invokedynamic linkage out of run: run itself allocates nothing (docs/format.md boundary frames)', async () => {
    const own = (lines: Map<string, number>): Record<string, number> =>
      Object.fromEntries(Object.entries(under(lines, RUN)).filter(([k]) => !k.includes(';')));
    assert.deepEqual(own(await run().collapsed('objects')), {}, 'objects charged to run itself');
    assert.deepEqual(own(await run().collapsed('arrays')), {}, 'arrays charged to run itself');
  });

  it('has no other Cell allocations below run, and the expected call counts', async () => {
    const cells = Object.entries(under(await run().collapsed('objects'), RUN))
      .filter(([k]) => k.endsWith(';lambdas.Cell') || k === 'lambdas.Cell');
    assert.deepEqual(Object.fromEntries(cells), {
      'lambdas.Holder.<clinit>;lambdas.Cell': 5,
      'lambdas.Main.lambda$run$0;lambdas.Cell': 14,
      'lambdas.Main.lambda$run$1;lambdas.Cell': 3,
    });
    const p = run().profile;
    const base = ['lambdas.Main.main', 'lambdas.Main.run'];
    assert.equal(p.calls('main', [...base, 'lambdas.Main.lambda$run$0']), 2);
    assert.equal(p.calls('main', [...base, 'lambdas.Main.lambda$run$1']), 3);
    assert.equal(p.calls('main', [...base, 'lambdas.Main.lambda$run$0', 'lambdas.Cell.<init>']), 14);
    assert.equal(p.calls('main', [...base, 'lambdas.Holder.<clinit>']), 1);
    // Holder.size() only reads a field: an allocation-free leaf, no node by default (leaves=skip)
    assert.equal(p.nodes('main', [...base, 'lambdas.Holder.size']).length, 0);
    const runNode = p.nodes('main', base)[0];
    for (const c of runNode.c ?? []) {
      assert.ok(!p.method(c).class.includes('$$Lambda'), `lambda proxy class ${p.method(c).class} is not a frame`);
    }
  });
});

for (const jdk of JDKS) {
  describe(`lambdas with leaves=keep on JDK ${jdk.name}`, () => {
    it('every profiled method is a node again, with its call count (Binder 2006 MCT)', async () => {
      const classes = await fx.classes();
      const out = path.join(PROFILE_DIR, `lambdas-keep-jdk${jdk.name}.heaplens`);
      const r = await exec(process.execPath, [CLI, 'run', '--java', jdk.java, '--out', out, '--agent-opt', 'leaves=keep',
        '--', '-cp', classes, 'lambdas.Main']);
      assert.equal(r.code, 0, r.stderr);
      const p = new RawProfile(out);
      const base = ['lambdas.Main.main', 'lambdas.Main.run'];
      assert.equal(p.calls('main', [...base, 'lambdas.Holder.size']), 1);
      assert.equal(p.calls('main', [...base, 'lambdas.Main.capture', 'lambdas.Main.lambda$capture$2']), 10);
    });
  });
}
