// One fixture per test file: compiled once (javac --release 17), run once per JDK, both JDKs concurrently.
import * as assert from 'assert/strict';
import { before, describe } from 'node:test';
import { Jdk, JDK17, JDKS, requireJdk } from './env';
import { compileFixture, FixtureRun, runFixture } from './heaplens';
import { firstSection } from '../../../core/profile/first-section';
import { ProfileFile } from '../../../core/profile/types';
import { expandVersion2 } from '../../../core/profile/version2';

export interface FixtureSpec {
  /** directory under test/fixtures/java, also the Java package of the main class */
  name: string;
  /** main class (default `<name>.Main`) */
  mainClass?: string;
  /** jars to compile against and to put on the run class path after the fixture's classes */
  libs?: string[];
  /** extra JVM options (after -Xverify:all) */
  jvmArgs?: string[];
  /** `heaplens run` options before `--` (e.g. --accounts, --mode lifetime) */
  runArgs?: string[];
  /** the profile's file name (default `name`): one fixture run several ways needs one per way */
  tag?: string;
}

export class Fixture {
  private compiled?: Promise<string>;
  private readonly runs = new Map<string, Promise<FixtureRun>>();

  constructor(readonly spec: FixtureSpec) {}

  get mainClass(): string {
    return this.spec.mainClass ?? `${this.spec.name}.Main`;
  }

  /** The class directory, compiled on first use. */
  classes(): Promise<string> {
    if (!this.compiled) {
      for (const j of JDKS) requireJdk(j);
      this.compiled = compileFixture(this.spec.name, { jdk: JDK17, release: 17, classpath: this.spec.libs });
    }
    return this.compiled;
  }

  /** The run on `jdk`; the first call starts the runs on every JDK at once. */
  run(jdk: Jdk): Promise<FixtureRun> {
    if (this.runs.size === 0) {
      for (const j of JDKS) {
        const p = this.classes().then((dir) => runFixture({
          jdk: j, classpath: [dir, ...(this.spec.libs ?? [])], mainClass: this.mainClass, tag: this.spec.tag ?? this.spec.name,
          jvmArgs: this.spec.jvmArgs, runArgs: this.spec.runArgs,
        }));
        p.catch(() => undefined); // awaited by the tests; avoid an unhandled rejection in the meantime
        this.runs.set(j.name, p);
      }
    }
    const p = this.runs.get(jdk.name);
    if (!p) throw new Error(`no run for JDK ${jdk.name}`);
    return p;
  }
}

/**
 * The shape of most fixture test files: per JDK, a suite "<title> on JDK N" whose tests read the fixture's run on
 * that JDK (started for both JDKs at once, before the first test).
 */
export function describeRuns(fx: Fixture, title: string, checks: (run: () => FixtureRun, jdk: Jdk) => void): void {
  for (const jdk of JDKS) {
    describe(`${title} on JDK ${jdk.name}`, () => {
      let run: FixtureRun | undefined;
      before(async () => {
        run = await fx.run(jdk);
      });
      checks(() => {
        if (!run) throw new Error(`${fx.spec.name}: the run on JDK ${jdk.name} is not there`);
        return run;
      }, jdk);
    });
  }
}

/** Checks every fixture run shares: the program's output, and no transform failure in the fixture's package. */
export function assertCleanRun(run: FixtureRun, pkg: string, expectedOutput: string): void {
  const lines = run.run.stdout.split('\n').map((l) => l.replace(/\r$/, ''));
  assert.ok(lines.includes(expectedOutput),
    `program output should contain the line ${JSON.stringify(expectedOutput)}; stdout was:\n${run.run.stdout}\nstderr:\n${run.run.stderr}`);
  const failures = (run.profile.json.transform?.failures ?? []) as { class: string; error: string }[];
  const ours = failures.filter((f) => f.class === pkg || f.class.startsWith(pkg + '.'));
  assert.deepEqual(ours, [], `transform failures in package ${pkg}`);
  assert.equal(run.profile.json.meta.final, true, 'the profile should be the final one written at shutdown');
}

/**
 * The agent's first section (docs/format.md "first") is the one core/profile/first-section.ts computes from the trees
 * of the same file: the two writers agree on a real run (the same nodes, values, gaps, classes, in the same order).
 */
export function assertFirstSection(run: FixtureRun): void {
  const json = JSON.parse(JSON.stringify(run.profile.json)) as Record<string, unknown>;
  const written = json.first;
  assert.ok(written, 'the profile has a first section');
  delete json.first;
  expandVersion2(json);
  assert.deepEqual(written, JSON.parse(JSON.stringify(firstSection(json as unknown as ProfileFile))));
}
