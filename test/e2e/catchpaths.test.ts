// Fixture `catchpaths`: exceptions caught after they unwound profiled frames (docs/benchmark.md "Round 15", which
// tried restoring at each catch instead of the method-wide handler): by a caller two frames up, after a finally, around a constructor before and after
// super(), through reflection, by the JDK (ClassLoader.loadClass's parent delegation, FutureTask, a thread's
// uncaught-exception dispatch), and by a method whose call folded past the node budget or the depth limit. Each
// catcher allocates a Marker and then calls after(): both must be charged to the catcher.
import * as assert from 'assert/strict';
import { it } from 'node:test';
import { sumType, under } from './support/collapsed';
import { assertCleanRun, describeRuns, Fixture } from './support/fixture';

const MAIN = 'catchpaths.Main.main';
const at = (m: string) => `${MAIN};catchpaths.Main.${m}`;
const THROWN = 'catchpaths.Main.middle;catchpaths.Main.thrower;java.lang.IllegalStateException';

/**
 * The lines under `prefix` whose type is the fixture's own or the exception thrown: the JDK's work of loading a class
 * the first time lands wherever its first use is (and past the budget, folded into the caller).
 */
function app(lines: Map<string, number>, prefix: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(under(lines, prefix))) {
    const type = k.slice(k.lastIndexOf(';') + 1);
    if (type.startsWith('catchpaths.') || type.startsWith('java.lang.Illegal')) out[k] = v;
  }
  return out;
}

const all = new Fixture({ name: 'catchpaths' });
describeRuns(all, 'catchpaths', (run) => {
  it('runs cleanly', () => assertCleanRun(run(), 'catchpaths', 'catchpaths all'));

  it('a catch two frames up, and after a finally: the catcher gets the Marker and after()', async () => {
    const objects = await run().collapsed('objects');
    assert.deepEqual(app(objects, at('twoUp')), {
      'catchpaths.Marker': 2, [THROWN]: 2, 'catchpaths.Main.after;catchpaths.AfterWork': 2,
    });
    assert.deepEqual(app(objects, at('inFinally')), {
      'catchpaths.Marker': 2, 'catchpaths.Main.after;catchpaths.AfterWork': 2,
      'catchpaths.Main.withFinally;catchpaths.Cleanup': 2,
      'catchpaths.Main.withFinally;catchpaths.Main.after;catchpaths.AfterWork': 2,
      [`catchpaths.Main.withFinally;${THROWN}`]: 2,
    });
  });

  it('a constructor that throws before and after super(): the catcher gets the Marker', async () => {
    const objects = await run().collapsed('objects');
    const before = under(objects, at('ctorBefore'));
    assert.equal(before['catchpaths.Marker'], 2);
    assert.equal(before['catchpaths.Checked.<init>;catchpaths.Checked.check;java.lang.IllegalArgumentException'], 2);
    // no handler may cover a constructor's code before super(): the catcher's handler makes its node current again
    // (Recorder.caught), or after() would land under Checked.<init>
    assert.equal(before['catchpaths.Main.after;catchpaths.AfterWork'], 2);
    assert.equal(sumType(objects, 'catchpaths.AfterWork', 'catchpaths.Checked.<init>'), 0);
    const after = under(objects, at('ctorAfter'));
    assert.equal(after['catchpaths.Marker'], 2);
    assert.equal(after['catchpaths.Main.after;catchpaths.AfterWork'], 2);
    assert.equal(after['catchpaths.Checked.<init>;java.lang.IllegalStateException'], 2);
  });

  it('reflection: the InvocationTargetException\'s catcher gets the Marker and after()', async () => {
    const got = under(await run().collapsed('objects'), at('reflection'));
    assert.equal(got['catchpaths.Marker'], 2);
    assert.equal(got['catchpaths.Main.after;catchpaths.AfterWork'], 2);
    assert.equal(got['catchpaths.Main.thrower;java.lang.IllegalStateException'], 2);
  });

  it('the JDK catches: the child loader\'s findClass, the next task and the uncaught handler are not under the thrower', async () => {
    const objects = await run().collapsed('objects');
    const loading = under(objects, at('classLoading'));
    assert.equal(loading['java.lang.ClassLoader.loadClass;catchpaths.ChildLoader.findClass;catchpaths.FoundMarker'], 2);
    assert.equal(loading['catchpaths.Main.after;catchpaths.AfterWork'], 2);
    assert.equal(sumType(objects, 'catchpaths.FoundMarker', 'catchpaths.ParentLoader.loadClass'), 0);
    assert.equal(objects.get('catchpaths.WorkingTask.call;catchpaths.TaskMarker'), 1, 'the next task at the pool thread\'s top');
    assert.equal(objects.get('catchpaths.Handler.uncaughtException;catchpaths.HandlerMarker'), 1, 'the handler at the dying thread\'s top');
    assert.equal(sumType(objects, 'catchpaths.AfterWork', 'catchpaths.Main.thrower'), 0);
    assert.equal(under(objects, at('executor'))['catchpaths.Marker'], 1);
    assert.equal(under(objects, at('uncaught'))['catchpaths.Main.after;catchpaths.AfterWork'], 1);
  });
});

const budget = new Fixture({
  name: 'catchpaths', tag: 'catchpaths-budget', jvmArgs: ['-Dcatchpaths.mode=budget'], runArgs: ['--agent-opt', 'maxNodes=1000'],
});
describeRuns(budget, 'catchpaths past the node budget', (run) => {
  it('runs cleanly', () => assertCleanRun(run(), 'catchpaths', 'catchpaths budget'));

  it('a folded method catches what an existing child of its caller threw: the caller gets the Marker, after() its child', async () => {
    const objects = await run().collapsed('objects');
    assert.deepEqual(app(objects, at('pastBudget')), {
      'catchpaths.Marker': 3,
      'catchpaths.Main.existing;java.lang.IllegalStateException': 3,
      'catchpaths.Main.existing;catchpaths.Main.after;catchpaths.AfterWork': 4,
    });
    const p = run().profile;
    assert.equal(p.calls('main', [MAIN, 'catchpaths.Main.pastBudget', 'catchpaths.Main.existing']), 7);
  });
});

const depth = new Fixture({
  name: 'catchpaths', tag: 'catchpaths-depth', jvmArgs: ['-Dcatchpaths.mode=depth'], runArgs: ['--agent-opt', 'maxDepth=20'],
});
describeRuns(depth, 'catchpaths past the depth limit', (run) => {
  it('runs cleanly', () => assertCleanRun(run(), 'catchpaths', 'catchpaths depth'));

  it('a catch past the depth limit: everything is charged to the node at the limit', async () => {
    const objects = await run().collapsed('objects');
    assert.equal(sumType(objects, 'catchpaths.Marker'), 3);
    assert.equal(sumType(objects, 'catchpaths.AfterWork'), 3);
    const deepest = [...objects.keys()].find((k) => k.endsWith(';catchpaths.Marker')) ?? '';
    assert.equal(deepest.split(';').length - 1, 20, 'the node at depth 20 (maxDepth)');
    assert.equal(objects.get(deepest.replace(/catchpaths\.Marker$/, 'catchpaths.AfterWork')), 3);
  });
});
