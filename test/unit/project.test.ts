// extension/project: finding the build and the module, the build tools' command lines, the class-path cache, main
// classes from class files, JUnit 5 tests in source text, and `heaplens run --project` / `heaplens test` argument errors.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../../extension/cli/cli';
import { splitProjectRun } from '../../extension/cli/project-command';
import { cacheKey, classesStale, ModuleClasspath, readCache, writeCache } from '../../extension/project/classpath-cache';
import { tail } from '../../extension/project/errors';
import { gradleClasspathArgs, gradleExecutable, gradleProjectPath, gradleTestArgs, parseGradleClasspath } from '../../extension/project/gradle';
import { consoleLauncherArgs, consoleLauncherHasExecute, consoleLauncherOn, findTests, junitXmlCounts, parseSelector } from '../../extension/project/junit';
import { findMainClasses, mainClassOf } from '../../extension/project/main-classes';
import { argLineQuote, mavenExecutable, moduleSelection, resolveArgs, surefireArgs, surefireCounts } from '../../extension/project/maven';
import { mavenHomeOf, parseSpyOutput } from '../../extension/project/maven-spy';
import { classOfSource, findProject } from '../../extension/project/project';
import { chooseMainClass, pickModule, ResolvedProject } from '../../extension/project/resolve';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-project-'));
function write(rel: string, text = ''): string {
  const f = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, text);
  return f;
}

test('findProject: the topmost pom.xml is the root, the nearest the module; Gradle by settings.gradle', () => {
  write('mvn/pom.xml', '<project/>');
  write('mvn/app/pom.xml', '<project/>');
  const src = write('mvn/app/src/main/java/acme/Main.java', 'package acme;');
  assert.deepEqual(findProject(src), { kind: 'maven', root: path.join(tmp, 'mvn'), module: path.join(tmp, 'mvn', 'app') });
  assert.deepEqual(findProject(path.join(tmp, 'mvn')), { kind: 'maven', root: path.join(tmp, 'mvn'), module: path.join(tmp, 'mvn') });
  // the boundary (the workspace folder) stops the search: app alone is then the build
  assert.deepEqual(findProject(src, path.join(tmp, 'mvn', 'app')), { kind: 'maven', root: path.join(tmp, 'mvn', 'app'), module: path.join(tmp, 'mvn', 'app') });
  write('gr/settings.gradle', "include 'lib'");
  write('gr/lib/build.gradle', "apply plugin: 'java'");
  const g = write('gr/lib/src/main/java/L.java', '');
  assert.deepEqual(findProject(g), { kind: 'gradle', root: path.join(tmp, 'gr'), module: path.join(tmp, 'gr', 'lib') });
  write('none/x/A.java', '');
  assert.equal(findProject(path.join(tmp, 'none', 'x'), path.join(tmp, 'none')), undefined);
});

test('classOfSource: the package declaration (not one in a comment) and the file name', () => {
  assert.equal(classOfSource('/p/src/Main.java', '/* package wrong; */\npackage com.acme.app;\nclass Main {}'), 'com.acme.app.Main');
  assert.equal(classOfSource('/p/src/Main.java', 'class Main {}'), 'Main');
});

