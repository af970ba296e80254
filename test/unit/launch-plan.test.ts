// The launch plan (config → java command), argument splitting, .env files, JVM error classification, jcmd -l.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseJcmdList } from '../../extension/launch/attach';
import { HeapLensConfig, parseEnvFile, patterns, splitArgs } from '../../extension/launch/config';
import { classifyStderr, startFailure } from '../../extension/launch/java-errors';
import { planLaunch } from '../../extension/launch/plan';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-plan-'));
const dist = path.join(tmp, 'dist');
fs.mkdirSync(dist);
fs.writeFileSync(path.join(dist, 'heaplens-agent.jar'), '');
const java = path.join(tmp, 'java');
fs.writeFileSync(java, '#!/bin/sh\n', { mode: 0o755 });
fs.mkdirSync(path.join(tmp, 'classes'));
fs.writeFileSync(path.join(tmp, 'app.jar'), '');
fs.writeFileSync(path.join(tmp, 'Hello.java'), 'class Hello {}');
fs.writeFileSync(path.join(tmp, '.env'), '# comment\nexport A=1\nB="two words"\nC=x # trailing\n');

function cfg(extra: Partial<HeapLensConfig> = {}): HeapLensConfig {
  return {
    type: 'heaplens', request: 'launch', name: 'p', javaExec: java,
    __heaplens: { profileDir: path.join(tmp, '.heaplens'), distDir: dist, workspaceFolder: tmp, trusted: true, client: 't' },
    ...extra,
  };
}
const now = new Date(2024, 0, 2, 3, 4, 5);

test('main class launch: vmArgs, agent with portFile/include/exclude, classpath, main, args; token only in the environment', () => {
  const p = planLaunch(cfg({
    mainClass: 'com.acme.Main', classPaths: ['classes', '$Auto', '!excluded'], vmArgs: '-Xmx1g "-Dx=a b"', args: ['--fast', 'x y'],
    include: 'com.acme.*', exclude: ['com.acme.gen.*'], env: { FOO: 'bar', HOME: null },
  }), { PATH: '/usr/bin', HOME: '/root' }, { now, token: 'f'.repeat(64), tmpDir: '/tmp/hl-x' });
  assert.equal(p.java, java);
  assert.equal(p.profile, path.join(tmp, '.heaplens', 'Main-20240102-030405.heaplens'));
  assert.deepEqual(p.args, [
    '-Xmx1g', '-Dx=a b', '-Xss12m',
    `-javaagent:${path.join(dist, 'heaplens-agent.jar')}=out=${p.profile},include=com.acme.*,exclude=com.acme.gen.*,portFile=/tmp/hl-x/port.json`,
    '-cp', path.join(tmp, 'classes'), 'com.acme.Main', '--fast', 'x y',
  ]);
  assert.equal(p.env.HEAPLENS_TOKEN, 'f'.repeat(64));
  assert.equal(p.env.FOO, 'bar');
  assert.equal(p.env.HOME, undefined);
  assert.ok(!p.args.join(' ').includes('f'.repeat(64)), 'the token is not on the command line');
  assert.equal(p.cwd, tmp);
});

