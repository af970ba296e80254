// Binder 2006 Figure 1/Figure 2: class A { A() { this(new Object()); }  A(Object o) { super(); } }
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { crossCheckCtorAlloc, getAlloc, getAllocByClass, siteObjectCounts } from '../../core/views/ctor-alloc';
import { MctNode } from '../../core/profile/types';
import { arrType, method, objType, profileOf, site } from './helpers';

const OBJ = 'java.lang.Object';

/** main() calls `new A()` three times. `objectProfiled` models Binder 2006's MCT, where Object.<init> is a node. */
function figure1(objectProfiled: boolean) {
  const objInit = (calls: number): MctNode[] => (objectProfiled ? [{ m: 4, calls }] : []);
  const aObject: MctNode = { m: 3, calls: 3, c: objInit(3) };
  const aNoArg: MctNode = { m: 2, calls: 3, a: [[2, 2, 3, 0, 48]], c: [...objInit(3), aObject] };
  const main: MctNode = { m: 1, calls: 1, a: [[1, 1, 3, 0, 48], [3, 3, 1, 4, 32]], c: [aNoArg] };
  const p = profileOf({
    types: [objType(1, 'A', 16), objType(2, OBJ, 16), arrType(3, 'int[]', 'I', 4)],
    methods: [
      method(1, 'Main', 'main'),
      method(2, 'A', '<init>', { desc: '()V', ctorTarget: 3 }),
      method(3, 'A', '<init>', { desc: '(Ljava/lang/Object;)V', ctorTarget: 4 }),
      method(4, OBJ, '<init>', { profiled: objectProfiled }),
    ],
    sites: [site(1, 1, 1), site(2, 2, 2), site(3, 1, 3, 'newarray')],
    threads: [{ id: 1, name: 'main', daemon: false, alive: false, root: { c: [main] } }],
  });
  const top = p.threads[0].root.c![0];
  return { p, main: top, aNoArg: top.c![0], aObject: top.c![0].c![objectProfiled ? 1 : 0] };
}

test('Figure 2 when java.lang.Object.<init> is not profiled (our MCT)', () => {
  const { p, main, aNoArg, aObject } = figure1(false);
  assert.equal(getAlloc(p, main), 3);
  assert.equal(getAlloc(p, main, 'A'), 3);
  // A() calls A(Object) 3 times and M(A()) = A(Object) is profiled: those calls allocate nothing.
  assert.equal(getAlloc(p, aNoArg), 0);
  assert.equal(getAlloc(p, aNoArg, 'A'), 0);
  // M(A(Object)) = Object.<init> is not profiled, so not in the tree: nothing to subtract (Binder 2006's tree would give −3).
  assert.equal(getAlloc(p, aObject), 0);
  assert.equal(getAlloc(p, aObject, 'A'), 0);
  assert.deepEqual([...getAllocByClass(p, main)], [['A', 3]]);
  assert.deepEqual([...getAllocByClass(p, aNoArg)], []);
});

test('Figure 2 on Binder 2006\'s full MCT (Object.<init> is a node)', () => {
  const { p, main, aNoArg, aObject } = figure1(true);
  assert.equal(getAlloc(p, main), 3);
  // A(): callees Object.<init> 3 + A(Object) 3, minus calls(A()) 3 = the 3 `new Object()`.
  assert.equal(getAlloc(p, aNoArg), 3);
  assert.equal(getAlloc(p, aNoArg, OBJ), 3, 'class(M(A())) is A, so nothing is subtracted for Object');
  assert.equal(getAlloc(p, aNoArg, 'A'), 0);
  // A(Object): Object.<init> 3 − calls 3.
  assert.equal(getAlloc(p, aObject), 0);
  assert.equal(getAlloc(p, aObject, OBJ), 0);
  assert.deepEqual([...getAllocByClass(p, aNoArg)], [[OBJ, 3]]);
});

test('a subclass constructor calling a profiled super constructor', () => {
  // class B extends A { B() { super(); } } — new B() twice from main; class C extends java.util.ArrayList.
  const p = profileOf({
    types: [objType(1, 'B', 16), objType(2, 'C', 24)],
    methods: [
      method(1, 'Main', 'main'),
      method(2, 'B', '<init>', { ctorTarget: 3 }),
      method(3, 'A', '<init>', { ctorTarget: 4 }),
      method(4, OBJ, '<init>', { profiled: false }),
      method(5, 'C', '<init>', { ctorTarget: 6 }),
      method(6, 'java.util.ArrayList', '<init>', { profiled: false }),
      method(7, 'D', '<init>', { ctorWarning: 'two targets' }),
    ],
    sites: [site(1, 1, 1), site(2, 1, 2)],
    threads: [{ id: 1, name: 'main', daemon: false, alive: false, root: { c: [{
      m: 1, calls: 1, a: [[1, 1, 2, 0, 32], [2, 2, 1, 0, 24]],
      c: [{ m: 2, calls: 2, c: [{ m: 3, calls: 2 }] }, { m: 5, calls: 1 }, { m: 7, calls: 1, c: [{ m: 3, calls: 1 }] }],
    }] } }],
  });
  const main = p.threads[0].root.c![0];
  const [b, c, d] = main.c!;
  assert.equal(getAlloc(p, main), 4, 'B 2 + C 1 + D 1');
  assert.equal(getAlloc(p, main, 'B'), 2);
  assert.equal(getAlloc(p, b), 0);
  assert.equal(getAlloc(p, b, 'A'), 0);
  assert.equal(getAlloc(p, c), 0, 'M(C()) = ArrayList.<init> is not profiled: nothing subtracted');
  assert.equal(getAlloc(p, d), 1, 'no ctorTarget (analysis warning): nothing subtracted');
});

test('allocation-site counts agree with Figure 2 on profiled classes', () => {
  const { p, main, aNoArg } = figure1(false);
  assert.deepEqual([...siteObjectCounts(p, main)], [['A', 3]], 'int[] records are not objects');
  assert.deepEqual([...siteObjectCounts(p, aNoArg)], [[OBJ, 3]]);
  assert.deepEqual(crossCheckCtorAlloc(p, p.threads[0].root), []);
  // Drop main's record of `new A`: the cross-check reports the context.
  main.a = [];
  const mismatches = crossCheckCtorAlloc(p, p.threads[0].root);
  assert.equal(mismatches.length, 1);
  assert.equal(mismatches[0].cls, 'A');
  assert.equal(mismatches[0].byConstructors, 3);
  assert.equal(mismatches[0].bySites, 0);
  assert.deepEqual(mismatches[0].path.map((n) => n.m), [1]);
});