test('Maven command lines: the module and what it needs, test-compile with the test sources skipped, the spy', () => {
  assert.deepEqual(moduleSelection('/w', '/w/app'), ['-pl', 'app', '-am']);
  assert.deepEqual(moduleSelection('/w', '/w'), []);
  assert.deepEqual(moduleSelection('/w', '/elsewhere'), []);
  assert.deepEqual(resolveArgs({ root: '/w', module: '/w/app', spyDir: '/c/spy', outFile: '/t/cp.jsonl', compile: true, offline: true }), [
    '-o', '-B', '-q', '-Dstyle.color=never', '-f', '/w/pom.xml', '-pl', 'app', '-am', 'test-compile', '-Dmaven.test.skip=true',
    '-Dmaven.ext.class.path=/c/spy', '-Dheaplens.classpathOut=/t/cp.jsonl',
  ]);
  assert.deepEqual(resolveArgs({ root: '/w', spyDir: '/s', outFile: '/o', compile: false, offline: false }), [
    '-B', '-q', '-Dstyle.color=never', '-f', '/w/pom.xml', 'test-compile', '-Dmaven.test.skip=true',
    '-Dmaven.main.skip=true', '-Dmaven.resources.skip=true', '-Dmaven.ext.class.path=/s', '-Dheaplens.classpathOut=/o',
  ]);
  assert.deepEqual(surefireArgs({ root: '/w', module: '/w/app', test: 'acme.FooTest#bar', jvmArgs: ['-Xmx1g', '-javaagent:/my dir/a.jar=out=/p.heaplens'], offline: true }), [
    '-o', '-B', '-Dstyle.color=never', '-f', '/w/pom.xml', '-pl', 'app', '-am', 'test', '-Dtest=acme.FooTest#bar',
    '-Dsurefire.failIfNoSpecifiedTests=false', '-DfailIfNoTests=false', '-Djacoco.skip=true',
    '-DargLine=-Xmx1g "-javaagent:/my dir/a.jar=out=/p.heaplens"',
  ]);
  assert.equal(argLineQuote('-javaagent:/a.jar=out=/x'), '-javaagent:/a.jar=out=/x');
  assert.equal(argLineQuote('a "b"'), '"a \\"b\\""');
});

test('surefireCounts adds the per-class lines, not the module summary', () => {
  const out = `[INFO] Running acme.app.CountTest
[INFO] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.05 s -- in acme.app.CountTest
[INFO] Tests run: 3, Failures: 0, Errors: 1, Skipped: 1, Time elapsed: 0.01 s -- in acme.app.OtherTest
[INFO] Results:
[ERROR] Tests run: 5, Failures: 1, Errors: 1, Skipped: 1`;
  assert.deepEqual(surefireCounts(out), { run: 5, failures: 1, errors: 1, skipped: 1 });
  assert.deepEqual(surefireCounts('[INFO] No tests to run.'), { run: 0, failures: 0, errors: 0, skipped: 0 });
});

test('the Maven and Gradle executables: the wrapper first, else PATH, else a message naming what to install', () => {
  write('wrapped/pom.xml', '<project/>');
  const mvnw = write('wrapped/mvnw', '#!/bin/sh');
  assert.equal(mavenExecutable(path.join(tmp, 'wrapped'), { PATH: '' }, path.join(tmp, 'wrapped')), mvnw);
  assert.throws(() => mavenExecutable(path.join(tmp, 'mvn'), { PATH: '' }), /This is a Maven project \(.*pom\.xml\), but Maven was not found: install Maven \(mvn on PATH\) or add the Maven wrapper \(mvnw\)/);
  assert.throws(() => gradleExecutable(path.join(tmp, 'gr'), { PATH: '' }), /This is a Gradle project \(.*gr\), but Gradle was not found: add the Gradle wrapper \(gradlew\) to the project or install Gradle/);
  const bin = path.join(tmp, 'bin');
  write('bin/gradle', '#!/bin/sh');
  fs.chmodSync(path.join(bin, 'gradle'), 0o755);
  assert.equal(gradleExecutable(path.join(tmp, 'gr'), { PATH: bin }), path.join(bin, 'gradle'));
});

