// The run-to-profile loop's logic (issue 19): F5 on a single file compiles it first, snapshots are frozen
// copies under their own names, Show Profile's and the status bar's lists.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compileSingleFile, mainClassOfSource, runCompiled } from '../../extension/launch/single-file';
import { LaunchPlan } from '../../extension/launch/plan';
import { freezeSnapshot, snapshotName, snapshots } from '../../extension/launch/snapshots';
import { ago, profilePicks, savedProfiles } from '../../extension/panels/profile-picks';
import { sessionActionList } from '../../extension/panels/session-actions';
import { COMMANDS } from '../../extension/commands';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-loop-'));

test('the class a single file runs: its package and first top-level type, comments and strings ignored', () => {
  assert.equal(mainClassOfSource('package demo.app;\n\n/* class Old */ public final class Main { String s = "class X"; }'), 'demo.app.Main');
  assert.equal(mainClassOfSource('// package a.b;\nimport java.util.*;\nrecord Point(int x) {}\nclass Other {}'), 'Point');
  assert.equal(mainClassOfSource('/* nothing */'), undefined);
});

function plan(args: string[], classPath?: string): LaunchPlan {
  return { java: '/usr/bin/java', args, cwd: tmp, env: {}, profile: '/p.heaplens', portFile: '/port', tmpDir: tmp, token: 't', target: '/src/Main.java', classPath, agentJar: '/a.jar' };
}

test('the compiled class runs in place of the source file, its folder first on the class path', () => {
  const agent = '-javaagent:/a.jar=out=/p.heaplens';
  assert.deepEqual(runCompiled(plan(['-Xmx1g', agent, '/src/Main.java', '7']), '/src/Main.java', '/t/classes', 'demo.Main').args,
    ['-Xmx1g', agent, '-cp', '/t/classes', 'demo.Main', '7']);
  const withCp = runCompiled(plan([agent, '-cp', '/lib/a.jar', '/src/Main.java'], '/lib/a.jar'), '/src/Main.java', '/t/classes', 'Main');
  assert.deepEqual(withCp.args, [agent, '-cp', `/t/classes${path.delimiter}/lib/a.jar`, 'Main']);
  assert.equal(withCp.classPath, `/t/classes${path.delimiter}/lib/a.jar`);
});

test('a single file is compiled by the JDK\'s javac, with line numbers, and a compile error is the launch\'s error', async () => {
  const java = fs.realpathSync('/usr/bin/java');
  const src = path.join(tmp, 'Hello.java');
  fs.writeFileSync(src, 'package hi;\npublic class Hello {\n  public static void main(String[] a) { System.out.println("hello " + a.length); }\n}\n');
  const work = fs.mkdtempSync(path.join(tmp, 'session-'));
  const lines: string[] = [];
  const p = await compileSingleFile({ ...plan(['-Xss1m', src, 'x', 'y']), java, tmpDir: work, target: src }, src, (l) => lines.push(l));
  assert.deepEqual(p.args, ['-Xss1m', '-cp', path.join(work, 'classes'), 'hi.Hello', 'x', 'y']);
  assert.ok(fs.existsSync(path.join(work, 'classes', 'hi', 'Hello.class')));
  assert.match(lines.join(''), /compiled Hello\.java in \d+ ms; profiling hi\.Hello/);
  assert.equal(execFileSync(java, p.args.slice(1), { encoding: 'utf8' }), 'hello 2\n');
  // -g: the class has a line number table (javap -l lists it for main, line 3)
  const javap = execFileSync(path.join(path.dirname(java), 'javap'), ['-l', '-cp', path.join(work, 'classes'), 'hi.Hello'], { encoding: 'utf8' });
  assert.match(javap, /line 3: 0/);
  fs.writeFileSync(src, 'public class Hello { int x = ; }\n');
  await assert.rejects(compileSingleFile({ ...plan([src]), java, tmpDir: work, target: src }, src, () => undefined), /Hello\.java does not compile:\n.*Hello\.java:1: error: illegal start of expression/);
});

