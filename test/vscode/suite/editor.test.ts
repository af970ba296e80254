// In the real extension host, with no Java extension installed: profile the sample WordIndex through the
// heaplens debug type, then open its source: the allocation CodeLens over known methods show the counts the
// program guarantees, the hottest application line has its decoration and hover, a lens click asks the
// flame tree to focus the method, and source mapping finds frames' files.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { HeapLensApi } from '../../../extension/extension';
import { loadProfile } from '../../../core/profile/load';
import { FocusRequest } from '../../../extension/editor/refs';

const EXT_ID = 'heaplens.heaplens';

async function api(): Promise<HeapLensApi> {
  const ext = vscode.extensions.getExtension<HeapLensApi>(EXT_ID);
  assert.ok(ext, `extension ${EXT_ID} is loaded`);
  return ext.isActive ? ext.exports : ext.activate();
}

async function until<T>(what: string, fn: () => T | undefined | false | Promise<T | undefined | false>, ms = 30000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function folder(): vscode.WorkspaceFolder {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'a workspace folder is open (the samples copy)');
  return f;
}

async function lensTitles(uri: vscode.Uri): Promise<Array<{ line: number; title: string; args: unknown[] }>> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
  return lenses.filter((l) => l.command?.title.startsWith('HeapLens') || l.command?.title.startsWith('incl.'))
    .map((l) => ({ line: l.range.start.line + 1, title: l.command!.title, args: l.command!.arguments ?? [] }));
}

