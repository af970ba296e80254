// In the real extension host: `heaplens.showRetention` ({ className, file }) opens the Heap view on the paths
// from GC roots of the static-map fixture's dump (made by test/vscode/harness/workspace.mjs); the accounts
// view calls the same command from a leak suspect.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { HeapLensApi } from '../../../extension/extension';
import type { RetentionResult } from '../../../extension/panels/heap-panel';

suite('heap dumps', () => {
  test('showRetention: paths from GC roots name the static field, HashMap.table and an index', async () => {
    const ext = vscode.extensions.getExtension<HeapLensApi>('heaplens.heaplens');
    assert.ok(ext);
    const api = ext.isActive ? ext.exports : await ext.activate();
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const file = path.join(folder, 'staticmap.hprof');
    const r = await vscode.commands.executeCommand<RetentionResult>('heaplens.showRetention', { className: 'staticmap.Leaked', file });
    assert.ok(r, 'the command returns the paths');
    assert.strictEqual(r.className, 'staticmap.Leaked');
    assert.strictEqual(r.instances, 200);
    assert.ok(r.paths.length >= 10, `${r.paths.length} paths`);
    for (const p of r.paths) {
      assert.match(p, /-> staticmap\.Main\.CACHE -> java\.util\.HashMap\.table -> java\.util\.HashMap\$Node\[\d+\] -> (java\.util\.HashMap\$Node\.next -> )*java\.util\.HashMap\$Node\.value -> staticmap\.Leaked$/);
    }
    const shown = api.heap.shown();
    assert.strictEqual(shown?.paths?.className, 'staticmap.Leaked');
    assert.ok(shown.histogram.some((h) => h.className === 'staticmap.Leaked' && h.objects === 200 && h.retainedBytes === 208000));
    assert.strictEqual(api.heap.lastDump(), file);
  });

  test('a file that is not a dump: the worker says so, the command ends (no hung view), the view keeps its dump', async () => {
    const api = vscode.extensions.getExtension<HeapLensApi>('heaplens.heaplens')!.exports;
    const before = api.heap.shown();
    assert.ok(before, 'the previous test showed a dump');
    const bad = path.join(os.tmpdir(), `heaplens-not-a-dump-${process.pid}.hprof`);
    fs.writeFileSync(bad, '{"format":"heaplens-profile"}');
    try {
      const r = await vscode.commands.executeCommand<RetentionResult | undefined>('heaplens.showRetention', { className: 'staticmap.Leaked', file: bad });
      assert.strictEqual(r, undefined);
      assert.strictEqual(api.heap.shown(), before, 'the Heap view still shows the last good dump');
      // the failed worker is replaced: the good dump opens again (read anew in a fresh worker)
      const file = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'staticmap.hprof');
      const again = await vscode.commands.executeCommand<RetentionResult>('heaplens.showRetention', { className: 'Leaked', file });
      assert.strictEqual(again?.instances, 200);
    } finally {
      fs.rmSync(bad, { force: true });
    }
  });
});
