// The debug adapter over DAP streams, with a fake `java` (test/unit/support/fake-java.ts) serving the fake agent.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HeapLensDebugSession } from '../../extension/launch/adapter';
import { HeapLensConfig } from '../../extension/launch/config';
import { DapClient } from './support/dap-client';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-adapter-'));
const dist = path.join(tmp, 'dist');
fs.mkdirSync(dist);
fs.writeFileSync(path.join(dist, 'heaplens-agent.jar'), 'not really a jar');
const fakeJava = path.join(tmp, 'java');
fs.writeFileSync(fakeJava, `#!/bin/sh\nexec "${process.execPath}" "${path.join(__dirname, 'support', 'fake-java.js')}" "$@"\n`, { mode: 0o755 });

function config(extra: Partial<HeapLensConfig> = {}): HeapLensConfig {
  return {
    type: 'heaplens', request: 'launch', name: 'Profile Memory', mainClass: 'demo.Main', javaExec: fakeJava, args: ['8'],
    env: { FOO: 'bar' },
    __heaplens: { profileDir: path.join(tmp, 'ws', '.heaplens'), distDir: dist, workspaceFolder: tmp, trusted: true, client: 'test' },
    ...extra,
  };
}

async function session(): Promise<DapClient> {
  const dap = new DapClient(new HeapLensDebugSession({ statsIntervalMs: 50, portTimeoutMs: 5000 }));
  const init = await dap.request('initialize', { adapterID: 'heaplens', pathFormat: 'path', linesStartAt1: true });
  assert.equal(init.success, true);
  return dap;
}

test('launch: output in the Debug Console, live stats, pause/resume, exit code, saved profile', async () => {
  const dap = await session();
  const launch = await dap.request('launch', config());
  assert.equal(launch.success, true, launch.message);
  const stats = await dap.waitFor((m) => m.event === 'heaplens.stats' && m.body.objects > 0);
  assert.ok(stats.body.objects > 0);
  const paused = await dap.request('heaplens.pause');
  assert.equal(paused.success, true);
  assert.equal((await dap.request('heaplens.stats')).body.paused, true);
  assert.equal((await dap.request('heaplens.resume')).success, true);
  assert.deepEqual((await dap.request('heaplens.snapshot')).body, { file: '/tmp/fake.heaplens' });
  assert.equal((await dap.request('heaplens.gc')).success, true);
  const exited = await dap.waitFor((m) => m.event === 'exited', 10000);
  assert.equal(exited.body.exitCode, 0);
  await dap.waitFor((m) => m.event === 'terminated');
  assert.match(dap.output('stdout'), /fake program demo\.Main starting \(cwd .*, FOO=bar\)/);
  assert.match(dap.output('stdout'), /tick 8/);
  assert.match(dap.output('stderr'), /a line on stderr/);
  assert.doesNotMatch(dap.output('stdout'), /stderr/);
  const saved = dap.events('heaplens.profileSaved');
  assert.equal(saved.length, 1);
  assert.ok(saved[0].body.file.startsWith(path.join(tmp, 'ws', '.heaplens', 'Main-')));
  assert.ok(fs.existsSync(saved[0].body.file));
  assert.match(dap.output('console'), /The program exited with code 0/);
});

test('a wrong main class: a clear error, not a stack trace', async () => {
  const dap = await session();
  const launch = await dap.request('launch', config({ mainClass: 'demo.Missing', classPaths: [tmp] }));
  // the agent's channel may open before the JVM finds out: either the launch fails or an error event follows
  const message = launch.success
    ? (await dap.waitFor((m) => m.event === 'heaplens.error')).body.message
    : launch.body.error.format;
  assert.match(message, /Main class "demo\.Missing" was not found on the classpath/);
  assert.match(message, /Check "mainClass"/);
  // the empty profile the agent wrote at start is not left behind to pass for a result (issue 20)
  await dap.waitFor((m) => m.event === 'output' && /no profile was kept/.test(m.body.output), 10000);
  assert.deepEqual(dap.events('heaplens.profileSaved'), []);
  const dir = path.join(tmp, 'ws', '.heaplens');
  assert.deepEqual(fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith('Missing-')) : [], []);
});

