// Issue 20, item 3: a program that calls System.exit(3) while the extension's live channel is still saying hello.
// Through the debug adapter with a real JVM: each launch must end as a normal end — exit code 3, the final profile
// saved with all its objects — never "the agent's channel could not be opened". The exit lands at delays swept over
// the handshake; before the fix about 1 launch in 8 on JDK 25 reported the channel as broken.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../../extension/cli/cli';
import { before, describe, it } from 'node:test';
import { HeapLensDebugSession } from '../../extension/launch/adapter';
import { HeapLensConfig } from '../../extension/launch/config';
import { DapClient } from '../unit/support/dap-client';
import { JDK17, JDKS, ROOT } from '../e2e/support/env';
import { compileFixture } from '../e2e/support/heaplens';
import { AGENT, OUT_DIR, readProfile } from './support';

let classes: string;
before(async () => { classes = await compileFixture('faults', { jdk: JDK17 }); });

const DELAYS_MS = [0, 0, 0, 10, 20, 40, 80, 160];

for (const jdk of JDKS) {
  describe(`System.exit during the live channel's handshake, JDK ${jdk.name}`, () => {
    it(`${DELAYS_MS.length} launches exiting ${DELAYS_MS.join(', ')} ms after start: each ends cleanly with its profile`, async () => {
      const endMs: number[] = [];
      for (const [i, delay] of DELAYS_MS.entries()) {
        const dap = new DapClient(new HeapLensDebugSession({ statsIntervalMs: 200, portTimeoutMs: 60_000 }));
        await dap.request('initialize', { adapterID: 'heaplens', pathFormat: 'path', linesStartAt1: true });
        const cfg: HeapLensConfig = {
          type: 'heaplens', request: 'launch', name: 'exit', mainClass: 'faults.Main', classPaths: [classes],
          args: ['exitafter', String(delay)], javaExec: jdk.java,
          __heaplens: { profileDir: path.join(OUT_DIR, `exit-handshake-jdk${jdk.name}-${i}`), distDir: path.join(ROOT, 'dist'), trusted: true, client: 'test' },
        };
        const t0 = Date.now();
        const launch = await dap.request('launch', cfg, 90_000);
        assert.equal(launch.success, true, launch.body?.error?.format ?? launch.message);
        const exited = await dap.waitFor((m) => m.event === 'exited', 60_000);
        endMs.push(Date.now() - t0);
        assert.match(dap.output('stdout'), /marks 4950/);
        assert.equal(exited.body.exitCode, 3, `launch ${i}`);
        await dap.waitFor((m) => m.event === 'terminated', 10_000);
        assert.deepEqual(dap.events('heaplens.error').map((e) => e.body.message), [], `launch ${i} (exit after ${delay} ms)`);
        const saved = dap.events('heaplens.profileSaved');
        assert.equal(saved.length, 1, `launch ${i}: profile saved`);
        const p = readProfile(saved[0].body.file);
        assert.equal(p.meta.final, true, `launch ${i}: the final write happened`);
      }
      // not asserted (the machine is shared): printed for the record, a hang at exit would show here
      console.log(`JDK ${jdk.name}: from the launch request to the exit event, ms: ${endMs.join(' ')}`);
    });
  });
}

// Issue 20, item 8, with real JVMs: a main class that is not there leaves no profile and says the program did not start.
for (const jdk of JDKS) {
  it(`heaplens run, JDK ${jdk.name}: a wrong main class says the program did not start and leaves no profile`, async () => {
    const out = path.join(OUT_DIR, `missing-main-jdk${jdk.name}.heaplens`);
    fs.rmSync(out, { force: true });
    let err = '';
    const code = await runCli(['run', '--no-channel', '--java', jdk.java, '--out', out, '--', '-cp', classes, 'faults.NoSuchMain'], {
      env: { PATH: process.env.PATH, HEAPLENS_AGENT: AGENT }, cwd: ROOT, cliDir: path.join(ROOT, 'dist'),
      stdout: () => undefined, stderr: (t: string) => { err += t; },
    });
    assert.equal(code, 1, err);
    assert.match(err, /^heaplens: the program did not start: Main class "faults\.NoSuchMain" was not found/m);
    assert.doesNotMatch(err, /profile written/);
    assert.equal(fs.existsSync(out), false);
  });
}
