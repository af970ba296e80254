// The live channel drops while the program runs (docs/reliability.md "the profile survives"): the debug adapter
// says so in the Debug Console and sends heaplens.channelLost with the profile file, which the extension then
// opens in the profile editor (extension/launch/register.ts); the program runs on and ends normally.
// The real agent's side of the same cut is survive.test.ts.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { test } from 'node:test';
import { EVENTS, HeapLensDebugSession } from '../../extension/launch/adapter';
import { HeapLensConfig } from '../../extension/launch/config';
import { DapClient } from '../unit/support/dap-client';

test('a cut channel: the loss is reported with the profile file to follow, the program runs on', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-cut-'));
  const dist = path.join(tmp, 'dist');
  fs.mkdirSync(dist);
  fs.writeFileSync(path.join(dist, 'heaplens-agent.jar'), 'not really a jar');
  const fakeJava = path.join(tmp, 'java');
  const fake = path.join(__dirname, '..', 'unit', 'support', 'fake-java.js');
  fs.writeFileSync(fakeJava, `#!/bin/sh\nFAKE_JAVA_CUT_AT=3 exec "${process.execPath}" "${fake}" "$@"\n`, { mode: 0o755 });
  const config: HeapLensConfig = {
    type: 'heaplens', request: 'launch', name: 'Profile Memory', mainClass: 'demo.Main', javaExec: fakeJava, args: ['25'],
    __heaplens: { profileDir: path.join(tmp, 'ws', '.heaplens'), distDir: dist, workspaceFolder: tmp, trusted: true, client: 'test' },
  };
  const dap = new DapClient(new HeapLensDebugSession({ statsIntervalMs: 50, portTimeoutMs: 5000 }));
  assert.equal((await dap.request('initialize', { adapterID: 'heaplens', pathFormat: 'path', linesStartAt1: true })).success, true);
  const launch = await dap.request('launch', config);
  assert.equal(launch.success, true, launch.message);
  const started = await dap.waitFor((m) => m.event === EVENTS.started);
  const lost = await dap.waitFor((m) => m.event === EVENTS.channelLost, 10_000);
  assert.equal(lost.body.profile, started.body.profile, 'the file to follow is the one the agent writes');
  assert.equal(typeof lost.body.reason, 'string');
  assert.match(dap.output('console'), /the live channel closed.*the program keeps running and the profile file is still written/);
  // the program was not disturbed: it runs to its end and exits 0, and the file is there
  const exited = await dap.waitFor((m) => m.event === 'exited', 15_000);
  assert.equal(exited.body.exitCode, 0);
  assert.match(dap.output('stdout'), /tick 25/);
  assert.ok(fs.existsSync(started.body.profile));
});
