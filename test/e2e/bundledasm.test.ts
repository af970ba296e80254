// Fixture `bundledasm`: an application that ships its own, unrelocated ASM 9.2 and generates a class with it.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import { it } from 'node:test';
import { assertUnder } from './support/collapsed';
import { APP_ASM_JAR } from './support/env';
import { assertCleanRun, describeRuns, Fixture } from './support/fixture';

if (!fs.existsSync(APP_ASM_JAR)) {
  throw new Error(`the bundledasm fixture needs ${APP_ASM_JAR} (plain org.objectweb.asm 9.2; set HEAPLENS_E2E_ASM_JAR)`);
}
const fx = new Fixture({ name: 'bundledasm', libs: [APP_ASM_JAR] });
const MAIN = 'bundledasm.Main.main';

describeRuns(fx, 'bundledasm', (run) => {
  it("runs cleanly with the application's own asm-9.2.jar", () =>
    assertCleanRun(run(), 'bundledasm', 'bundledasm answer=42 asm=asm-9.2.jar'));

  it('counts the allocations made directly in main', async () => {
    const objects = await run().collapsed('objects');
    assert.equal(objects.get(`${MAIN};bundledasm.Token`), 10);
    assert.equal(objects.get(`${MAIN};bundledasm.Main.generate;org.objectweb.asm.ClassWriter`), 1);
  });

  it('profiles the generated class and the application ASM like any application code', async () => {
    assertUnder(await run().collapsed('objects'), `${MAIN};bundledasm.Main.callGenerated;gen.Answer.getAsInt`,
      { 'java.lang.Object': 3 });
    const p = run().profile;
    assert.equal(p.calls('main', [MAIN, 'bundledasm.Main.callGenerated', 'gen.Answer.getAsInt']), 3);
    assert.ok(p.nodes('main', [MAIN, 'bundledasm.Main.generate', 'org.objectweb.asm.ClassWriter.<init>']).length >= 1,
      'the application ASM ClassWriter constructor is an MCT node');
  });
});
