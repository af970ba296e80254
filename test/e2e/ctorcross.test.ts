// Fixture `ctorcross`: the cross-check of the two ways of counting objects on one profile file:
// allocation-site records versus Binder 2006 Figure 2 (b) computed from constructor calls in the MCT and map M
// (each method's ctorTarget). They must agree in every context for every application class, except for the
// documented case of Binder 2006 section 6: `new Base(boom())` where boom() throws after `new` and before the
// constructor runs — counted by the site, invisible to the constructor method (a difference of exactly 1).
import * as assert from 'assert/strict';
import { it } from 'node:test';
import { assertCleanRun, describeRuns, Fixture } from './support/fixture';
import { RawNode, RawProfile } from './support/profile';

const fx = new Fixture({ name: 'ctorcross' });
const PKG = 'ctorcross.';
const REFLECTIVE = 'main:ctorcross.Main.main;ctorcross.Main.reflective';

/** Figure 2 (b) for an application class: objects of `cls` allocated by context `c`. */
function figure2(p: RawProfile, c: RawNode, cls: string): number {
  let n = 0;
  for (const x of c.c ?? []) {
    const m = p.method(x);
    if (m.name === '<init>' && m.class === cls) n += x.calls ?? 0;
  }
  if (c.m !== undefined) {
    const mc = p.method(c);
    if (mc.name === '<init>' && mc.class !== 'java.lang.Object' && mc.ctorTarget !== undefined) {
      const target = p.methods.get(mc.ctorTarget);
      assert.ok(target, `ctorTarget ${mc.ctorTarget} of ${mc.class}.<init>${mc.desc} is defined`);
      // only a profiled target is an MCT node whose calls were summed above
      if (target.profiled && target.class === cls) n -= c.calls ?? 0;
    }
  }
  return n;
}

/** Allocation-site count: the records of `cls` in context `c`. */
function siteCount(p: RawProfile, c: RawNode, cls: string): number {
  return (c.a ?? []).filter((r) => p.typeName(r[1]) === cls).reduce((s, r) => s + r[2], 0);
}

interface Comparison {
  path: string;
  cls: string;
  sites: number;
  ctor: number;
}

function compareAll(p: RawProfile): Comparison[] {
  const classes = new Set<string>();
  for (const m of p.methods.values()) if (m.class.startsWith(PKG)) classes.add(m.class);
  for (const t of p.types.values()) if (!t.array && t.name.startsWith(PKG)) classes.add(t.name);
  const out: Comparison[] = [];
  p.walk((node, path, thread) => {
    for (const cls of classes) {
      const sites = siteCount(p, node, cls);
      const ctor = figure2(p, node, cls);
      if (sites !== 0 || ctor !== 0) out.push({ path: `${thread.name}:${path.join(';')}`, cls, sites, ctor });
    }
  });
  return out;
}

describeRuns(fx, 'ctorcross', (run) => {
  it('runs cleanly', () => assertCleanRun(run(), 'ctorcross', 'ctorcross made=25 failed=1 reflective=2'));

  it('records map M for every constructor of the fixture', () => {
    const p = run().profile;
    const target = (cls: string, desc: string): string => {
      const ms = p.methodsNamed(`ctorcross.${cls}`, '<init>').filter((m) => m.desc === desc);
      assert.equal(ms.length, 1, `one method entry for ${cls}.<init>${desc}`);
      assert.equal(ms[0].ctorWarning, undefined, `no ctorWarning on ${cls}.<init>${desc}`);
      assert.ok(ms[0].ctorTarget !== undefined, `${cls}.<init>${desc} has a ctorTarget`);
      const t = p.methods.get(ms[0].ctorTarget as number);
      assert.ok(t);
      return `${t.class}.${t.name}${t.desc}`;
    };
    assert.equal(target('Base', '()V'), 'ctorcross.Base.<init>(I)V');
    assert.equal(target('Base', '(I)V'), 'java.lang.Object.<init>()V');
    assert.equal(target('Mid', '()V'), 'ctorcross.Base.<init>(I)V');
    assert.equal(target('Mid', '(Ljava/lang/String;)V'), 'ctorcross.Mid.<init>()V');
    assert.equal(target('Leaf', '(I)V'), 'ctorcross.Mid.<init>(Ljava/lang/String;)V');
    assert.equal(target('Leaf', '()V'), 'ctorcross.Leaf.<init>(I)V');
    assert.equal(target('Helper', '()V'), 'java.lang.Object.<init>()V');
    assert.equal(target('Bad', '()V'), 'ctorcross.Base.<init>(I)V');
  });

  it('allocation sites and Figure 2 agree in every context, except new Base(boom()) in failing()', () => {
    // (reflective() is checked on its own below)
    const all = compareAll(run().profile).filter((c) => !c.path.startsWith(REFLECTIVE));
    const FAILING = 'main:ctorcross.Main.main;ctorcross.Main.failing';
    const disagree = all.filter((c) => c.sites !== c.ctor);
    assert.deepEqual(disagree, [{ path: FAILING, cls: 'ctorcross.Base', sites: 1, ctor: 0 }],
      'the only disagreement is the exception thrown while evaluating constructor arguments');
  });

  it('objects made by Constructor.newInstance are counted by both methods (2 Helper)', () => {
    const mine = compareAll(run().profile).filter((c) => c.path.startsWith(REFLECTIVE) && c.cls === 'ctorcross.Helper');
    const sites = mine.reduce((s, c) => s + c.sites, 0);
    const ctor = mine.reduce((s, c) => s + c.ctor, 0);
    assert.deepEqual({ sites, ctor }, { sites: 2, ctor: 2 }, 'Helper objects under reflective()');
  });

  it('the comparison covers the expected allocations (not vacuous)', () => {
    const all = compareAll(run().profile).filter((c) => !c.path.startsWith(REFLECTIVE));
    const RUN = 'main:ctorcross.Main.main;ctorcross.Main.run';
    const pick = (path: string, cls: string): [number, number] | undefined => {
      const c = all.find((x) => x.path === path && x.cls === `ctorcross.${cls}`);
      return c && [c.sites, c.ctor];
    };
    assert.deepEqual(pick(RUN, 'Base'), [7, 7]);
    assert.deepEqual(pick(RUN, 'Mid'), [7, 7]);
    assert.deepEqual(pick(RUN, 'Leaf'), [9, 9]);
    assert.deepEqual(pick(RUN, 'Bad'), [2, 2], 'a constructor that throws after super() still counts');
    assert.deepEqual(pick(`${RUN};ctorcross.Leaf.<init>`, 'Helper'), [3, 3], 'Helper made inside Leaf()');
    const total = (cls: string): number => all.filter((c) => c.cls === `ctorcross.${cls}`).reduce((s, c) => s + c.sites, 0);
    assert.deepEqual(['Base', 'Mid', 'Leaf', 'Helper', 'Bad'].map(total), [8, 7, 9, 3, 2], 'site totals per class');
  });
});