test('sampler: "jfr" becomes the agent option with JFR\'s stack depth raised unless vmArgs set it; a bad value is refused', () => {
  const agent = (p: { args: string[] }) => p.args.find((a) => a.startsWith('-javaagent:'))!;
  const jfr = planLaunch(cfg({ mainClass: 'M', mode: 'sampled', sampler: 'jfr', vmArgs: '-Xmx1g' }), {}, { now, tmpDir: '/t' });
  assert.deepEqual(jfr.args.slice(0, 5), ['-XX:FlightRecorderOptions=stackdepth=1024', '-XX:TLABSize=16k', '-XX:-ResizeTLAB', '-XX:TLABRefillWasteFraction=1', '-Xmx1g']);
  assert.match(agent(jfr), /,mode=sampled,.*sampler=jfr/);
  const own = planLaunch(cfg({ mainClass: 'M', mode: 'sampled', sampler: 'jfr', vmArgs: '-XX:FlightRecorderOptions=stackdepth=256' }), {}, { now, tmpDir: '/t' });
  assert.deepEqual(own.args.slice(0, 4), ['-XX:TLABSize=16k', '-XX:-ResizeTLAB', '-XX:TLABRefillWasteFraction=1', '-XX:FlightRecorderOptions=stackdepth=256']);
  const probes = planLaunch(cfg({ mainClass: 'M', mode: 'sampled', sampler: 'probes' }), {}, { now, tmpDir: '/t' });
  assert.match(agent(probes), /,sampler=probes/);
  assert.doesNotMatch(probes.args.join(' '), /FlightRecorderOptions|TLABSize/);
  const jvmti = planLaunch(cfg({ mainClass: 'M', mode: 'sampled', sampler: 'jvmti' }), {}, { now, tmpDir: '/t' });
  assert.match(agent(jvmti), /,sampler=jvmti/);
  assert.doesNotMatch(jvmti.args.join(' '), /FlightRecorderOptions|TLABSize|enable-native-access/);
  const unset = planLaunch(cfg({ mainClass: 'M', mode: 'sampled' }), {}, { now, tmpDir: '/t' });
  assert.doesNotMatch(unset.args.join(' '), /sampler=/);
  assert.throws(() => planLaunch(cfg({ mainClass: 'M', sampler: 'async' }), {}, { now, tmpDir: '/t' }), /"sampler" must be "jvmti", "probes" or "jfr", not "async"/);
});

test('jar, single source file, module main class, profile field, envFile', () => {
  const j = planLaunch(cfg({ mainClass: 'app.jar' }), {}, { now, tmpDir: '/t' });
  assert.deepEqual(j.args.slice(2), ['-jar', path.join(tmp, 'app.jar')]);
  assert.equal(path.basename(j.profile), 'app-20240102-030405.heaplens');
  const s = planLaunch(cfg({ mainClass: path.join(tmp, 'Hello.java'), profile: 'out/x.heaplens' }), {}, { now, tmpDir: '/t' });
  assert.deepEqual(s.args.slice(2), [path.join(tmp, 'Hello.java')]);
  assert.equal(s.profile, path.join(tmp, 'out', 'x.heaplens'));
  const m = planLaunch(cfg({ mainClass: 'mod/com.acme.Main', modulePaths: ['classes'] }), {}, { now, tmpDir: '/t' });
  assert.deepEqual(m.args.slice(2), ['--module-path', path.join(tmp, 'classes'), '-m', 'mod/com.acme.Main']);
  const e = planLaunch(cfg({ mainClass: 'M', envFile: '.env', env: { A: '3' } }), {}, { now, tmpDir: '/t' });
  assert.deepEqual([e.env.A, e.env.B, e.env.C], ['3', 'two words', 'x']);
});

test('thread stacks: 12 times the program\'s own (or HotSpot\'s 1 MiB), after its options so that ours wins; stackScale 1 leaves them', () => {
  const stackOf = (c: Partial<HeapLensConfig>): string[] => planLaunch(cfg({ mainClass: 'M', ...c }), {}, { now, tmpDir: '/t' }).args.filter((a) => a.startsWith('-Xss'));
  assert.deepEqual(stackOf({}), ['-Xss12m']);
  assert.deepEqual(stackOf({ vmArgs: '-Xss2m' }), ['-Xss2m', '-Xss24m']);
  assert.deepEqual(stackOf({ vmArgs: '-Xss512k', stackScale: 3 }), ['-Xss512k', '-Xss1536k']);
  assert.deepEqual(stackOf({ stackScale: 1 }), []);
  assert.throws(() => planLaunch(cfg({ mainClass: 'M', stackScale: 0 }), {}, { now, tmpDir: '/t' }), /"stackScale" must be a whole number from 1/);
});

