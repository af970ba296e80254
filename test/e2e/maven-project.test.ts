// A generated two-module Maven project (test/fixtures/maven/generate.mjs: words ← app, commons-lang3 and JUnit 5
// from the local repository, offline) through `heaplens run --project` (what F5 resolves) and `heaplens test`:
// the class path as Maven resolves it (app's classes, words' classes, the commons-lang3 jar), cached until a pom
// changes, compiled first when the sources are newer; the right main class profiled with its dependency's frames;
// one test method's run holds that test and not its neighbour; errors in the user's words. Also a two-module
// Gradle build through Debian's gradle (4.4.1, offline, no external dependencies).
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { before, describe, it } from 'node:test';
import { parseCollapsed } from './support/collapsed';
import { CLI, JDK25, PROFILE_DIR, requireJdk, ROOT } from './support/env';
import { ensureDebianPackages } from './support/debian';
import { exec, Exec } from './support/heaplens';

const WORK = path.join(PROFILE_DIR, 'maven-project');
const PROJECT = path.join(WORK, 'project');
const M2 = path.join(os.homedir(), '.m2', 'repository');

async function cli(args: string[], timeoutMs = 300_000): Promise<Exec> {
  return exec(CLI, args, timeoutMs);
}

async function collapsed(profile: string, metric = 'objects'): Promise<Map<string, number>> {
  const r = await cli(['report', profile, '--format', 'collapsed', '--metric', metric]);
  assert.equal(r.code, 0, r.stderr);
  return parseCollapsed(r.stdout);
}

/** The collapsed lines that end in `type` with `frame` as their last frame: their counts added. */
function countAt(lines: Map<string, number>, frame: string, type: string): number {
  let n = 0;
  for (const [stack, c] of lines) if (stack.endsWith(`${frame};${type}`)) n += c;
  return n;
}

interface ProfileDoc { methods: { class: string; name: string }[] }
const methodsOf = (file: string): string[] => (JSON.parse(fs.readFileSync(file, 'utf8')) as ProfileDoc).methods.map((m) => `${m.class}.${m.name}`);

