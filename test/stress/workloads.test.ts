// Stress (npm run test:stress): the benchmark workloads (bench/workloads: javac, xalan, fop, luindex, h2 …) run
// once unprofiled and once under the exact agent, every JVM with -Xverify:all (JAVA_TOOL_OPTIONS), on JDK 17
// and 25: every workload's output is identical (the bench's own output digests) and no run fails.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { execFile } from 'child_process';
import { describe, it } from 'node:test';
import { JDKS, ROOT } from '../e2e/support/env';

for (const jdk of JDKS) {
  describe(`bench workloads under -Xverify:all on JDK ${jdk.name}`, () => {
    it('outputs identical with and without the agent, no failed run', async () => {
      const out = path.join(ROOT, 'build', 'stress', `bench-jdk${jdk.name}`);
      fs.rmSync(out, { recursive: true, force: true });
      const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const env = { ...process.env, JAVA_TOOL_OPTIONS: '-Xverify:all' };
        execFile(process.execPath,
          [path.join(ROOT, 'bench', 'run.mjs'), '--quick', '--workloads', 'javac,xalan,fop,luindex,h2', '--configs', 'plain,heaplens-exact', '--no-startup', '--no-accuracy',
            '--jdk', jdk.name, '--out', out, '--tag', 'stress'],
          { cwd: ROOT, env, timeout: 3 * 3600_000, maxBuffer: 256 << 20, encoding: 'utf8' },
          (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) }));
      });
      assert.equal(r.code, 0, r.stderr.slice(-4000));
      const res = JSON.parse(fs.readFileSync(path.join(out, `jdk${jdk.name}-stress.json`), 'utf8'));
      const summary = res.summary.workloads ?? res.summary;
      const names = Object.keys(summary);
      assert.ok(names.length >= 5, `workloads: ${names.join(', ')}`);
      for (const wl of names) {
        const exact = summary[wl].configs['heaplens-exact'];
        console.log(`JDK ${jdk.name} ${wl}: output ${exact.output}, ${exact.checkSummary}, wall ratio ${exact.wallRatio?.toFixed(2)}`);
        assert.equal(summary[wl].configs.plain.failed, 0, `${wl} plain failed`);
        assert.equal(exact.failed, 0, `${wl} exact failed: ${JSON.stringify(exact.errors)}`);
        assert.equal(exact.output, 'same', `${wl}: output ${exact.output}`);
      }
    });
  });
}