test('a snapshot is a copy under its own name that stays when the run rewrites its file', () => {
  assert.equal(snapshotName('/w/.heaplens/LiveDemo-20261125-031500.heaplens', 2, new Date(2026, 10, 25, 3, 15, 9)),
    '/w/.heaplens/LiveDemo-20261125-031500.snapshot-2-031509.heaplens');
  const profile = path.join(tmp, 'Run-1.heaplens');
  const fixture = path.join(__dirname, '..', '..', '..', 'test', 'unit', 'data');
  const sample = fs.readdirSync(fixture).find((f) => f.endsWith('.heaplens'))!;
  fs.copyFileSync(path.join(fixture, sample), profile);
  const a = freezeSnapshot(profile, 'session-1', new Date(2026, 0, 1, 10, 0, 0));
  const b = freezeSnapshot(profile, 'session-1', new Date(2026, 0, 1, 10, 0, 5));
  const other = freezeSnapshot(profile, 'session-2', new Date(2026, 0, 1, 10, 0, 6));
  assert.deepEqual([a.n, b.n, other.n], [1, 2, 1]);
  assert.equal(path.basename(b.file), 'Run-1.snapshot-2-100005.heaplens');
  fs.writeFileSync(profile, 'rewritten by the agent');
  assert.equal(fs.readFileSync(a.file, 'utf8'), fs.readFileSync(path.join(fixture, sample), 'utf8'));
  assert.deepEqual(snapshots('session-1').map((s) => s.n), [2, 1]);
  assert.deepEqual(snapshots().map((s) => path.basename(s.file)), ['Run-1.snapshot-1-100006.heaplens', 'Run-1.snapshot-2-100005.heaplens', 'Run-1.snapshot-1-100000.heaplens']);
  // a file that is not a profile is no snapshot (and leaves no copy behind)
  assert.throws(() => freezeSnapshot(profile, 'session-3'), /the snapshot could not be copied whole/);
  assert.deepEqual(fs.readdirSync(tmp).filter((f) => f.startsWith('Run-1.snapshot-1-') && !['Run-1.snapshot-1-100000.heaplens', 'Run-1.snapshot-1-100006.heaplens'].includes(f)), []);
});

test('Show Profile lists the live session, the snapshots, the workspace\'s .heaplens/ newest first, then Browse…', () => {
  const ws = fs.mkdtempSync(path.join(tmp, 'ws-'));
  fs.mkdirSync(path.join(ws, '.heaplens'));
  const at = (name: string, sec: number): string => {
    const f = path.join(ws, '.heaplens', name);
    fs.writeFileSync(f, '{}');
    fs.utimesSync(f, sec, sec);
    return f;
  };
  const old = at('A-old.heaplens', 1_000_000);
  const snap = at('B.snapshot-1-100000.heaplens', 1_000_500);
  const newest = at('C-new.heaplens', 1_001_000);
  at('notes.txt', 1_002_000);
  const saved = savedProfiles([ws, path.join(tmp, 'no-such-folder')]);
  assert.deepEqual(saved.map((s) => path.basename(s.file)), ['C-new.heaplens', 'B.snapshot-1-100000.heaplens', 'A-old.heaplens']);
  const picks = profilePicks({
    live: [{ id: 's1', name: 'Profile Memory' }], snapshots: [{ file: snap, n: 1 }], saved, now: 1_001_000_000 + 125_000,
    relative: (f) => path.relative(ws, f),
  });
  assert.deepEqual(picks.map((p) => [p.pick, p.label, p.description]), [
    ['live', '$(pulse) Profile Memory', 'running: live flame tree'],
    ['file', '$(device-camera) B.snapshot-1-100000.heaplens', 'snapshot 1 of this session'],
    ['file', '$(file) C-new.heaplens', `${path.join('.heaplens', 'C-new.heaplens')} · 2 min ago`],
    ['file', '$(file) A-old.heaplens', `${path.join('.heaplens', 'A-old.heaplens')} · 18 min ago`],
    ['browse', '$(folder-opened) Browse…', 'choose a .heaplens file'],
  ]);
  assert.equal((picks[2] as { file: string }).file, newest);
  assert.equal((picks[3] as { file: string }).file, old);
  assert.deepEqual([ago(0, 59_000), ago(0, 3_600_000), ago(0, 2 * 86_400_000)], ['59 s ago', '1 h ago', '2 d ago']);
});

test('the status bar item\'s actions: the live flame tree first, never a silent pause', () => {
  const running = sessionActionList(false, true);
  assert.deepEqual(running.map((a) => a.label.replace(/^\$\([\w-]+\) /, '')),
    ['Show Live Flame Tree', 'Pause Profiling', 'Take Snapshot', 'Switch Profiling Mode…', 'Force Garbage Collection', 'Stop the Program']);
  assert.equal(running[1].command, COMMANDS.pauseProfiling);
  const paused = sessionActionList(true, false);
  assert.equal(paused[0].command, COMMANDS.resumeProfiling);
  assert.equal(paused.some((a) => a.live), false);
});

test('Add Configuration: one configuration, a name not taken yet, the build\'s real class folder', async () => {
  const { newConfiguration, uniqueName, layoutOf } = await import('../../extension/launch/new-config');
  const maven = fs.mkdtempSync(path.join(tmp, 'mvn-'));
  fs.writeFileSync(path.join(maven, 'pom.xml'), '<project/>');
  const gradle = fs.mkdtempSync(path.join(tmp, 'gradle-'));
  fs.writeFileSync(path.join(gradle, 'build.gradle.kts'), '');
  const plain = fs.mkdtempSync(path.join(tmp, 'plain-'));
  assert.deepEqual([layoutOf(maven), layoutOf(gradle), layoutOf(plain), layoutOf(undefined)], ['maven', 'gradle', 'none', 'none']);
  const javaFile = { name: 'App.java', text: 'package com.acme;\npublic class App { public static void main(String[] a) {} }' };
  assert.deepEqual(newConfiguration({ folder: maven, javaFile, taken: ['Profile Memory: App'] }), {
    type: 'heaplens', request: 'launch', name: 'Profile Memory: App (2)', mainClass: 'com.acme.App', classPaths: ['${workspaceFolder}/target/classes'],
  });
  assert.deepEqual(newConfiguration({ folder: gradle, javaFile, taken: [] }).classPaths, ['${workspaceFolder}/build/classes/java/main']);
  assert.deepEqual(newConfiguration({ folder: plain, javaFile, taken: [] }), {
    type: 'heaplens', request: 'launch', name: 'Profile Memory: Current File', mainClass: '${file}',
  });
  assert.equal(uniqueName('P', ['P', 'P (2)', 'P (4)']), 'P (3)');
});