suite('Editor: allocation CodeLens and hot lines on the sample (no Java extension)', () => {
  let saved = '';
  let distinct = 0;
  const source = (): vscode.Uri => vscode.Uri.joinPath(folder().uri, 'src', 'demo', 'WordIndex.java');

  suiteSetup(async function () {
    this.timeout(120000);
    const { launch } = await api();
    assert.equal(vscode.extensions.getExtension('redhat.java'), undefined, 'no Java extension in this VS Code');
    const before = new Set(launch.recentProfiles());
    const ended = new Promise<void>((r) => {
      const d = vscode.debug.onDidTerminateDebugSession((s) => { if (s.type === 'heaplens') { d.dispose(); r(); } });
    });
    const ok = await vscode.debug.startDebugging(folder(), {
      type: 'heaplens', request: 'launch', name: 'suite: WordIndex', mainClass: 'demo.WordIndex',
      classPaths: ['${workspaceFolder}/build/classes'],
    });
    assert.equal(ok, true, 'the WordIndex session starts');
    await ended;
    saved = await until('the saved WordIndex profile', () => launch.recentProfiles().find((f) => !before.has(f) && path.basename(f).startsWith('WordIndex-')), 30000);
    // the program prints "words: N, distinct: D"; top() makes one Entry per distinct word
    const p = loadProfile(saved);
    const entry = [...p.types.values()].find((t) => t.name === 'demo.WordIndex$Entry');
    assert.ok(entry, 'the profile has WordIndex$Entry');
    distinct = p.threads.reduce((n, t) => n + count(t.root, entry.id), 0);
    assert.ok(distinct > 9000, `distinct words: ${distinct}`);
  });

  function count(node: { a?: number[][]; c?: unknown[] }, type: number): number {
    let n = (node.a ?? []).filter((r) => r[1] === type).reduce((s, r) => s + r[2], 0);
    for (const k of (node.c ?? []) as Array<typeof node>) n += count(k, type);
    return n;
  }

  test('the saved profile becomes the active one and the lenses show its counts', async () => {
    const { editor } = await api();
    await until('the saved profile to be active', () => editor.activeProfile()?.id === `file:${saved}`, 10000);
    const doc = await vscode.workspace.openTextDocument(source());
    await vscode.window.showTextDocument(doc);
    const lenses = await until('the allocation lenses', async () => { const l = await lensTitles(doc.uri); return l.length > 0 ? l : undefined; });
    assert.equal(await editor.outlineSource(doc), 'parser', 'method ranges from HeapLens\'s own parser');
    const at = (line: number): string[] => lenses.filter((l) => l.line === line).map((l) => l.title);
    // top(): its own Entry objects (one per distinct word) plus what the JDK allocated for it
    const top = at(76);
    assert.equal(top.length, 2, `two lenses over top(): ${JSON.stringify(lenses)}`);
    assert.match(top[0], /^HeapLens: [\d,]+ allocations · ~[\d.]+ KiB \(\d+(\.\d)?%\)$/);
    assert.ok(Number(/^HeapLens: ([\d,]+) allocations/.exec(top[0])![1].replace(/,/g, '')) >= distinct);
    assert.match(top[1], /^incl\. callees: /);
    // indexChunk allocates nothing itself; its callees do
    assert.deepEqual(at(94).map((t) => t.replace(/\d[\d,.]*/g, 'N')), ['HeapLens: no allocations of its own', 'incl. callees: N allocations · ~N MiB (N%)']);
    // the lambdas of main are counted with main; Entry's constructor and compareTo allocate nothing
    assert.equal(at(98).length, 2);
    assert.equal(at(22).length + at(28).length, 0);
  });

  test('a budget file shows each rule measured against the active profile, violations in Problems', async () => {
    const editor = (await api()).editor;
    await until('the saved profile to be active', () => editor.activeProfile()?.id === `file:${saved}`, 10000);
    const uri = vscode.Uri.joinPath(folder().uri, 'suite.heaplens-budget.json');
    const text = JSON.stringify({ version: 1, rules: [
      { id: 'tokenize', method: 'demo.WordIndex.tokenize', metric: 'objects', max: 1000000 },
      { id: 'too-tight', method: 'demo.WordIndex.top', metric: 'objects', max: 1 },
    ] }, null, 2);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const titles = await until('budget lenses', async () => {
      const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
      const t = lenses.map((l) => l.command?.title ?? '');
      return t.length === 2 && t.every((x) => x.startsWith('✓') || x.startsWith('✗')) ? t : undefined;
    }, 15000);
    assert.ok(titles[0].startsWith('✓'), `the generous rule holds: ${titles[0]}`);
    assert.ok(titles[1].startsWith('✗'), `the tight rule is exceeded: ${titles[1]}`);
    const problems = await until('a Problems entry for the violated rule', () => {
      const d = vscode.languages.getDiagnostics(uri);
      return d.length === 1 ? d : undefined;
    }, 15000);
    assert.equal(problems[0].severity, vscode.DiagnosticSeverity.Error);
    assert.match(problems[0].message, /too-tight/);
  });

  test('the hottest application lines: decoration, after-line text and hover; JDK work on the calling line', async () => {
    const { editor } = await api();
    const doc = await vscode.workspace.openTextDocument(source());
    await vscode.window.showTextDocument(doc);
    const lines = await until('hot lines', () => { const h = editor.hotLines(doc.uri); return h.length ? h : undefined; });
    const first = lines.find((l) => l.rank === 1);
    assert.ok(first, `rank 1 in this file: ${JSON.stringify(lines.map((l) => [l.line, l.rank]))}`);
    // words.add(word.toString()): a String and its byte[] per word, all made inside StringBuilder.toString
    assert.equal(first.line, 57, 'words.add(word.toString())');
    assert.equal(first.level, 5);
    assert.match(first.hover, /inside StringBuilder\\\.toString: /);
    assert.deepEqual(lines.filter((l) => l.rank <= 3).map((l) => l.line), [57, 71, 79], 'toString(), merge(), new Entry(...)');
    const entry = lines.find((l) => l.line === 79)!;
    // new Entry(...) and the Object[] that entries.add grows (the bytes are left out when the agent could not size the type)
    assert.match(entry.text, /^▲ [\d,]+ allocations · WordIndex\$Entry, Object\[\]( · ~\d+ KiB)?$/);
    assert.match(entry.hover, new RegExp(`\\| \`demo\\.WordIndex\\$Entry\` \\| ${distinct.toLocaleString('en-US')} \\|`));
    assert.match(entry.hover, /Top calling contexts/);
    assert.match(entry.hover, /WordIndex\\\.main › WordIndex\\\.top\]\(command:heaplens\.focusMethod\?/, 'a context linking to the flame tree (Markdown-escaped)');
    assert.ok(lines.length <= 10);
  });

  test('a lens click asks the flame tree to focus the method, all contexts merged', async () => {
    const { editor } = await api();
    const doc = await vscode.workspace.openTextDocument(source());
    const lens = (await lensTitles(doc.uri)).find((l) => l.line === 49)!;
    const req = lens.args[0] as FocusRequest;
    assert.deepEqual(req.source, { kind: 'file', file: saved });
    assert.deepEqual(req.frames.map((f) => `${f.class}.${f.method}${f.desc}`), ['demo.WordIndex.tokenize(Ljava/lang/String;)Ljava/util/List;']);
    const seen: FocusRequest[] = [];
    const reg = editor.registerFocusHandler((r) => { seen.push(r); return true; });
    try {
      assert.equal(await vscode.commands.executeCommand('heaplens.focusMethod', req), true);
      assert.deepEqual(seen, [req]);
    } finally {
      reg.dispose();
    }
    // without a handler from the views: the panel on a profile focused on tokenize (all contexts merged)
    const before = editor.focusRequests.length;
    assert.equal(await vscode.commands.executeCommand('heaplens.focusMethod', req), true);
    assert.equal(editor.focusRequests.length, before + 1);
    await until('the focused panel', () => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => /WordIndex\.tokenize · WordIndex-/.test(t.label))), 10000);
  });

  test('source mapping: a frame opens its file at the line; a JDK frame says the source is not available', async () => {
    const { editor } = await api();
    assert.equal(await editor.revealFrame({ class: 'demo.WordIndex$Entry', method: '<init>', file: 'WordIndex.java', line: 22 }), true);
    const ed = vscode.window.activeTextEditor!;
    assert.equal(path.basename(ed.document.uri.fsPath), 'WordIndex.java');
    assert.equal(ed.selection.start.line, 21);
    assert.equal(await editor.revealFrame({ class: 'java.util.HashMap', method: 'newNode', file: 'HashMap.java', line: 1901 }), false);
  });

  test('toggles: lenses and hot lines turn off and on', async () => {
    const { editor } = await api();
    const doc = await vscode.workspace.openTextDocument(source());
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('heaplens.toggleCodeLens');
    await until('no lenses', async () => (await lensTitles(doc.uri)).length === 0, 5000);
    await vscode.commands.executeCommand('heaplens.toggleCodeLens');
    await until('lenses again', async () => (await lensTitles(doc.uri)).length > 0, 5000);
    await vscode.commands.executeCommand('heaplens.toggleHotLines');
    await until('no hot lines', () => editor.hotLines(doc.uri).length === 0, 5000);
    await vscode.commands.executeCommand('heaplens.toggleHotLines');
    await until('hot lines again', () => editor.hotLines(doc.uri).length > 0, 5000);
  });

  test('a live session: the lenses follow its profile while it runs, then its saved profile', async function () {
    this.timeout(90000);
    const { editor, launch } = await api();
    const ended = new Promise<void>((r) => {
      const d = vscode.debug.onDidTerminateDebugSession((s) => { if (s.type === 'heaplens') { d.dispose(); r(); } });
    });
    assert.equal(await vscode.debug.startDebugging(folder(), {
      type: 'heaplens', request: 'launch', name: 'suite: LiveDemo (editor)', mainClass: 'demo.LiveDemo',
      classPaths: ['${workspaceFolder}/build/classes'], args: ['4'], include: ['demo.*'],
    }), true);
    await until('the live profile to be active', () => editor.activeProfile()?.id.startsWith('live:'), 30000);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder().uri, 'src', 'demo', 'LiveDemo.java'));
    await vscode.window.showTextDocument(doc);
    const objects = async (): Promise<number> => {
      const lens = (await lensTitles(doc.uri)).find((l) => l.line === 30 && l.title.startsWith('HeapLens'));
      return lens ? Number(/([\d,]+) allocations/.exec(lens.title)?.[1].replace(/,/g, '') ?? 0) : 0;
    };
    const first = await until('a lens over index() while the program runs', async () => { const n = await objects(); return n > 0 ? n : undefined; }, 30000);
    assert.ok(launch.lastStats(), 'still running');
    await until('the lens count to rise with the live profile', async () => (await objects()) > first, 30000);
    await ended;
    await until('the saved profile to replace the live one', () => editor.activeProfile()?.id.startsWith('file:'), 15000);
  });
});