test('Gradle command lines: the classpath task of the module, the test filter, the printed JSON lines', () => {
  assert.equal(gradleProjectPath('/w', '/w/app/core'), ':app:core');
  assert.equal(gradleProjectPath('/w', '/w'), '');
  assert.deepEqual(gradleClasspathArgs({ root: '/w', module: '/w/app', initScript: '/t/i.gradle', compile: true, offline: true }),
    ['--offline', '-q', '--console=plain', '-p', '/w', '--init-script', '/t/i.gradle', '-Dheaplens.compile=true', ':app:heaplensClasspath']);
  assert.deepEqual(gradleTestArgs({ root: '/w', module: '/w/app', initScript: '/t/t.gradle', test: 'acme.FooTest#bar', jvmArgs: ['-javaagent:/a.jar=out=/p'], offline: false }),
    ['--console=plain', '-p', '/w', '--init-script', '/t/t.gradle', '-Dheaplens.jvmArgs=-javaagent:/a.jar=out=/p', ':app:cleanTest', ':app:test', '--tests', 'acme.FooTest.bar']);
  const printed = `> Task :app:heaplensClasspath
HEAPLENS-CLASSPATH {"name":":app","dir":"/w/app","outputDirs":["/w/app/build/classes/java/main"],"testOutputDirs":[],"runtime":["/w/app/build/classes/java/main","/w/lib/build/libs/lib.jar"],"test":[]}`;
  assert.deepEqual(parseGradleClasspath(printed), [{ name: ':app', dir: '/w/app', outputDirs: ['/w/app/build/classes/java/main'], testOutputDirs: [], runtime: ['/w/app/build/classes/java/main', '/w/lib/build/libs/lib.jar'], test: [] }]);
});

test('the Maven spy: its JSON lines (the last line of a module wins) and the Maven home from mvn -v', () => {
  const line = (dir: string, cp: string[]): string => JSON.stringify({ groupId: 'g', artifactId: path.basename(dir), packaging: 'jar', basedir: dir, outputDirectory: `${dir}/target/classes`, testOutputDirectory: `${dir}/target/test-classes`, runtime: cp, test: [] });
  const mods = parseSpyOutput(`${line('/w/a', ['x'])}\n${line('/w/b', ['y'])}\n${line('/w/a', ['z'])}\n`);
  assert.deepEqual(mods.map((m) => [m.artifactId, m.runtime]), [['a', ['z']], ['b', ['y']]]);
  assert.equal(mavenHomeOf('\x1b[1mApache Maven 3.8.7\x1b[m\nMaven home: /usr/share/maven\nJava version: 17'), '/usr/share/maven');
  assert.equal(mavenHomeOf('command not found'), undefined);
});

test('the class-path cache: kept while the build files are the same, dropped when a pom changes', () => {
  const root = path.join(tmp, 'cached');
  write('cached/pom.xml', '<project>1</project>');
  write('cached/app/pom.xml', '<project>a</project>');
  write('cached/app/src/main/pom.xml', 'not a build file: sources are not searched');
  const mods: ModuleClasspath[] = [{ dir: path.join(root, 'app'), name: 'app', outputDirs: [], testOutputDirs: [], runtime: ['/r.jar'], test: [] }];
  const k1 = cacheKey(root, 'maven');
  writeCache(root, k1, mods);
  assert.deepEqual(readCache(root, cacheKey(root, 'maven')), mods);
  assert.equal(readCache(root, cacheKey(root, 'gradle')), undefined);
  write('cached/app/src/main/pom.xml', 'changed, still not a build file');
  assert.equal(cacheKey(root, 'maven'), k1);
  write('cached/app/pom.xml', '<project>b</project>');
  assert.notEqual(cacheKey(root, 'maven'), k1);
  assert.equal(readCache(root, cacheKey(root, 'maven')), undefined);
});

test('classesStale: a source newer than the classes, or no classes; not when there are no sources', () => {
  const src = write('stale/src/main/java/A.java', 'class A {}');
  const cls = write('stale/target/classes/A.class', 'x');
  const t = Date.now() / 1000;
  fs.utimesSync(src, t - 100, t - 100);
  fs.utimesSync(cls, t - 50, t - 50);
  const out = [path.join(tmp, 'stale/target/classes')];
  const srcs = [path.join(tmp, 'stale/src/main')];
  assert.equal(classesStale(out, srcs), false);
  fs.utimesSync(src, t - 10, t - 10);
  assert.equal(classesStale(out, srcs), true);
  assert.equal(classesStale([path.join(tmp, 'stale/none')], srcs), true);
  assert.equal(classesStale(out, [path.join(tmp, 'stale/nosrc')]), false);
});

