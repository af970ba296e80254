// Stress (npm run test:stress): every class of every Debian jar in /usr/share/java (the bench workloads' jars
// among them) loaded and linked under -Xverify:all on JDK 17 and 25, with and without the agent: the same
// classes load, none fails to verify, and the agent failed to transform none.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { before, describe, it } from 'node:test';
import { JDK17, JDKS } from '../e2e/support/env';
import { compileFixture, Exec } from '../e2e/support/heaplens';
import { agentArg, java, outFile, readProfile } from '../reliability/support';

const SHARE = process.env.HEAPLENS_STRESS_JARS ?? '/usr/share/java';
// each jar once: Debian installs most of them twice (name.jar -> name-1.2.jar)
const jars = [...new Set(fs.readdirSync(SHARE).filter((f) => f.endsWith('.jar')).sort()
  .map((f) => fs.realpathSync(path.join(SHARE, f))))].filter((f) => fs.statSync(f).isFile());

for (const jdk of JDKS) {
  describe(`every class of ${jars.length} jars in ${SHARE} on JDK ${jdk.name}`, () => {
    let plain: Exec;
    let profiled: Exec;
    let profile: string;
    before(async () => {
      assert.ok(jars.length >= 50, `only ${jars.length} jars in ${SHARE}`);
      const dir = await compileFixture('loadall', { jdk: JDK17 });
      profile = outFile(`loadall-jdk${jdk.name}.heaplens`);
      const jvmArgs = ['-Xmx2g', '-XX:MaxMetaspaceSize=2g'];
      [plain, profiled] = await Promise.all([
        java(jdk, { jvmArgs, classpath: [dir], main: 'loadall.Main', args: jars, timeoutMs: 3600_000 }),
        java(jdk, { agent: agentArg(profile), jvmArgs, classpath: [dir], main: 'loadall.Main', args: jars, timeoutMs: 3600_000 }),
      ]);
    });

    it('the same classes load and link with and without the agent; none fails to verify', () => {
      assert.equal(plain.code, 0, plain.stderr);
      assert.equal(profiled.code, 0, profiled.stderr);
      const total = /loadall classes=(\d+) linked=(\d+) failed=(\d+)/.exec(plain.stdout);
      assert.ok(total, plain.stdout.slice(-500));
      console.log(`JDK ${jdk.name}: ${total[0]}`);
      assert.ok(Number(total[1]) > 20_000, total[0]);
      assert.equal(profiled.stdout, plain.stdout);
      assert.doesNotMatch(profiled.stdout, /VerifyError|ClassFormatError/);
    });

    it('the agent transformed every class it was given, failing none', () => {
      const t = readProfile(profile).transform;
      console.log(`JDK ${jdk.name}: transformed ${t.classesTransformed}, seen ${t.classesSeen}, failed ${t.classesFailed}, ${t.transformMillis} ms`);
      assert.deepEqual(t.failures, []);
      assert.equal(t.classesFailed, 0);
      assert.ok(t.classesTransformed > 20_000);
    });
  });
}