test('a program that exits during the handshake ends cleanly with its profile, no channel error (issue 20)', async () => {
  const dap = await session();
  const launch = await dap.request('launch', config({ mainClass: 'demo.ExitInHandshake' }));
  assert.equal(launch.success, true, launch.message);
  const exited = await dap.waitFor((m) => m.event === 'exited', 10000);
  assert.equal(exited.body.exitCode, 3);
  await dap.waitFor((m) => m.event === 'terminated');
  assert.deepEqual(dap.events('heaplens.error').map((e) => e.body.message), []);
  assert.doesNotMatch(dap.output('console') + dap.output('stderr'), /could not be opened/);
  assert.equal(dap.events('heaplens.profileSaved').length, 1);
  assert.match(dap.output('console'), /The program exited with code 3/);
});

test('a JVM that dies at start, before the agent: the launch fails with the JVM\'s reason', async () => {
  const dap = await session();
  const launch = await dap.request('launch', config({ mainClass: 'demo.Crash' }));
  assert.equal(launch.success, false);
  assert.match(launch.body.error.format, /The JVM did not start: Error occurred during initialization of VM/);
});

test('bad input is refused before anything starts', async () => {
  const dap = await session();
  const cases: Array<[Partial<HeapLensConfig>, RegExp]> = [
    [{ mainClass: undefined }, /"mainClass" is missing/],
    [{ jar: path.join(tmp, 'nope.jar') }, /The jar .*nope\.jar does not exist/],
    [{ classPaths: [path.join(tmp, 'no-such-dir')] }, /Classpath entry .*no-such-dir does not exist/],
    [{ javaExec: undefined, javaHome: path.join(tmp, 'nojdk') }, /"javaHome" .*nojdk has no bin\/java/],
    [{ cwd: path.join(tmp, 'missing') }, /"cwd" .* is not an existing folder/],
    [{ envFile: 'nope.env' }, /"envFile" .* does not exist/],
  ];
  for (const [extra, re] of cases) {
    const r = await dap.request('launch', config(extra));
    assert.equal(r.success, false);
    assert.match(r.body.error.format, re);
  }
  const untrusted = config();
  untrusted.__heaplens = { ...untrusted.__heaplens!, trusted: false };
  const r = await dap.request('launch', untrusted);
  assert.match(r.body.error.format, /restricted workspace/);
});

test('no channel (the agent never writes its port file): the program still runs, with a warning', async () => {
  const dap = await session();
  const launch = await dap.request('launch', config({ env: { FAKE_JAVA_NO_PORT: '1' }, args: ['3'] }));
  assert.equal(launch.success, true, launch.message);
  const warning = await dap.waitFor((m) => m.event === 'heaplens.error', 10000);
  assert.match(warning.body.message, /ended before the HeapLens agent opened its channel/);
  await dap.waitFor((m) => m.event === 'terminated', 10000);
  assert.match(dap.output('stdout'), /tick 3/);
});

test('stop: terminating the session ends the JVM through the agent and keeps the profile', async () => {
  const dap = await session();
  const launch = await dap.request('launch', config({ args: ['1000'] }));
  assert.equal(launch.success, true);
  await dap.waitFor((m) => m.event === 'heaplens.stats' && m.body.objects > 0);
  const t0 = Date.now();
  const r = await dap.request('disconnect', { terminateDebuggee: true });
  assert.equal(r.success, true);
  assert.ok(Date.now() - t0 < 5000);
  const exited = await dap.waitFor((m) => m.event === 'exited');
  assert.equal(exited.body.exitCode, 143);
  assert.equal(dap.events('heaplens.profileSaved').length, 1);
});

test('console: integratedTerminal asks the client to run java (runInTerminal) and still connects', async () => {
  const dap = await session();
  let asked: { args: string[]; env: Record<string, string | null>; cwd: string } | undefined;
  dap.onReverse = (m) => {
    asked = m.arguments;
    const env = { ...process.env };
    for (const [k, v] of Object.entries(asked!.env)) if (v === null) delete env[k]; else env[k] = v;
    const child = spawn(asked!.args[0], asked!.args.slice(1), { cwd: asked!.cwd, env, stdio: 'ignore' });
    return { processId: child.pid };
  };
  const launch = await dap.request('launch', config({ console: 'integratedTerminal', args: ['6'] }));
  assert.equal(launch.success, true, launch.message);
  assert.equal(asked!.args[0], fakeJava);
  assert.match(String(asked!.env.HEAPLENS_TOKEN), /^[0-9a-f]{64}$/);
  await dap.waitFor((m) => m.event === 'heaplens.stats' && m.body.objects > 0);
  await dap.waitFor((m) => m.event === 'terminated', 10000);
  assert.match(dap.output('console'), /The program ended \(its exit code is shown in the terminal\)\./);
});
