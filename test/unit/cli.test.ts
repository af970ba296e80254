import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../../extension/cli/cli';
import { CliContext } from '../../extension/cli/context';
import { defaultOutName } from '../../extension/cli/locate';
import { agentArgument, planRun } from '../../extension/cli/run-command';
import { dataFile } from './helpers';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-cli-'));
const jar = path.join(tmp, 'heaplens-agent.jar');
fs.writeFileSync(jar, 'not really a jar');

/** A stand-in for java: records its arguments, writes the profile named by out=…, exits with $FAKE_EXIT. */
const fakeJava = path.join(tmp, 'java');
fs.writeFileSync(fakeJava, `#!/bin/sh
[ "$1" = -version ] && { echo 'openjdk version "17.0.9" 2023-10-17' >&2; exit 0; }
[ "$FAKE_MISSING_MAIN" = 1 ] && out=$(printf '%s' "$1" | sed -n 's/.*=out=\\([^,]*\\).*/\\1/p') && echo '{}' > "$out" \\
  && echo 'Error: Could not find or load main class demo.Missing' >&2 && echo 'Caused by: java.lang.ClassNotFoundException: demo.Missing' >&2 && exit 1
printf '%s\\n' "$@" > "${tmp}/args.txt"
out=$(printf '%s' "$1" | sed -n 's/.*=out=\\([^,]*\\).*/\\1/p')
[ -n "$FAKE_WRITE" ] && echo '{}' > "$out"
exit \${FAKE_EXIT:-0}
`, { mode: 0o755 });

function ctx(env: NodeJS.ProcessEnv = {}): CliContext & { out: string; err: string } {
  const c = {
    env: { PATH: process.env.PATH, HEAPLENS_AGENT: jar, ...env }, cwd: tmp, cliDir: tmp, out: '', err: '',
    stdout(t: string) { c.out += t; },
    stderr(t: string) { c.err += t; },
  };
  return c;
}

test('help, version and unknown commands', async () => {
  const c = ctx();
  assert.equal(await runCli(['--version'], c), 0);
  assert.equal(c.out, '0.1.0\n');
  assert.equal(await runCli(['help'], c), 0);
  assert.match(c.out, /heaplens run \[--out FILE\]/);
  const bad = ctx();
  assert.equal(await runCli(['frobnicate'], bad), 2);
  assert.equal(bad.err, 'heaplens: unknown command "frobnicate" (try: heaplens help)\n');
  assert.equal(await runCli([], ctx()), 2);
});