test('main classes from class files: public static void main(String[]) only', () => {
  const dir = path.join(tmp, 'mains');
  write('mains/src/p/A.java', 'package p; public class A { public static void main(String[] a) { long x = 5L; double d = 2.5; } }');
  write('mains/src/p/B.java', 'package p; public class B { public void main(String[] a) {} static void main() {} }');
  write('mains/src/p/C.java', 'package p; public class C { public static class Inner { public static void main(String... a) {} } static void main(String[] a) {} }');
  execFileSync('javac', ['-d', path.join(dir, 'classes'), ...['A', 'B', 'C'].map((c) => path.join(dir, 'src', 'p', `${c}.java`))]);
  assert.deepEqual(findMainClasses([path.join(dir, 'classes')]), ['p.A', 'p.C$Inner']);
  assert.equal(mainClassOf(fs.readFileSync(path.join(dir, 'classes', 'p', 'B.class'))), undefined);
  assert.equal(mainClassOf(Buffer.from('not a class file')), undefined);
});

test('JUnit 5 tests in source text: the class, @Test/@ParameterizedTest methods, not comments or strings', () => {
  const text = `package acme.app;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CountTest {
    // @Test void commentedOut() {}
    String s = "@Test void inString() {}";

    @Test
    void countsThree() {
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void counts(int n) {}

    @Test public void inline() {}

    void helper() {}
}
`;
  const C = 'acme.app.CountTest';
  assert.deepEqual(findTests('/p/CountTest.java', text), {
    className: C, line: 6,
    methods: [{ name: 'countsThree', line: 11, className: C }, { name: 'counts', line: 16, className: C }, { name: 'inline', line: 18, className: C }],
    classes: [{ className: C, line: 6 }],
  });
  const nested = `package acme;
import org.junit.jupiter.api.*;
class OuterTest {
    @Test void outer() { Runnable r = new Runnable() { public void run() {} }; }
    @Nested
    class WhenEmpty {
        @Test void inner() {}
        @Nested class Deeper {
            @Test void deepest() {}
        }
    }
    @Test void last() {}
}
`;
  assert.deepEqual(findTests('/p/OuterTest.java', nested), {
    className: 'acme.OuterTest', line: 2,
    methods: [
      { name: 'outer', line: 3, className: 'acme.OuterTest' },
      { name: 'inner', line: 6, className: 'acme.OuterTest$WhenEmpty' },
      { name: 'deepest', line: 8, className: 'acme.OuterTest$WhenEmpty$Deeper' },
      { name: 'last', line: 11, className: 'acme.OuterTest' },
    ],
    classes: [{ className: 'acme.OuterTest', line: 2 }, { className: 'acme.OuterTest$WhenEmpty', line: 5 }, { className: 'acme.OuterTest$WhenEmpty$Deeper', line: 7 }],
  });
  assert.equal(findTests('/p/Main.java', 'package p; class Main { public static void main(String[] a) {} }'), undefined);
});