describe('a two-module Maven project (offline)', () => {
  before(async () => {
    fs.rmSync(WORK, { recursive: true, force: true });
    fs.mkdirSync(WORK, { recursive: true });
    const g = await exec(process.execPath, [path.join(ROOT, 'test', 'fixtures', 'maven', 'generate.mjs'), PROJECT]);
    assert.equal(g.code, 0, g.stderr);
  });

  it('run --project on the root: two modules with main classes in app, two main classes: the user is asked to name one', async () => {
    const r = await cli(['run', '--project', PROJECT, '--out', path.join(WORK, 'none.heaplens')]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /heaplens: Maven: compiling and resolving the class path of project\n/);
    assert.match(r.stderr, /heaplens: The module app has several main classes: acme\.app\.Main, acme\.app\.Tool\. Name the one to run\.\n/);
    // Maven compiled both modules (the resolve run compiles main classes only)
    assert.ok(fs.existsSync(path.join(PROJECT, 'app', 'target', 'classes', 'acme', 'app', 'Main.class')));
    assert.ok(fs.existsSync(path.join(PROJECT, 'words', 'target', 'classes', 'acme', 'words', 'Words.class')));
    assert.equal(fs.existsSync(path.join(PROJECT, 'app', 'target', 'test-classes')), false);
  });

  it('the class path Maven resolved: app, then words\' classes and the commons-lang3 jar; cached', () => {
    const cache = JSON.parse(fs.readFileSync(path.join(PROJECT, '.heaplens', 'project-classpath.json'), 'utf8')) as { modules: { name: string; runtime: string[]; test: string[] }[] };
    const app = cache.modules.find((m) => m.name === 'app')!;
    assert.deepEqual(app.runtime, [
      path.join(PROJECT, 'app', 'target', 'classes'),
      path.join(PROJECT, 'words', 'target', 'classes'),
      path.join(M2, 'org/apache/commons/commons-lang3/3.12.0/commons-lang3-3.12.0.jar'),
    ]);
    assert.ok(app.test.includes(path.join(M2, 'org/junit/jupiter/junit-jupiter-api/5.10.2/junit-jupiter-api-5.10.2.jar')));
    assert.deepEqual(cache.modules.map((m) => m.name).sort(), ['acme-parent', 'app', 'words']);
  });

  it('run --project --module app acme.app.Main: the program runs from the cache, profiled with its dependency', async () => {
    const out = path.join(WORK, 'main.heaplens');
    const r = await cli(['run', '--project', PROJECT, '--module', 'app', '--out', out, 'acme.app.Main', '--', 'x', 'y', 'z', 'w']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'words: 4\n');
    assert.match(r.stderr, /heaplens: Maven module app: acme\.app\.Main, class path of 3 entries \(cached\)\n/);
    assert.doesNotMatch(r.stderr, /mvn /);
    const lines = await collapsed(out);
    assert.equal(lines.get('acme.app.Main.main;acme.app.Main.count;acme.app.Counter'), 500);
    assert.equal((await collapsed(out, 'arrays')).get('acme.app.Main.main;acme.app.Main.count;acme.app.Counter[]'), 1);
    // the dependency ran from its jar: commons-lang3's split under the words module's frame
    const lang3 = [...lines.keys()].filter((k) => k.startsWith('acme.app.Main.main;acme.app.Main.count;acme.words.Words.split;org.apache.commons.lang3.StringUtils.split'));
    assert.ok(lang3.length > 0, [...lines.keys()].slice(0, 20).join('\n'));
  });

  it('a source newer than its classes is compiled first; --no-compile runs the classes as they are', async () => {
    const main = path.join(PROJECT, 'app', 'src', 'main', 'java', 'acme', 'app', 'Main.java');
    fs.writeFileSync(main, fs.readFileSync(main, 'utf8').replace('"words: "', '"words now: "'));
    const t = Date.now() / 1000 + 5;
    fs.utimesSync(main, t, t);
    const stale = await cli(['run', '--project', path.join(PROJECT, 'app'), '--no-compile', '--out', path.join(WORK, 'old.heaplens'), 'acme.app.Main']);
    assert.equal(stale.code, 0, stale.stderr);
    assert.equal(stale.stdout, 'words: 3\n');
    const fresh = await cli(['run', '--project', path.join(PROJECT, 'app'), '--out', path.join(WORK, 'new.heaplens'), 'acme.app.Main']);
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.match(fresh.stderr, /heaplens: Maven: compiling and resolving the class path of app\n/);
    assert.equal(fresh.stdout, 'words now: 3\n');
  });

  it('test CLASS#METHOD: only that test ran, its own allocations under its frame', async () => {
    const out = path.join(WORK, 'countsTwo.heaplens');
    const r = await cli(['test', '--project', PROJECT, '--out', out, 'acme.app.CountTest#countsTwo']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /heaplens: 1 test ran \(surefire\); profile written to /);
    const lines = await collapsed(out);
    assert.equal(countAt(lines, 'acme.app.CountTest.countsTwo', 'acme.app.Counter'), 7);
    const methods = methodsOf(out);
    assert.ok(methods.includes('acme.app.CountTest.countsTwo'));
    assert.equal(methods.includes('acme.app.CountTest.countsThree'), false);
  });

  it('test CLASS: both tests', async () => {
    const out = path.join(WORK, 'class.heaplens');
    const r = await cli(['test', '--project', path.join(PROJECT, 'app'), '--out', out, 'acme.app.CountTest']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /heaplens: 2 tests ran \(surefire\)/);
    const lines = await collapsed(out);
    assert.equal(countAt(lines, 'acme.app.CountTest.countsThree', 'acme.app.Counter'), 1000);
    assert.equal(countAt(lines, 'acme.app.CountTest.countsTwo', 'acme.app.Counter'), 7);
  });

  it('test --java JDK 25: Maven and the test JVM run on that JDK', async () => {
    requireJdk(JDK25);
    const out = path.join(WORK, 'countsThree-jdk25.heaplens');
    const r = await cli(['test', '--java', JDK25.java, '--project', PROJECT, '--out', out, 'acme.app.CountTest#countsThree']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok((JSON.parse(fs.readFileSync(out, 'utf8')) as { meta: { jvm: { version: string } } }).meta.jvm.version.startsWith(JDK25.versionPrefix));
    assert.equal(countAt(await collapsed(out), 'acme.app.CountTest.countsThree', 'acme.app.Counter'), 1000);
  });

  it('no such test: "No tests found", exit 1, no profile', async () => {
    const out = path.join(WORK, 'nope.heaplens');
    const r = await cli(['test', '--project', PROJECT, '--out', out, 'acme.app.CountTest#nope']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /heaplens: No tests found for acme\.app\.CountTest#nope in app: check the class and method names/);
    assert.equal(fs.existsSync(out), false);
  });

  it('a main class that is not one: the module\'s main classes are named', async () => {
    const r = await cli(['run', '--project', PROJECT, '--module', 'app', '--out', path.join(WORK, 'x.heaplens'), 'acme.app.Counter']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /heaplens: acme\.app\.Counter is not a main class of module app \(its main classes: acme\.app\.Main, acme\.app\.Tool\)\.\n/);
  });

  it('a @Nested test class: Outer$Inner#method runs that test alone', async () => {
    const file = path.join(PROJECT, 'app', 'src', 'test', 'java', 'acme', 'app', 'CountTest.java');
    const text = fs.readFileSync(file, 'utf8').replace('import org.junit.jupiter.api.Test;', 'import org.junit.jupiter.api.Nested;\nimport org.junit.jupiter.api.Test;');
    fs.writeFileSync(file, `${text.trimEnd().slice(0, -1)}
    @Nested
    class WhenSmall {
        @Test
        void countsOne() {
            Counter[] made = new Counter[3];
            for (int i = 0; i < made.length; i++) made[i] = new Counter(i);
            assertEquals(1, acme.words.Words.split("a").length);
        }
    }
}
`);
    const out = path.join(WORK, 'nested.heaplens');
    const r = await cli(['test', '--project', PROJECT, '--out', out, 'acme.app.CountTest$WhenSmall#countsOne']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /heaplens: 1 test ran \(surefire\)/);
    assert.equal(countAt(await collapsed(out), 'acme.app.CountTest$WhenSmall.countsOne', 'acme.app.Counter'), 3);
    assert.deepEqual(methodsOf(out).filter((m) => /CountTest.*\.counts/.test(m)), ['acme.app.CountTest$WhenSmall.countsOne']);
  });

  it('a build that fails: the message, then Maven\'s own output naming the error', async () => {
    const words = path.join(PROJECT, 'words', 'src', 'main', 'java', 'acme', 'words', 'Words.java');
    const good = fs.readFileSync(words, 'utf8');
    fs.writeFileSync(words, good.replace('return StringUtils.split(line, \' \');', 'return StringUtils.split(line, \' \')'));
    const t = Date.now() / 1000 + 10;
    fs.utimesSync(words, t, t);
    try {
      const r = await cli(['run', '--project', path.join(PROJECT, 'words'), '--out', path.join(WORK, 'y.heaplens')]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /heaplens: The Maven build failed \(compiling words\)\. Its output says why:\n/);
      assert.match(r.stderr, /Words\.java:\[\d+,\d+\] ';' expected/);
    } finally {
      fs.writeFileSync(words, good);
    }
  });
});

describe('the JUnit console launcher on the test class path (Debian junit5\'s standalone jar, JUnit Platform 1.9.1)', () => {
  const C = path.join(WORK, 'console');
  const JAR = '/usr/share/java/junit-platform-console-standalone-1.9.1.jar';
  before(async () => {
    ensureDebianPackages(['junit5']);
    const g = await exec(process.execPath, [path.join(ROOT, 'test', 'fixtures', 'maven', 'generate.mjs'), C, JAR]);
    assert.equal(g.code, 0, g.stderr);
  });

  it('test CLASS#METHOD runs through the console launcher (no execute subcommand before 1.10): that test only', async () => {
    const out = path.join(WORK, 'console-countsThree.heaplens');
    const r = await cli(['test', '--project', C, '--out', out, 'acme.app.CountTest#countsThree']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout + r.stderr, /\[ {9}1 tests successful {6}\]/);
    assert.match(r.stderr, /heaplens: 1 test ran \(console\); profile written to /);
    const lines = await collapsed(out);
    assert.equal(countAt(lines, 'acme.app.CountTest.countsThree', 'acme.app.Counter'), 1000);
    assert.equal(methodsOf(out).includes('acme.app.CountTest.countsTwo'), false);
  });
});

describe('a two-module Gradle build (Debian gradle, offline)', () => {
  const G = path.join(WORK, 'gradle');
  before(() => {
    ensureDebianPackages(['gradle']);
    fs.rmSync(G, { recursive: true, force: true });
    const files: Record<string, string> = {
      'settings.gradle': "include 'lib', 'app'\n",
      'lib/build.gradle': "apply plugin: 'java'\n",
      'app/build.gradle': "apply plugin: 'java'\ndependencies { compile project(':lib') }\n",
      'lib/src/main/java/g/lib/Parts.java': 'package g.lib;\npublic class Parts { public static String[] of() { return new String[] { "a", "b" }; } }\n',
      'app/src/main/java/g/app/Main.java': 'package g.app;\npublic class Main { public static void main(String[] a) { System.out.println("parts: " + g.lib.Parts.of().length); } }\n',
    };
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(G, rel)), { recursive: true });
      fs.writeFileSync(path.join(G, rel), text);
    }
  });

  it('run --project app: the runtime classpath task, lib\'s jar on the class path, the one main class', async () => {
    const out = path.join(WORK, 'gradle.heaplens');
    const r = await cli(['run', '--project', path.join(G, 'app'), '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'parts: 2\n');
    assert.match(r.stderr, /heaplens: Gradle module :app: g\.app\.Main, class path of 3 entries\n/);
    const cache = JSON.parse(fs.readFileSync(path.join(G, '.heaplens', 'project-classpath.json'), 'utf8')) as { modules: { name: string; runtime: string[] }[] };
    assert.deepEqual(cache.modules.find((m) => m.name === ':app')!.runtime, [
      path.join(G, 'app/build/classes/java/main'), path.join(G, 'app/build/resources/main'), path.join(G, 'lib/build/libs/lib.jar'),
    ]);
    const arrays = await collapsed(out, 'arrays');
    assert.equal(arrays.get('g.app.Main.main;g.lib.Parts.of;java.lang.String[]'), 1);
  });
});