test('"Why is it still alive?" on a finished profile: a dump at the end of the next run, once', async () => {
  const { requestDumpAtNextRun, takeDumpAtNextRun, dumpAtNextRunRequested } = await import('../../extension/launch/dump-next-run');
  const at = new Date(2026, 10, 25, 3, 15, 0);
  assert.equal(takeDumpAtNextRun({}, '/w/.heaplens', at), undefined);
  requestDumpAtNextRun();
  assert.equal(dumpAtNextRunRequested(), true);
  // a configuration with its own dump keeps it, and the request waits for the next run
  assert.equal(takeDumpAtNextRun({ heapDumpAtExit: '/mine.hprof' }, '/w/.heaplens', at), undefined);
  assert.equal(takeDumpAtNextRun({}, '/w/.heaplens', at), path.join('/w/.heaplens', 'heap-at-exit-20261125-031500.hprof'));
  assert.equal(takeDumpAtNextRun({}, '/w/.heaplens', at), undefined);
});

test('one JDK search order: README, the walkthrough and "Check the Java Runtime" name the same places in the same order', async () => {
  const { JDK_ORDER } = await import('../../extension/launch/jdk');
  const root = path.join(__dirname, '..', '..', '..');
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const walkthrough = JSON.stringify(pkg.contributes.walkthroughs);
  const places = [/javaHome/, /heaplens\.javaHome/, /Java extension's project JDK/, /JAVA_HOME/, /PATH/];
  /** where each place is first named after the previous one (−1: missing or out of order) */
  const order = (text: string): number[] => {
    let from = 0;
    return places.map((re) => {
      const m = re.exec(text.slice(from));
      if (!m) return -1;
      from += m.index + m[0].length;
      return from;
    });
  };
  const readmeOrder = readme.slice(readme.indexOf('HeapLens uses, in this order'), readme.indexOf('HeapLens uses, in this order') + 300);
  const walkOrder = walkthrough.slice(walkthrough.indexOf('It uses the launch configuration'), walkthrough.indexOf('It uses the launch configuration') + 300);
  for (const [name, text] of [['README', readmeOrder], ['walkthrough', walkOrder], ['Check the Java Runtime', JDK_ORDER]]) {
    assert.ok(order(text).every((i) => i > 0), `${name} does not name the JDK places in the order: ${text}`);
  }
});

test('the accounts mode\'s status bar figures: the last snapshot\'s counts of the named accounts', async () => {
  const { accountedFigures } = await import('../../extension/launch/accounted');
  const root = path.join(__dirname, '..', '..', '..');
  const base = JSON.parse(fs.readFileSync(path.join(root, 'test', 'unit', 'data', 'sample.heaplens'), 'utf8'));
  const file = path.join(tmp, 'accounts.heaplens');
  assert.equal(accountedFigures(path.join(tmp, 'missing.heaplens')), undefined);
  fs.writeFileSync(file, JSON.stringify(base));
  assert.equal(accountedFigures(file), undefined);                    // no accounts section (yet)
  base.accounts = {
    mode: 'accounts', names: ['(unaccounted)', 'srv.http.*', 'srv.cache'], liveness: { kind: 'exact', every: 1, tracked: 10, refunded: 2 }, gcs: 3,
    snapshots: [
      { seq: 1, time: 1, reason: 'periodic', gc: false, gcs: 1, rows: [[2, 'srv.cache.Entry', 10, 240, 10, 240, 0, 0]] },
      { seq: 2, time: 2, reason: 'periodic', gc: false, gcs: 3, rows: [
        [0, 'java.lang.String', 1000, 24000, 5, 120, 0, 0], [1, 'srv.http.Request', 300, 7200, 2, 48, 0, 0],
        [2, 'srv.cache.Entry', 50, 1200, 48, 1152, 40, 2], [2, 'byte[]', 50, 4000, 48, 3840, 40, 2]] },
    ],
  };
  fs.writeFileSync(file, JSON.stringify(base));
  // the last snapshot, (unaccounted) left out: 300 + 50 + 50 allocated, 2 + 48 + 48 live
  assert.deepEqual(accountedFigures(file), { objects: 400, bytes: 12400, accounts: 2, liveObjects: 98, liveBytes: 5040 });
});
