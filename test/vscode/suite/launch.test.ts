// In the real extension host: the heaplens debug type launches the sample with the real agent, receives
// live data, pauses/resumes, saves the profile and lists it; a wrong main class gives the clear error.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { HeapLensApi } from '../../../extension/extension';
import { validateProfile, loadProfile } from '../../../core/profile/load';

const EXT_ID = 'heaplens.heaplens';

async function api(): Promise<HeapLensApi> {
  const ext = vscode.extensions.getExtension<HeapLensApi>(EXT_ID);
  assert.ok(ext, `extension ${EXT_ID} is loaded`);
  return ext.isActive ? ext.exports : ext.activate();
}

function until<T>(what: string, fn: () => T | undefined | false, ms = 30000): Promise<T> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      const v = fn();
      if (v) return resolve(v);
      if (Date.now() - t0 > ms) return reject(new Error(`timed out after ${ms} ms waiting for ${what}`));
      setTimeout(tick, 50);
    };
    tick();
  });
}

function folder(): vscode.WorkspaceFolder {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'a workspace folder is open (the samples copy)');
  return f;
}

function sampleConfig(extra: Record<string, unknown> = {}): vscode.DebugConfiguration {
  return {
    type: 'heaplens', request: 'launch', name: 'suite: LiveDemo', mainClass: 'demo.LiveDemo',
    classPaths: ['${workspaceFolder}/build/classes'], args: ['4'], include: ['demo.*'], ...extra,
  };
}