test('report: text, collapsed to a file, and errors', async () => {
  const c = ctx();
  assert.equal(await runCli(['report', dataFile('sample.heaplens')], c), 0);
  assert.match(c.out, /^objects 13, arrays 8, array elements 51, est\. bytes 504/m);
  const out = path.join(tmp, 'sub', 'sample.collapsed');
  assert.equal(await runCli(['report', dataFile('sample.heaplens'), '--format', 'collapsed', '--metric=elements', '--threads', '--out', out], c), 0);
  assert.equal(fs.readFileSync(out, 'utf8').split('\n')[0], 'thread:main;com.acme.Main.main;com.acme.Outer$Inner.run;byte[] 30');
  const e1 = ctx();
  assert.equal(await runCli(['report'], e1), 2);
  assert.match(e1.err, /^heaplens: report needs exactly one profile file\n/);
  const e2 = ctx();
  assert.equal(await runCli(['report', 'x', '--format', 'collapsed', '--metric', 'weight'], e2), 2);
  assert.equal(e2.err, 'heaplens: option --metric must be one of objects, bytes, arrays, elements, samples, allocations (got "weight")\n');
  // CPU samples: a profile without the threads profile is told so, with the way to get one
  const noCpu = ctx();
  assert.equal(await runCli(['report', dataFile('sample.heaplens'), '--format', 'collapsed', '--metric', 'samples'], noCpu), 2);
  assert.match(noCpu.err, /sample\.heaplens: this profile has no CPU samples: profile with threads sampling on \(heaplens run --threads/);
  const e3 = ctx();
  fs.writeFileSync(path.join(tmp, 'cut.heaplens'), '{"format": "heaplens-profile", "ver');
  assert.equal(await runCli(['report', 'cut.heaplens'], e3), 1);
  assert.match(e3.err, /^heaplens: .*cut\.heaplens: not a HeapLens profile: the file is truncated or corrupted/);
  assert.equal(e3.err.split('\n').length, 2, 'one line');
});

test('report --format lines: the hot lines as TSV; collapsed counts allocations (objects + arrays) by default', async () => {
  const c = ctx();
  assert.equal(await runCli(['report', dataFile('sample.heaplens'), '--format', 'lines', '--top', '3'], c), 0);
  assert.equal(c.out, 'file\tline\tmethod\tallocations\tbytes\n'
    + 'com/acme/Outer.java\t31\tcom.acme.Outer$Inner.run\t6\t144\n'
    + 'com/acme/Outer.java\t32\tcom.acme.Outer$Inner.run\t4\t128\n'
    + 'com/acme/Util.java\t6\tcom.acme.Util.grid\t3\t88\n');
  const d = ctx();
  assert.equal(await runCli(['report', dataFile('sample.heaplens'), '--format', 'collapsed'], d), 0);
  // 3 byte[] and 3 String on one stack: allocations count both
  assert.match(d.out, /^com\.acme\.Main\.main;com\.acme\.Outer\$Inner\.run;byte\[\] 3$/m);
  assert.match(d.out, /^com\.acme\.Main\.main;com\.acme\.Util\.grid;int\[\]\[\] 1$/m);
  for (const [args, message] of [
    [['--format', 'lines', '--metric', 'objects'], 'heaplens: --format lines ranks by --metric allocations (objects + arrays) or bytes\n'],
    [['--format', 'lines', '--top', '0'], 'heaplens: --top takes a whole number of lines from 1, not "0"\n'],
    [['--format', 'lines', '--threads'], 'heaplens: --threads applies to --format collapsed\n'],
    [['--format', 'collapsed', '--top', '3'], 'heaplens: --top applies to --format lines\n'],
  ] as const) {
    const e = ctx();
    assert.equal(await runCli(['report', dataFile('sample.heaplens'), ...args], e), 2);
    assert.equal(e.err, message);
  }
});

test('run: the -javaagent argument (comma between options, colon between list items)', () => {
  assert.equal(agentArgument('/a/agent.jar', { out: '/t/p.heaplens', include: ['com.acme.*', 'org.x'], exclude: ['com.acme.gen.*'], mode: 'exact', extra: ['maxDepth=64'] }),
    '-javaagent:/a/agent.jar=out=/t/p.heaplens,include=com.acme.*:org.x,exclude=com.acme.gen.*,mode=exact,maxDepth=64');
  const plan = planRun(['--include', 'com.acme.*,org.x', '--exclude=gen', '--java', fakeJava, '--out', 'p/x.heaplens', '--', '-cp', 'cls', 'Main', 'arg'], ctx());
  assert.equal(plan.java, fakeJava);
  assert.deepEqual(plan.args, [`-javaagent:${jar}=out=${path.join(tmp, 'p/x.heaplens')},include=com.acme.*:org.x,exclude=gen`, '-cp', 'cls', '-Xss12m', 'Main', 'arg']);
  // java arguments may also start right after the options, without --
  assert.deepEqual(planRun(['--java', fakeJava, '-jar', 'app.jar'], ctx()).args.slice(1), ['-Xss12m', '-jar', 'app.jar']);
  // thread stacks: 12 times the program's own, after its options so that ours wins; --stack-scale 1 leaves them
  assert.deepEqual(planRun(['--java', fakeJava, '--', '-Xss4m', '-cp', 'a', 'Main', '-Xss1m'], ctx()).args.slice(1), ['-Xss4m', '-cp', 'a', '-Xss48m', 'Main', '-Xss1m']);
  assert.deepEqual(planRun(['--java', fakeJava, '--stack-scale', '1', '--', 'Main'], ctx()).args.slice(1), ['Main']);
  assert.throws(() => planRun(['--java', fakeJava, '--stack-scale', '0', '--', 'Main'], ctx()), /--stack-scale must be a whole number from 1 \(off\) to 64, not "0"/);
  assert.equal(defaultOutName(new Date(2026, 0, 2, 3, 4, 5)), 'heaplens-20260102-030405.heaplens');
});

test('run: the JFR sampler gets deep JFR stacks and fixed TLABs, unless the user set FlightRecorderOptions or TLAB flags', () => {
  const jfr = planRun(['--java', fakeJava, '--mode', 'sampled', '--agent-opt', 'sampler=jfr', '--', '-cp', 'cls', 'Main'], ctx());
  assert.deepEqual(jfr.args.slice(0, 4), ['-XX:FlightRecorderOptions=stackdepth=1024', '-XX:TLABSize=16k', '-XX:-ResizeTLAB', '-XX:TLABRefillWasteFraction=1']);
  assert.match(jfr.args[4], /^-javaagent:.*,mode=sampled,sampler=jfr$/);
  const own = planRun(['--java', fakeJava, '--agent-opt', 'sampler=jfr', '--', '-XX:FlightRecorderOptions=stackdepth=64', '-XX:TLABSize=64k', 'Main'], ctx());
  assert.deepEqual(own.args.slice(1), ['-XX:FlightRecorderOptions=stackdepth=64', '-XX:TLABSize=64k', '-Xss12m', 'Main']);
  assert.match(own.args[0], /^-javaagent:/);
  const probes = planRun(['--java', fakeJava, '--mode', 'sampled', '--', 'Main'], ctx());
  assert.match(probes.args[0], /^-javaagent:/);
});

test('run: --accounts sets the accounts mode and passes the patterns with ":"; --liveness needs it', () => {
  const plan = planRun(['--accounts', 'srv.http.*,srv.cache', '--liveness', 'exact', '--java', fakeJava, '--out', 'a.heaplens', '--', 'Main'], ctx());
  assert.equal(plan.args[0], `-javaagent:${jar}=out=${path.join(tmp, 'a.heaplens')},mode=accounts,accounts=srv.http.*:srv.cache,liveness=exact`);
  const exact = planRun(['--accounts', 'srv.http.*', '--mode', 'exact', '--java', fakeJava, '--', 'Main'], ctx());
  assert.match(exact.args[0], /,mode=exact,accounts=srv\.http\.\*$/);
  assert.throws(() => planRun(['--liveness', 'exact', '--java', fakeJava, '--', 'Main'], ctx()), /--liveness applies to the accounts mode/);
});

test('run: --precision passes the lifetime mode\'s precision rule to the agent, and only for that mode', () => {
  const plan = planRun(['--mode', 'lifetime', '--precision', '1%', '--java', fakeJava, '--out', 'a.heaplens', '--', 'Main'], ctx());
  assert.equal(plan.args[0], `-javaagent:${jar}=out=${path.join(tmp, 'a.heaplens')},mode=lifetime,lifetimePrecision=1%`);
  assert.throws(() => planRun(['--precision', '1%', '--java', fakeJava, '--', 'Main'], ctx()), /--precision applies to --mode lifetime/);
  assert.throws(() => planRun(['--mode', 'lifetime', '--precision', 'fine', '--java', fakeJava, '--', 'Main'], ctx()),
    /--precision must be auto or a share like 1%, not "fine"/);
});

test('run: usage errors exit 2 with one line', async () => {
  const cases: Array<[string[], NodeJS.ProcessEnv, RegExp]> = [
    [['--java', fakeJava], {}, /^heaplens: nothing to run: give the java arguments after --/],
    [['--java', fakeJava, '--out', 'a,b.heaplens', '--', 'Main'], {}, /may not contain ","/],
    [['--java', '/no/such/java', '--', 'Main'], {}, /^heaplens: --java \/no\/such\/java: no such executable\n$/],
    [['--', 'Main'], { PATH: '/nonexistent', JAVA_HOME: '' }, /^heaplens: no Java runtime found\. HeapLens needs a JDK 17 or newer/],
    [['--java', fakeJava, '--', 'Main'], { HEAPLENS_AGENT: path.join(tmp, 'none.jar') }, /^heaplens: agent jar not found: .*none\.jar/],
    [['--bogus', '--', 'Main'], {}, /^heaplens: unknown option --bogus\n$/],
  ];
  for (const [args, env, re] of cases) {
    const c = ctx(env);
    assert.equal(await runCli(['run', ...args], c), 2, args.join(' '));
    assert.match(c.err, re);
  }
});

test('run: spawns java, passes its exit code through and reports the profile', async () => {
  const sessions = path.join(tmp, 'sessions');
  const c = ctx({ FAKE_EXIT: '3', FAKE_WRITE: '1', HEAPLENS_SESSIONS: sessions });
  assert.equal(await runCli(['run', '--java', fakeJava, '--out', 'o/run.heaplens', '--', '-cp', 'x', 'Main'], c), 3);
  // the run's session directory (port and token files for `heaplens heapdump`) exists while it runs, then goes
  const dir = path.join(sessions, `heaplens-sessions-${process.getuid!()}`, String(process.pid));
  assert.equal(fs.readFileSync(path.join(tmp, 'args.txt'), 'utf8'),
    `-javaagent:${jar}=out=${path.join(tmp, 'o/run.heaplens')},portFile=${dir}/port.json,tokenFile=${dir}/token\n-cp\nx\n-Xss12m\nMain\n`);
  assert.equal(fs.existsSync(dir), false);
  const plain = ctx({ FAKE_WRITE: '1' });
  assert.equal(await runCli(['run', '--no-channel', '--threads', '--heap-dump-at-exit', 'h.hprof', '--java', fakeJava, '--out', 'o/run.heaplens', '--', 'Main'], plain), 0);
  assert.equal(fs.readFileSync(path.join(tmp, 'args.txt'), 'utf8'),
    `-javaagent:${jar}=out=${path.join(tmp, 'o/run.heaplens')},heapDumpAtExit=${path.join(tmp, 'h.hprof')},threads=true\n-Xss12m\nMain\n`);
  assert.match(plain.err, /no heap dump was written to h\.hprof/);
  const bad = ctx();
  assert.equal(await runCli(['run', '--heap-dump-at-exit', 'h.bin', '--java', fakeJava, '--', 'Main'], bad), 2);
  assert.match(bad.err, /must name a file ending with \.hprof/);
  assert.equal(c.err, 'heaplens: profile written to o/run.heaplens\n');
  const none = ctx();
  assert.equal(await runCli(['run', '--java', fakeJava, '--out', 'o/none.heaplens', '--', 'Main'], none), 0);
  assert.match(none.err, /^heaplens: warning: no profile was written to o\/none\.heaplens/);
});

test('heap and heapdump: usage errors exit 2 with one line', async () => {
  const noFile = ctx();
  assert.equal(await runCli(['heap', '--histogram'], noFile), 2);
  assert.match(noFile.err, /give one heap dump file/);
  const noMode = ctx();
  fs.writeFileSync(path.join(tmp, 'x.hprof'), 'JAVA PROFILE 1.0.2\0');
  assert.equal(await runCli(['heap', 'x.hprof'], noMode), 2);
  assert.match(noMode.err, /choose one of --histogram, --dominators, --paths CLASS/);
  const badMax = ctx();
  assert.equal(await runCli(['heap', 'x.hprof', '--paths', 'A', '--max', '0'], badMax), 2);
  const notDump = ctx();
  fs.writeFileSync(path.join(tmp, 'y.hprof'), '{}');
  assert.equal(await runCli(['heap', 'y.hprof', '--histogram'], notDump), 1);
  assert.match(notDump.err, /not an HPROF heap dump/);
  const noSession = ctx({ HEAPLENS_SESSIONS: path.join(tmp, 'no-sessions') });
  assert.equal(await runCli(['heapdump', 'd.hprof'], noSession), 2);
  assert.match(noSession.err, /no running heaplens session/);
  const badName = ctx();
  assert.equal(await runCli(['heapdump', 'd.bin'], badName), 2);
  assert.match(badName.err, /must end with \.hprof/);
});

test('devices, FIFOs, folders and unwritable outputs fail at once with one line (issue 20)', async () => {
  const fifo = path.join(tmp, 'a-fifo');
  require('child_process').execFileSync('mkfifo', [fifo]);
  const sample = dataFile('sample.heaplens');
  const cases: Array<[string[], number, RegExp]> = [
    [['report', '/dev/zero'], 1, /^heaplens: \/dev\/zero: cannot read: a device, not a file\n$/],
    [['report', fifo], 1, /cannot read: a named pipe \(FIFO\), not a file\n$/],
    [['report', tmp], 1, /cannot read: a directory, not a file\n$/],
    [['report', sample, '-o', '/proc/nope/x.html'], 1, /^heaplens: cannot create \/proc\/nope: no such file\n$/],
    [['report', sample, '--format', 'html', '-o', fifo], 1, /cannot write .*a-fifo: a named pipe \(FIFO\), not a file\n$/],
    [['check', sample, '--budget', '/dev/zero'], 2, /cannot read the budget file: a device, not a file\n$/],
    [['run', '--java', fakeJava, '--out', '/proc/x/y.heaplens', '--', 'Main'], 1, /^heaplens: cannot create \/proc\/x: no such file\n$/],
  ];
  fs.rmSync(path.join(tmp, 'args.txt'), { force: true });
  for (const [argv, code, message] of cases) {
    const c = ctx();
    assert.equal(await runCli(argv, c), code, argv.join(' '));
    assert.match(c.err, message, argv.join(' '));
    assert.equal(c.out, '');
  }
  assert.equal(fs.existsSync(path.join(tmp, 'args.txt')), false, 'java never started for an unwritable --out');
});

test('run: --java must be the java of a JDK 17+; a main class that is not found leaves no profile (issue 20)', async () => {
  for (const [java, said] of [['/bin/true', /\/bin\/true is not a Java runtime \(asked for its version, it said: no output\)/],
    ['/usr/bin/python3', /python3.* is not a Java runtime/]] as const) {
    fs.rmSync(path.join(tmp, 'args.txt'), { force: true });
    const c = ctx();
    assert.equal(await runCli(['run', '--java', java, '--out', 'o/j.heaplens', '--', 'Main'], c), 2, java);
    assert.match(c.err, said);
    assert.match(c.err, /give the java of a JDK 17 or newer with --java\n$/);
    assert.equal(fs.existsSync(path.join(tmp, 'o/j.heaplens')), false);
  }
  const c = ctx({ FAKE_MISSING_MAIN: '1' });
  assert.equal(await runCli(['run', '--no-channel', '--java', fakeJava, '--out', 'o/missing.heaplens', '--', 'demo.Missing'], c), 1);
  assert.match(c.err, /^heaplens: the program did not start: Main class "demo\.Missing" was not found/m);
  assert.match(c.err, /\(no profile kept\)\n$/);
  assert.doesNotMatch(c.err, /profile written/);
  assert.equal(fs.existsSync(path.join(tmp, 'o/missing.heaplens')), false);
});

test('terminal escapes from a file name or its content are shown, not sent to the terminal (issue 20)', async () => {
  const name = path.join(tmp, 'evil\u001b]0;pwned\u0007\u001b[31m.heaplens');
  fs.writeFileSync(name, '{"format":"heaplens-profile","version":1,\u001b[2J\u009b31m');
  for (const argv of [['report', name], ['report', path.join(tmp, 'nope\u001b[2J.heaplens')], ['check', name, '--budget', name]]) {
    const c = ctx();
    assert.notEqual(await runCli(argv, c), 0);
    assert.match(c.err, /^heaplens: /);
    assert.doesNotMatch(c.err, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, JSON.stringify(c.err));
    assert.match(c.err, /\\x1b/, 'the escape is shown as \\x1b');
  }
});

test('sessions folder: another user\'s or a link is never used, ours is made private; stale sessions are never chosen (issue 20)', async () => {
  const { rootProblem } = await import('../../extension/cli/sessions');
  const st = (uid: number, dir = true, link = false) => ({ uid, mode: 0o40777, isDirectory: () => dir, isSymbolicLink: () => link });
  assert.equal(rootProblem(st(1000), 1000), undefined);
  assert.equal(rootProblem(st(1001), 1000), 'belongs to another user (uid 1001, mode 777)');
  assert.equal(rootProblem(st(1000, false, true), 1000), 'is a symbolic link');
  assert.equal(rootProblem(st(1000, false), 1000), 'is not a folder');

  const base = path.join(tmp, 'sessions-safety');
  fs.rmSync(base, { recursive: true, force: true });
  fs.mkdirSync(base);
  const root = path.join(base, `heaplens-sessions-${process.getuid!()}`);
  // a planted link in the shared temp dir: the run goes on without a session, and says so
  const elsewhere = path.join(base, 'planted');
  fs.mkdirSync(elsewhere);
  fs.symlinkSync(elsewhere, root);
  const linked = ctx({ HEAPLENS_SESSIONS: base });
  assert.equal(await runCli(['run', '--java', fakeJava, '--out', 'o/s.heaplens', '--', 'Main'], linked), 0);
  assert.match(linked.err, /^heaplens: warning: the sessions folder .* is a symbolic link: not used .*; this run cannot be reached by heaplens heapdump$/m);
  assert.doesNotMatch(fs.readFileSync(path.join(tmp, 'args.txt'), 'utf8'), /portFile=/);
  assert.deepEqual(fs.readdirSync(elsewhere), []);
  const heapdump = ctx({ HEAPLENS_SESSIONS: base });
  assert.equal(await runCli(['heapdump', 'd.hprof'], heapdump), 1);
  assert.match(heapdump.err, /is a symbolic link: not used/);
  // our own folder left open to others (0777) is made private before use
  fs.unlinkSync(root);
  fs.mkdirSync(root);
  fs.chmodSync(root, 0o777);
  assert.equal(await runCli(['run', '--java', fakeJava, '--out', 'o/s.heaplens', '--', 'Main'], ctx({ HEAPLENS_SESSIONS: base })), 0);
  assert.equal(fs.statSync(root).mode & 0o777, 0o700);
  // stale sessions: one whose `heaplens run` is gone, one whose JVM pid is not the run's child (a reused pid)
  const stale = (cli: number, jvm: number): void => {
    const dir = path.join(root, String(cli));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'token'), 'x');
    fs.writeFileSync(path.join(dir, 'session.json'), '{"args":["Main"]}');
    fs.writeFileSync(path.join(dir, 'port.json'), JSON.stringify({ port: 9, pid: jvm, protocol: 1 }));
  };
  stale(2 ** 22 + 12345, process.pid);     // no such `heaplens run` process
  stale(process.pid, 1);                   // pid 1 is alive but not a child of this process
  const none = ctx({ HEAPLENS_SESSIONS: base });
  assert.equal(await runCli(['heapdump', 'd.hprof'], none), 2);
  assert.match(none.err, /no running heaplens session/);
});

