// Fixture `figure1`: Binder 2006 Figure 1's class A — A() { this(new Object()); }  A(Object o) { super(); }.
// run() does 7 x new A() and 5 x new A(x) with one shared x.
import * as assert from 'assert/strict';
import { it } from 'node:test';
import { assertUnder } from './support/collapsed';
import { assertCleanRun, assertFirstSection, describeRuns, Fixture } from './support/fixture';

const fx = new Fixture({ name: 'figure1' });
const RUN = 'figure1.Main.main;figure1.Main.run';
const A0 = 'figure1.A.<init>()V';
const A1 = 'figure1.A.<init>(Ljava/lang/Object;)V';

describeRuns(fx, 'figure1', (run) => {
  it('runs cleanly and prints its count', () => assertCleanRun(run(), 'figure1', 'figure1 made=12'));

  it('writes the first section the TypeScript writer computes from the same trees', () => assertFirstSection(run()));

  it('charges the A objects to run and the Object made by A() to the constructor frame', async () => {
    assertUnder(await run().collapsed('objects'), RUN, {
      'figure1.A': 12,
      'java.lang.Object': 1, // the shared x
      'figure1.A.<init>;java.lang.Object': 7, // A() { this(new Object()); }
    });
    assertUnder(await run().collapsed('arrays'), RUN, {});
  });

  it('builds the constructor call tree of Figure 1', () => {
    const p = run().profile;
    const base = ['figure1.Main.main', 'figure1.Main.run'];
    assert.equal(p.calls('main', [...base, A0]), 7, 'A() called from run');
    assert.equal(p.calls('main', [...base, A1]), 5, 'A(Object) called from run');
    assert.equal(p.calls('main', [...base, A0, A1]), 7, 'A(Object) called from A()');
    // java.lang.Object.<init> is JDK code: never an MCT node
    assert.equal(p.nodes('main', [...base, A0])[0].c?.length, 1, 'A() has exactly one profiled callee');
  });

  it('records map M: A()V -> A(Object)V -> java.lang.Object.<init>()V', () => {
    const p = run().profile;
    const ctor = (desc: string) => {
      const found = p.methodsNamed('figure1.A', '<init>').filter((m) => m.desc === desc);
      assert.equal(found.length, 1, `one method entry for A.<init>${desc}`);
      return found[0];
    };
    const a0 = ctor('()V');
    const a1 = ctor('(Ljava/lang/Object;)V');
    assert.equal(a0.profiled, true);
    assert.equal(a0.ctorTarget, a1.id, 'M(A()V) = A(Ljava/lang/Object;)V');
    assert.ok(a1.ctorTarget !== undefined, 'A(Object) has a ctorTarget');
    const target = p.methods.get(a1.ctorTarget as number);
    assert.ok(target, 'ctorTarget id is defined in the methods table');
    assert.deepEqual([target.class, target.name, target.desc], ['java.lang.Object', '<init>', '()V'],
      'M(A(Ljava/lang/Object;)V) = java.lang.Object.<init>()V');
  });

  it('gives the Figure 2 count for A in run and in A() (12 and 0)', () => {
    // Figure 2 (b) by hand on the file: run is not a constructor, so objects of A = calls of A's <init> callees.
    const p = run().profile;
    const runNode = p.nodes('main', ['figure1.Main.main', 'figure1.Main.run'])[0];
    const initCalls = (n: typeof runNode, cls: string): number =>
      (n.c ?? []).filter((c) => p.method(c).name === '<init>' && p.method(c).class === cls).reduce((s, c) => s + (c.calls ?? 0), 0);
    assert.equal(initCalls(runNode, 'figure1.A'), 12);
    const a0Node = p.nodes('main', ['figure1.Main.main', 'figure1.Main.run', A0])[0];
    // A() is a constructor whose M target A(Object) is of class A: subtract calls(A()) = 7
    assert.equal(initCalls(a0Node, 'figure1.A') - (a0Node.calls ?? 0), 0);
  });
});