test('test selectors and the console launcher command', () => {
  assert.deepEqual(parseSelector('acme.app.CountTest#countsTwo'), { className: 'acme.app.CountTest', method: 'countsTwo' });
  assert.deepEqual(parseSelector('CountTest'), { className: 'CountTest', method: undefined });
  assert.throws(() => parseSelector('acme app'), /"acme app" is not a test: give CLASS or CLASS#METHOD/);
  assert.equal(consoleLauncherOn(['/r/junit-platform-console-standalone-1.9.1.jar']), true);
  assert.equal(consoleLauncherOn(['/r/junit-platform-launcher-1.10.2.jar']), false);
  assert.equal(consoleLauncherHasExecute(['/usr/share/java/junit-platform-console-standalone-1.9.1.jar']), false);
  assert.equal(consoleLauncherHasExecute(['/m2/junit-platform-console-standalone-1.10.2.jar']), true);
  assert.equal(consoleLauncherHasExecute(['/m2/junit-platform-console-standalone-6.0.0.jar']), true);
  assert.equal(consoleLauncherHasExecute(['/usr/share/java/junit-platform-console-standalone.jar']), true);
  assert.deepEqual(consoleLauncherArgs(['/a', '/b.jar'], 'acme.T', 'm', true),
    ['-cp', `/a${path.delimiter}/b.jar`, 'org.junit.platform.console.ConsoleLauncher', 'execute', '--disable-banner', '--details=tree', '--select-method=acme.T#m', '--fail-if-no-tests']);
});

test('the module: by name, by folder (the deepest), and the main class rules', () => {
  const m = (dir: string, name: string): ModuleClasspath => ({ dir, name, outputDirs: [], testOutputDirs: [], runtime: [], test: [] });
  const mods = [m('/w', 'parent'), m('/w/app', 'app'), m('/w/app/sub', 'sub')];
  assert.equal(pickModule(mods, 'app', '/w')?.dir, '/w/app');
  assert.equal(pickModule(mods, undefined, '/w/app/sub/src')?.name, 'sub');
  assert.equal(pickModule(mods, undefined, '/w/application')?.name, 'parent');
  const r = (mainClasses: string[]): ResolvedProject => ({ project: { kind: 'maven', root: '/w' }, module: m('/w/app', 'app'), modules: [], mainClasses, ranBuild: false });
  assert.equal(chooseMainClass(r(['a.Main']), undefined), 'a.Main');
  assert.throws(() => chooseMainClass(r([]), undefined), /The module app has no class with a main method/);
  assert.throws(() => chooseMainClass(r(['a.Main', 'a.Tool']), undefined), /The module app has several main classes: a\.Main, a\.Tool\. Name the one to run\./);
});

test('heaplens run --project / heaplens test: arguments', async () => {
  assert.deepEqual(splitProjectRun(['--project', 'p', '--module=app', '--out', 'o.heaplens', '--threads', 'acme.Main', '--', 'x', '--y']), {
    project: new Map([['project', 'p'], ['module', 'app']]), runOptions: ['--out=o.heaplens', '--threads'], mainClass: 'acme.Main', programArgs: ['x', '--y'],
  });
  assert.throws(() => splitProjectRun(['--project', 'p', 'A', 'B']), /unexpected "B": program arguments go after --/);
  const ctx = { env: { PATH: process.env.PATH }, cwd: tmp, cliDir: tmp, err: '', stdout: () => undefined, stderr(t: string) { this.err += t; } };
  assert.equal(await runCli(['test', 'acme.T'], ctx), 2);
  assert.match(ctx.err, /--project DIR is required/);
  ctx.err = '';
  assert.equal(await runCli(['test', '--project', tmp, 'a b'], ctx), 2);
  assert.match(ctx.err, /"a b" is not a test/);
});

test('junitXmlCounts: tests run (not skipped) and failed in the reports written since the run began', () => {
  const dir = path.join(tmp, 'results');
  write('results/TEST-a.FooTest.xml', '<?xml version="1.0"?>\n<testsuite name="a.FooTest" tests="3" skipped="1" failures="1" errors="0" time="0.1">\n</testsuite>');
  write('results/TEST-a.BarTest.xml', '<testsuite name="a.BarTest" tests="2" skipped="0" failures="0" errors="1">');
  write('results/other.xml', '<testsuite tests="9">');
  const old = write('results/TEST-a.OldTest.xml', '<testsuite tests="5" skipped="0" failures="0" errors="0">');
  const t = Date.now() / 1000 - 3600;
  fs.utimesSync(old, t, t);
  // FooTest: 3 tests, 1 skipped → 2 run, 1 failure; BarTest: 2 run, 1 error; OldTest too old, other.xml not a report
  assert.deepEqual(junitXmlCounts(dir, Date.now() - 60_000), { run: 4, failed: 2 });
  assert.deepEqual(junitXmlCounts(path.join(tmp, 'no-results'), 0), { run: 0, failed: 0 });
});

test('tail: the last lines of a build output, colours removed', () => {
  assert.equal(tail('a\n\x1b[1;31m[ERROR]\x1b[m b\nc\n\n', 2), '[ERROR] b\nc');
});