test('import: runs the JDK-side reader with the recording, maps its output, and passes its one-line errors on', async () => {
  const events = {
    format: 'heaplens-jfr-events', version: 1, start: 1_700_000_000_000, end: 1_700_000_001_000, executionPeriodMillis: 20,
    layout: { objectHeader: 12, arrayHeader: 16, reference: 4, alignment: 8 }, jvm: { javaArguments: 'app.Main' },
    events: { 'jdk.ObjectAllocationSample': 2 }, frames: [['app.Main', 'main', '()V', 7, 3, false]], stacks: [[0, 0]],
    threads: [[1, 'main']], classes: [['app.Thing', 32, 'fields']], alloc: [[0, 0, 0, 0, 2, 6400]], cpu: [], old: [], firstSamples: [1, 100],
  };
  fs.writeFileSync(path.join(tmp, 'events.json'), JSON.stringify(events));
  // a stand-in for the reader's java: records its arguments; copies the canned output, or fails as the reader does
  const reader = path.join(tmp, 'reader-java');
  fs.writeFileSync(reader, `#!/bin/sh
printf '%s\\n' "$@" > "${tmp}/reader-args.txt"
if [ -n "$FAKE_FAIL" ]; then echo "heaplens import: $4: not a JFR recording (no magic bytes)" >&2; exit 2; fi
cp "${tmp}/events.json" "$5"
`, { mode: 0o755 });
  const c = ctx();
  assert.equal(await runCli(['import', 'rec.jfr', '--java', reader, '--cp', 'app.jar'], c), 0, c.err);
  const args = fs.readFileSync(path.join(tmp, 'reader-args.txt'), 'utf8').trim().split('\n');
  assert.deepEqual([args[0], args[1], args[2], args[3], ...args.slice(5)], ['-cp', jar, 'io.heaplens.agent.jfr.JfrImport', path.join(tmp, 'rec.jfr'), '--cp', 'app.jar']);
  const doc = JSON.parse(fs.readFileSync(path.join(tmp, 'rec.heaplens'), 'utf8'));
  assert.equal(doc.meta.command, 'app.Main');
  assert.deepEqual(doc.threads[0].sampled.c[0].a, [[1, 1, 200, 0, 6400]]);     // 6400 B of 32-byte Things
  assert.match(c.err, /^heaplens: rec\.jfr → rec\.heaplens: 2 ObjectAllocationSample\nheaplens: 1 first sample\(s\) of threads left out/);

  const bad = ctx({ FAKE_FAIL: '1' });
  fs.rmSync(path.join(tmp, 'bad.heaplens'), { force: true });
  assert.equal(await runCli(['import', 'bad.jfr', '--java', reader], bad), 2);
  assert.equal(bad.err, `heaplens: ${path.join(tmp, 'bad.jfr')}: not a JFR recording (no magic bytes)\n`);
  assert.equal(fs.existsSync(path.join(tmp, 'bad.heaplens')), false);
  const usage = ctx();
  assert.equal(await runCli(['import'], usage), 2);
  assert.match(usage.err, /^heaplens: import needs exactly one recording/);
  const mb = ctx();
  assert.equal(await runCli(['import', 'x.jfr', '--max-mb', 'lots'], mb), 2);
  assert.equal(mb.err, 'heaplens: --max-mb takes a whole number of MiB, not lots\n');
  const pprof = ctx();
  assert.equal(await runCli(['report', dataFile('sample.heaplens'), '--format', 'pprof', '--metric', 'bytes'], pprof), 2);
  assert.match(pprof.err, /--format pprof holds both allocations \(count\) and bytes/);
});
