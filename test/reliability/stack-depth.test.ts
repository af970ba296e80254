// "Never break the program": a recursion that works unprofiled works profiled (issue item 1, docs/reliability.md
// "Stack depth"). Fixture `depth` finds, by bisection in fresh threads of the default stack size, the deepest plain
// recursion that completes; under `heaplens run` in every mode it must reach at least 90 % of the plain depth,
// on JDK 17 and 25. Before the launcher gave threads more stack, exact mode reached 18 % and sampled 17 % on JDK 17.
import * as assert from 'assert/strict';
import { before, describe, it } from 'node:test';
import { CLI, JDK17, JDKS } from '../e2e/support/env';
import { compileFixture, exec } from '../e2e/support/heaplens';
import { outFile } from './support';

const MODES: Array<[string, string[]]> = [
  ['exact', ['--mode', 'exact']], ['sampled', ['--mode', 'sampled']], ['sites', ['--mode', 'sites']],
  ['paused', ['--mode', 'paused']], ['accounts', ['--accounts', 'depth.*']],
];

function depthOf(stdout: string, stderr: string): number {
  const m = /^depth (\d+)$/m.exec(stdout);
  assert.ok(m, `no "depth N" line:\n${stdout}\n${stderr}`);
  return Number(m![1]);
}

for (const jdk of JDKS) {
  describe(`stack depth under the agent on JDK ${jdk.name}`, () => {
    let classes: string;
    let plain: number;
    before(async () => {
      classes = await compileFixture('depth', { jdk: JDK17, release: 17 });
      const r = await exec(jdk.java, ['-cp', classes, 'depth.Main']);
      assert.equal(r.code, 0, r.stderr);
      plain = depthOf(r.stdout, r.stderr);
    });

    for (const [name, args] of MODES) {
      it(`${name}: at least 90 % of the plain depth`, async () => {
        const out = outFile(`depth-${name}-jdk${jdk.name}.heaplens`);
        const r = await exec(process.execPath, [CLI, 'run', ...args, '--java', jdk.java, '--out', out, '--', '-cp', classes, 'depth.Main']);
        assert.equal(r.code, 0, r.stderr);
        const profiled = depthOf(r.stdout, r.stderr);
        assert.ok(profiled >= 0.9 * plain, `${name}: depth ${profiled} profiled, ${plain} plain (${Math.round((100 * profiled) / plain)} %)`);
      });
    }
  });
}