suite('HeapLens debug type in the real extension host', () => {
  test('the extension contributes the heaplens debugger and its commands', async () => {
    await api();
    const pkg = vscode.extensions.getExtension(EXT_ID)!.packageJSON as { contributes: { debuggers: Array<{ type: string }> } };
    assert.ok(pkg.contributes.debuggers.some((d) => d.type === 'heaplens'));
    const all = await vscode.commands.getCommands(true);
    for (const c of ['heaplens.pauseProfiling', 'heaplens.resumeProfiling', 'heaplens.takeSnapshot', 'heaplens.forceGc', 'heaplens.openProfile', 'heaplens.profileJavaConfiguration']) {
      assert.ok(all.includes(c), `command ${c} registered`);
    }
  });

  test('launch: live stats rise, pause and resume, snapshot, exit, saved profile listed', async () => {
    const { launch } = await api();
    let session: vscode.DebugSession | undefined;
    const started = new Promise<vscode.DebugSession>((r) => {
      const d = vscode.debug.onDidStartDebugSession((s) => { if (s.type === 'heaplens') { d.dispose(); r(s); } });
    });
    const ended = new Promise<void>((r) => {
      const d = vscode.debug.onDidTerminateDebugSession((s) => { if (s.type === 'heaplens') { d.dispose(); r(); } });
    });
    // 12 s: time for pause/resume and two mode switches (each retransforms the loaded classes) while it runs
    assert.equal(await vscode.debug.startDebugging(folder(), sampleConfig({ args: ['12'] })), true);
    session = await started;
    const first = await until('live stats with objects', () => { const s = launch.lastStats(); return s && s.objects > 0 ? s : undefined; });
    await until('the object count to rise', () => (launch.lastStats()?.objects ?? 0) > first.objects);
    const live = launch.live(session.id);
    assert.ok(live, 'the live model is kept for the session');
    const profile = live.profile.toProfile();
    validateProfile(JSON.parse(JSON.stringify(profile.file)));
    assert.ok(profile.threads.some((t) => t.name === 'main'));

    await vscode.commands.executeCommand('heaplens.pauseProfiling');
    await until('paused', () => launch.lastStats()?.paused === true, 5000);
    await vscode.commands.executeCommand('heaplens.resumeProfiling');
    await until('resumed', () => launch.lastStats()?.paused === false, 5000);
    assert.equal(launch.lastStats()?.mode, 'exact');
    // a live switch to the low-overhead mode and back: the status bar's stats say which mode records
    await vscode.commands.executeCommand('heaplens.switchMode', 'sampled');
    await until('sampled mode', () => launch.lastStats()?.mode === 'sampled', 30000);
    await vscode.commands.executeCommand('heaplens.switchMode', 'exact');
    await until('exact mode again', () => launch.lastStats()?.mode === 'exact', 30000);
    const snap = (await session.customRequest('heaplens.snapshot')) as { file: string };
    assert.ok(fs.existsSync(snap.file), `snapshot file ${snap.file}`);

    await ended;
    const saved = await until('the saved profile in the recent list', () => launch.recentProfiles().find((f) => path.basename(f).startsWith('LiveDemo-')));
    assert.equal(path.dirname(saved), path.join(folder().uri.fsPath, '.heaplens'));
    const p = loadProfile(saved);
    assert.equal(p.file.meta.final, true);
    assert.ok(p.file.methods.some((m) => m.class === 'demo.LiveDemo' && m.name === 'index'));
  });

  test('a java launch configuration is profiled by "Profile Memory (Java Launch Configuration)…"', async () => {
    const { launch } = await api();
    const started = new Promise<vscode.DebugSession>((r) => {
      const d = vscode.debug.onDidStartDebugSession((s) => { if (s.type === 'heaplens') { d.dispose(); r(s); } });
    });
    const ended = new Promise<void>((r) => {
      const d = vscode.debug.onDidTerminateDebugSession((s) => { if (s.type === 'heaplens') { d.dispose(); r(); } });
    });
    const previous = launch.recentProfiles()[0];
    await vscode.commands.executeCommand('heaplens.profileJavaConfiguration');
    const session = await started;
    assert.equal(session.name, 'Profile Memory: Run LiveDemo (java)');
    assert.equal(session.configuration.mainClass, 'demo.LiveDemo');
    await ended;
    await until('its saved profile at the top of the recent list', () => {
      const top = launch.recentProfiles()[0];
      return top !== previous && path.basename(top ?? '').startsWith('LiveDemo-');
    });
  });

  test('a wrong main class: the clear error, no stack trace', async () => {
    const { launch } = await api();
    const before = launch.errors.length;
    const ended = new Promise<void>((r) => {
      const d = vscode.debug.onDidTerminateDebugSession((s) => { if (s.type === 'heaplens') { d.dispose(); r(); } });
    });
    const ok = await vscode.debug.startDebugging(folder(), sampleConfig({ name: 'suite: wrong', mainClass: 'demo.Nope' }));
    const message = await until('the error message', () => launch.errors.slice(before).find((m) => /Main class/.test(m)), 20000);
    assert.match(message, /Main class "demo\.Nope" was not found on the classpath \(.*build\/classes\)/);
    assert.doesNotMatch(message, /at .*\.js:\d+/);
    if (ok) await ended;
  });
});

suite('HeapLens attach in the real extension host', () => {
  test('attach to a running JVM: the agent is loaded with jcmd, live stats arrive, detach leaves it running', async function () {
    const { launch } = await api();
    const { spawn } = await import('child_process');
    const classes = path.join(folder().uri.fsPath, 'build', 'classes');
    const child = spawn('java', ['-cp', classes, 'demo.LiveDemo', '20'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 1500)); // let the JVM start its attach listener
      const started = new Promise<vscode.DebugSession>((r) => {
        const d = vscode.debug.onDidStartDebugSession((s) => { if (s.type === 'heaplens') { d.dispose(); r(s); } });
      });
      const ok = await vscode.debug.startDebugging(folder(), { type: 'heaplens', request: 'attach', name: 'suite: attach', processId: child.pid, include: ['demo.*'] });
      assert.equal(ok, true, `attach started (errors: ${launch.errors.join(' | ')})`);
      const session = await started;
      await until('live stats from the attached JVM', () => { const s = launch.lastStats(); return s && s.objects > 0 ? s : undefined; });
      const info = (await session.customRequest('heaplens.info')) as { pid: number; live: boolean };
      assert.equal(info.pid, child.pid);
      assert.equal(info.live, true);
      await vscode.debug.stopDebugging(session);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(child.exitCode, null, 'the JVM keeps running after detach');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