test('no JDK anywhere: the clear message', () => {
  assert.throws(() => planLaunch(cfg({ javaExec: undefined, mainClass: 'M' }), { PATH: path.join(tmp, 'nothing') }, { tmpDir: '/t' }),
    /No JDK found\. HeapLens needs Java 17 or newer: set "javaHome"/);
});

test('the agent jar missing: the clear message', () => {
  const c = cfg({ mainClass: 'M' });
  c.__heaplens = { ...c.__heaplens!, distDir: path.join(tmp, 'nodist') };
  assert.throws(() => planLaunch(c, {}, { tmpDir: '/t' }), /The HeapLens agent jar is missing/);
});

test('splitArgs, patterns, parseEnvFile', () => {
  assert.deepEqual(splitArgs(`a "b c" 'd e' f\\ g ""`), ['a', 'b c', 'd e', 'f g', '']);
  assert.deepEqual(splitArgs(['x y']), ['x y']);
  assert.throws(() => splitArgs('"open'), /unbalanced quote/);
  assert.deepEqual(patterns('a.*, b:c'), ['a.*', 'b', 'c']);
  assert.deepEqual(parseEnvFile("X='1 2'\nbad line\nY=\"a\\nb\""), { X: '1 2', Y: 'a\nb' });
});

test('JVM start failures are explained in one sentence', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['Error: Could not find or load main class demo.Nope\nCaused by: java.lang.ClassNotFoundException: demo.Nope', 'mainClassNotFound', /Main class "demo\.Nope" was not found on the classpath \(\/cp\)/],
    ['Error: Unable to access jarfile /x/app.jar', 'jarMissing', /The jar \/x\/app\.jar cannot be opened/],
    ['no main manifest attribute, in /x/lib.jar', 'noMainManifest', /has no Main-Class/],
    ['Error opening zip file or JAR manifest missing : /x/agent.jar', 'agentJar', /could not load the HeapLens agent/],
    ['Exception in thread "main" java.lang.UnsupportedClassVersionError: demo/Main has been compiled by a more recent version of the Java Runtime (class file version 65.0), this version of the Java Runtime only recognizes class file versions up to 61.0', 'classVersion', /compiled for a newer Java \(class file 65\.0\)/],
    ['Unrecognized option: --frobnicate\nError: Could not create the Java Virtual Machine.', 'vmOptions', /The JVM did not start: Unrecognized option: --frobnicate\. Check "vmArgs"/],
    ['Exception in thread "main" java.lang.reflect.InvocationTargetException\nCaused by: java.lang.NoClassDefFoundError: io/heaplens/X\n*** java.lang.instrument ASSERTION FAILED ***: "result" with message agent load/premain call failed\nFATAL ERROR in native method: processing of -javaagent failed', 'agentFailed', /The HeapLens agent failed to start in this JVM \(java\.lang\.NoClassDefFoundError: io\/heaplens\/X\)/],
    ['heaplens: unknown option "colour"; the program runs unprofiled', 'agentOptions', /refused its options: unknown option/],
  ];
  for (const [stderr, kind, re] of cases) {
    const f = classifyStderr(stderr, { classPath: '/cp' });
    assert.equal(f?.kind, kind, stderr);
    assert.match(f!.message, re);
  }
  assert.equal(classifyStderr('Exception in thread "main" java.lang.RuntimeException: boom'), undefined);
  assert.match(startFailure('boom\n', 3, null).message, /The JVM exited with code 3 before HeapLens could connect: boom/);
  assert.match(startFailure('', null, 'SIGKILL').message, /was killed by SIGKILL/);
});

test('jcmd -l is parsed without jcmd itself', () => {
  assert.deepEqual(parseJcmdList('123 demo.LiveDemo 8\n456 jdk.jcmd/sun.tools.jcmd.JCmd -l\n789 \n'), [
    { pid: 123, description: 'demo.LiveDemo 8' }, { pid: 789, description: '(no main class)' },
  ]);
});
