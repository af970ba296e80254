// The JDK at first use, in the real extension host: a too old JDK (from the launch configuration, then from
// the heaplens.javaHome setting) stops the launch before any JVM starts, with the message that says where to
// set a JDK; the machine's JDK passes "Check the Java Runtime".
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { HeapLensApi } from '../../../extension/extension';
import type { JdkCheck } from '../../../extension/launch/jdk';

async function api(): Promise<HeapLensApi> {
  const ext = vscode.extensions.getExtension<HeapLensApi>('heaplens.heaplens');
  assert.ok(ext, 'the HeapLens extension is loaded');
  return ext.activate();
}

async function until<T>(what: string, fn: () => T | undefined, ms = 20000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A JDK 11 look-alike: a release file and a java that would fail loudly if it were ever run. */
function oldJdk(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-jdk11-'));
  fs.mkdirSync(path.join(home, 'bin'));
  fs.writeFileSync(path.join(home, 'bin', 'java'), '#!/bin/sh\necho "this JDK must not run" >&2\nexit 3\n', { mode: 0o755 });
  fs.writeFileSync(path.join(home, 'release'), 'JAVA_VERSION="11.0.22"\n');
  return home;
}

suite('HeapLens: the JDK at first use', () => {
  test('a JDK 11 in "javaHome" or in heaplens.javaHome: the launch stops with where to set a JDK 17+', async () => {
    const { launch } = await api();
    const home = oldJdk();
    const folder = vscode.workspace.workspaceFolders![0];
    let started = 0;
    const d = vscode.debug.onDidStartDebugSession((s) => { if (s.type === 'heaplens') started++; });
    try {
      const before = launch.errors.length;
      const ok = await vscode.debug.startDebugging(folder, {
        type: 'heaplens', request: 'launch', name: 'suite: old JDK', mainClass: 'demo.LiveDemo',
        classPaths: ['${workspaceFolder}/build/classes'], javaHome: home,
      });
      assert.equal(ok, false, 'the launch is refused');
      const msg = await until('the JDK error', () => launch.errors.slice(before).find((m) => /needs Java 17/.test(m)));
      assert.match(msg, new RegExp(`but ${path.join(home, 'bin', 'java').replace(/[.\\/]/g, '\\$&')} \\(from "javaHome"\\) is Java 11\\.0\\.22`));
      assert.match(msg, /"heaplens\.javaHome" setting/);

      const config = vscode.workspace.getConfiguration('heaplens');
      await config.update('javaHome', home, vscode.ConfigurationTarget.Workspace);
      const before2 = launch.errors.length;
      const ok2 = await vscode.debug.startDebugging(folder, {
        type: 'heaplens', request: 'launch', name: 'suite: old JDK (setting)', mainClass: 'demo.LiveDemo',
        classPaths: ['${workspaceFolder}/build/classes'],
      });
      assert.equal(ok2, false);
      const msg2 = await until('the JDK error (setting)', () => launch.errors.slice(before2).find((m) => /needs Java 17/.test(m)));
      assert.match(msg2, /\(from the "heaplens\.javaHome" setting\) is Java 11\.0\.22/);
      assert.equal(started, 0, 'no debug session started');
    } finally {
      d.dispose();
      await vscode.workspace.getConfiguration('heaplens').update('javaHome', undefined, vscode.ConfigurationTarget.Workspace);
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });

  test('"Check the Java Runtime" finds the machine\'s JDK 17+', async () => {
    await api();
    // the command shows a message and resolves to the check once the message is dismissed; do not wait for that
    const pending = vscode.commands.executeCommand<JdkCheck>('heaplens.checkJava');
    const r = await Promise.race([pending, new Promise<undefined>((res) => setTimeout(() => res(undefined), 3000))]);
    await vscode.commands.executeCommand('notifications.clearAll');
    const check = r ?? await pending;
    assert.ok(check.ok, check.ok ? '' : check.message);
    assert.ok(check.jdk.major >= 17, `Java ${check.jdk.version}`);
  });
});
