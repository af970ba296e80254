// The JDK check before a launch: which java, its version (release file or `java -version`), and the
// message for a missing, too old or silent one — always naming heaplens.javaHome / "javaHome".
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkJdk, JdkChecks, majorOf, parseVersionOutput, releaseVersion } from '../../extension/launch/jdk';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-jdk-'));

/** A fake JDK folder: bin/java prints `versionLine` on stderr; `release` holds JAVA_VERSION when given. */
function fakeJdk(name: string, o: { release?: string; versionLine?: string }): string {
  const home = path.join(tmp, name);
  fs.mkdirSync(path.join(home, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(home, 'bin', 'java'), `#!/bin/sh\necho '${o.versionLine ?? ''}' >&2\n`, { mode: 0o755 });
  if (o.release) fs.writeFileSync(path.join(home, 'release'), `IMPLEMENTOR="Test"\nJAVA_VERSION="${o.release}"\nOS_NAME="Linux"\n`);
  return home;
}

test('majorOf reads old and new version schemes', () => {
  assert.equal(majorOf('1.8.0_402'), 8);
  assert.equal(majorOf('11.0.22'), 11);
  assert.equal(majorOf('17.0.15'), 17);
  assert.equal(majorOf('25'), 25);
  assert.equal(majorOf('21-ea'), 21);
  assert.equal(majorOf('abc'), undefined);
  assert.equal(parseVersionOutput('openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime Environment'), '17.0.15');
  assert.equal(parseVersionOutput('java version "1.8.0_402"'), '1.8.0_402');
  assert.equal(parseVersionOutput('Error: could not find libjava.so'), undefined);
});

test('a JDK 17 from the release file passes, named with where it came from', () => {
  const home = fakeJdk('jdk17', { release: '17.0.15', versionLine: 'not consulted' });
  assert.equal(releaseVersion(home), '17.0.15');
  const r = checkJdk({ javaHome: home }, { PATH: '' });
  assert.ok(r.ok);
  assert.equal(r.jdk.java, path.join(home, 'bin', 'java'));
  assert.equal(r.jdk.source, 'javaHome');
  assert.equal(r.jdk.version, '17.0.15');
  assert.equal(r.jdk.major, 17);
});

test('a too old JDK is refused with the setting and the field to fix it', () => {
  const home = fakeJdk('jdk11', { release: '11.0.22' });
  const r = checkJdk({}, { JAVA_HOME: home, PATH: '' });
  assert.equal(r.ok, false);
  assert.ok(!r.ok && r.kind === 'tooOld');
  assert.match(r.message, new RegExp(`HeapLens needs Java 17 or newer, but ${path.join(home, 'bin', 'java').replace(/[.\\/]/g, '\\$&')} \\(from JAVA_HOME\\) is Java 11\\.0\\.22\\.`));
  assert.match(r.message, /"heaplens\.javaHome" setting/);
  assert.match(r.message, /"javaHome" in the launch configuration/);
});

test('without a release file the version comes from `java -version` (a real process)', () => {
  const home = fakeJdk('jre8', { versionLine: 'java version "1.8.0_402"' });
  const r = checkJdk({}, { PATH: path.join(home, 'bin') });
  assert.ok(!r.ok && r.kind === 'tooOld');
  assert.match(r.message, /\(found on PATH\) is Java 1\.8\.0_402/);
});

test('a java that says no version is reported, not run', () => {
  const home = fakeJdk('broken', { versionLine: 'Error: could not find libjava.so' });
  const r = checkJdk({ javaExec: path.join(home, 'bin', 'java') }, {});
  assert.ok(!r.ok && r.kind === 'unknownVersion');
  assert.match(r.message, /from "javaExec"\) did not tell its Java version \(Error: could not find libjava\.so\)/);
});

test('no java at all, or a javaHome without bin/java: "missing", with where to set it', () => {
  const none = checkJdk({}, { PATH: path.join(tmp, 'nothing') });
  assert.ok(!none.ok && none.kind === 'missing');
  assert.match(none.message, /^No JDK found\. HeapLens needs Java 17 or newer\. Set the "heaplens\.javaHome" setting/);
  const empty = path.join(tmp, 'empty');
  fs.mkdirSync(empty);
  const bad = checkJdk({ javaHome: empty }, {}, { javaHomeFrom: 'from the "heaplens.javaHome" setting' });
  assert.ok(!bad.ok && bad.kind === 'missing');
  assert.match(bad.message, /^"javaHome" \(from the "heaplens\.javaHome" setting\) .*empty has no bin\/java: point it at a JDK 17 or newer\. HeapLens needs/);
});

test('the setting is named as the source when javaHome came from it', () => {
  const home = fakeJdk('jdk11b', { release: '11.0.1' });
  const r = checkJdk({ javaHome: home }, {}, { javaHomeFrom: 'from the "heaplens.javaHome" setting' });
  assert.ok(!r.ok);
  assert.match(r.message, /\(from the "heaplens\.javaHome" setting\) is Java 11\.0\.1/);
});

test('checks are cached per executable until it changes', () => {
  const home = fakeJdk('counted', { versionLine: 'openjdk version "21.0.3" 2024-04-16' });
  let runs = 0;
  const checks = new JdkChecks((java) => {
    runs++;
    return { output: fs.readFileSync(java, 'utf8').includes('21.0.3') ? 'openjdk version "21.0.3"' : '' };
  });
  const a = checks.check({ javaHome: home }, {});
  const b = checks.check({ javaHome: home }, {});
  assert.ok(a.ok && b.ok && a.jdk.major === 21);
  assert.equal(runs, 1);
  const java = path.join(home, 'bin', 'java');
  fs.utimesSync(java, new Date(), new Date(Date.now() + 5000));
  checks.check({ javaHome: home }, {});
  assert.equal(runs, 2);
});

test('the machine\'s real JDKs pass (JDK 17 on PATH, Temurin 25)', () => {
  const onPath = checkJdk({}, { PATH: '/usr/bin' });
  assert.ok(onPath.ok, onPath.ok ? '' : onPath.message);
  assert.ok(onPath.jdk.major >= 17);
  const t25 = '/usr/lib/jvm/temurin-25-jdk-amd64';
  if (fs.existsSync(t25)) {
    const r = checkJdk({ javaHome: t25 }, {});
    assert.ok(r.ok && r.jdk.major === 25 && r.jdk.source === 'javaHome');
  }
});
