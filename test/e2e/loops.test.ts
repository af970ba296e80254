// Fixture `loops`: plain `new` in loops, in leaf methods called a known number of times.
import * as assert from 'assert/strict';
import * as path from 'path';
import { before, describe, it } from 'node:test';
import { assertUnder } from './support/collapsed';
import { JDK25 } from './support/env';
import { assertCleanRun, describeRuns, Fixture } from './support/fixture';
import { classFileMajor, compileFixture, FixtureRun, runFixture } from './support/heaplens';

const fx = new Fixture({ name: 'loops' });
const OUTPUT = 'loops points=1000 ints=250 strings=10 nested=30';
const RUN = 'loops.Main.main;loops.Main.run';

/** The allocation expectations of loops.Main.run, shared by the --release 17 and --release 25 builds. */
async function checkAllocations(run: FixtureRun): Promise<void> {
  assertUnder(await run.collapsed('objects'), RUN, {
    'loops.Main.makePoints;loops.Point': 1000,
    'loops.Main.nested;loops.Main.makePoints;loops.Point': 30,
  }, 'objects');
  assertUnder(await run.collapsed('arrays'), RUN, {
    'int[]': 1, // run's own result array
    'loops.Main.makeIntArrays;int[]': 250,
    'loops.Main.makeStringArrays;java.lang.String[]': 10,
  }, 'arrays');
  assertUnder(await run.collapsed('elements'), RUN, {
    'int[]': 4,
    'loops.Main.makeIntArrays;int[]': 1750,
    'loops.Main.makeStringArrays;java.lang.String[]': 30,
  }, 'elements');
}

function checkCalls(run: FixtureRun): void {
  const p = run.profile;
  const calls = (...frames: string[]): number => p.calls('main', ['loops.Main.main', ...frames]);
  assert.equal(p.nodes('main', ['loops.Main.main']).length, 1, 'main is a child of the main thread root');
  assert.equal(calls(), 1, 'main calls');
  assert.equal(calls('loops.Main.warmup'), 1);
  assert.equal(calls('loops.Main.run'), 1);
  assert.equal(calls('loops.Main.run', 'loops.Main.makePoints'), 4);
  assert.equal(calls('loops.Main.run', 'loops.Main.makePoints', 'loops.Point.<init>'), 1000);
  assert.equal(calls('loops.Main.run', 'loops.Main.makeIntArrays'), 5);
  assert.equal(calls('loops.Main.run', 'loops.Main.makeStringArrays'), 1);
  assert.equal(calls('loops.Main.run', 'loops.Main.nested'), 1);
  assert.equal(calls('loops.Main.run', 'loops.Main.nested', 'loops.Main.makePoints'), 3);
  assert.equal(calls('loops.Main.run', 'loops.Main.nested', 'loops.Main.makePoints', 'loops.Point.<init>'), 30);
  assert.equal(calls('loops.Main.warmup', 'loops.Main.makePoints', 'loops.Point.<init>'), 1);
  // the leaf methods call no profiled method other than Point's constructor
  const children = p.nodes('main', ['loops.Main.main', 'loops.Main.run', 'loops.Main.makeIntArrays'])[0].c ?? [];
  assert.deepEqual(children.map((c) => p.frame(c)), [], 'makeIntArrays has no callees');
}

describeRuns(fx, 'loops', (run) => {
  it('runs cleanly and prints its counts', () => assertCleanRun(run(), 'loops', OUTPUT));
  it('counts objects, arrays and elements per stack exactly', () => checkAllocations(run()));
  it('records the call counts of every context', () => checkCalls(run()));
});

describe('loops compiled with --release 25 (class file version 69) on JDK 25', () => {
  let run: FixtureRun;
  let classes: string;
  before(async () => {
    classes = await compileFixture('loops', { jdk: JDK25, release: 25, outName: 'loops-release25' });
    run = await runFixture({ jdk: JDK25, classpath: [classes], mainClass: 'loops.Main', tag: 'loops-release25' });
  });

  it('is compiled to class file version 69', () => {
    assert.equal(classFileMajor(path.join(classes, 'loops', 'Main.class')), 69);
  });
  it('runs cleanly and prints its counts', () => assertCleanRun(run, 'loops', OUTPUT));
  it('counts objects, arrays and elements per stack exactly', () => checkAllocations(run));
  it('records the call counts of every context', () => checkCalls(run));
  it('transformed the version-69 classes (they appear as profiled methods)', () => {
    const profiled = [...run.profile.methods.values()].filter((m) => m.class === 'loops.Main' && m.profiled);
    assert.ok(profiled.some((m) => m.name === 'makePoints'), 'loops.Main.makePoints is profiled');
  });
});
