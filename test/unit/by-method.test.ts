import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { totals } from '../../core/views/aggregate';
import { methodKey, shareOf, totalsByGroup, totalsByMethod } from '../../core/views/by-method';
import { MctNode, Profile } from '../../core/profile/types';
import { arrType, method, objType, profileOf, site } from './helpers';

// Types: 1 Obj (16 B), 2 int[] (elements × 4 + 16), 3 String (24 B, allocated by the JDK).
// Methods: 1 main, 2 work, 3 fib (recursive), 4 java.lang.StringBuilder.toString (not profiled), 5 lambda.
function fixture(): Profile {
  const rec = (s: number, t: number, n: number, e = 0): [number, number, number, number, number] =>
    [s, t, n, e, t === 2 ? n * 16 + e * 4 : t === 3 ? n * 24 : n * 16];
  const fib: MctNode = { m: 3, calls: 1, a: [rec(3, 1, 1)], c: [{ m: 3, calls: 2, a: [rec(3, 1, 2)], c: [{ m: 3, calls: 4, a: [rec(3, 1, 4)] }] }] };
  return profileOf({
    types: [objType(1, 'com.acme.Obj', 16), arrType(2, 'int[]', 'I', 4), objType(3, 'java.lang.String', 24)],
    methods: [
      method(1, 'com.acme.Main', 'main', { desc: '([Ljava/lang/String;)V', file: 'Main.java' }),
      method(2, 'com.acme.Main', 'work', { desc: '(I)V', file: 'Main.java' }),
      method(3, 'com.acme.Main', 'fib', { desc: '(I)I', file: 'Main.java' }),
      method(4, 'java.lang.StringBuilder', 'toString', { desc: '()Ljava/lang/String;', profiled: false, file: 'StringBuilder.java' }),
      method(5, 'com.acme.Main', 'lambda$main$0', { desc: '()V', file: 'Main.java' }),
    ],
    sites: [site(1, 1, 1), site(2, 2, 2, 'newarray'), site(3, 3, 1), site(4, 4, 3)],
    threads: [
      { id: 1, name: 'main', daemon: false, alive: false, root: { c: [{
        m: 1, calls: 1, a: [rec(1, 1, 10)], c: [
          // work's own array plus 7 Strings the JDK made on its behalf (charged to work's node)
          { m: 2, calls: 3, a: [rec(2, 2, 3, 30), rec(4, 3, 7)], c: [fib] },
          { m: 5, calls: 1, a: [rec(1, 1, 1)], c: [{ m: 2, calls: 1, a: [rec(2, 2, 1, 5)] }] },
        ],
      }] } },
      { id: 2, name: 'worker', daemon: false, alive: false, root: { c: [{ m: 2, calls: 2, a: [rec(4, 3, 5)] }] } },
    ],
  });
}

test('self totals: own sites plus what the JDK allocated on the method\'s behalf, over all contexts and threads', () => {
  const p = fixture();
  const { groups } = totalsByMethod(p);
  const work = groups.get('com.acme.Main.work(I)V')!;
  assert.deepEqual(work.self, { objects: 12, arrays: 4, elements: 35, bytes: 12 * 24 + 4 * 16 + 35 * 4 });
  assert.equal(work.calls, 6);
  assert.equal(work.contexts, 3);
  assert.deepEqual(work.methods, [2]);
  // the JDK method is never a node: it has no entry of its own
  assert.equal(groups.get('java.lang.StringBuilder.toString()Ljava/lang/String;'), undefined);
});

test('inclusive totals count callees, and recursion once per path', () => {
  const p = fixture();
  const { groups, total } = totalsByMethod(p);
  const fib = groups.get('com.acme.Main.fib(I)I')!;
  assert.deepEqual(fib.self, { objects: 7, arrays: 0, elements: 0, bytes: 7 * 16 });
  assert.deepEqual(fib.inclusive, fib.self, 'the nested fib frames are not counted twice');
  const main = groups.get('com.acme.Main.main([Ljava/lang/String;)V')!;
  assert.deepEqual(main.inclusive, totals(p, [p.threads[0].root]));
  const work = groups.get('com.acme.Main.work(I)V')!;
  // work (3 contexts): its self plus fib under the first one
  assert.deepEqual(work.inclusive, { objects: 19, arrays: 4, elements: 35, bytes: work.self.bytes + 7 * 16 });
  assert.deepEqual(total, totals(p));
  assert.equal(shareOf(work.self, total), work.self.bytes / total.bytes);
  assert.equal(shareOf(work.self, { objects: 0, arrays: 0, elements: 0, bytes: 0 }), 0);
});

test('groups: a lambda with its enclosing method counts nested members once', () => {
  const p = fixture();
  const byName = (id: number): string | undefined => {
    const m = p.methods.get(id)!;
    if (m.class !== 'com.acme.Main') return undefined;
    return m.name.startsWith('lambda$main$') || m.name === 'main' ? 'main+lambdas' : m.name;
  };
  const { groups } = totalsByGroup(p, byName);
  const g = groups.get('main+lambdas')!;
  assert.deepEqual(g.methods.sort(), [1, 5]);
  assert.deepEqual(g.self, { objects: 11, arrays: 0, elements: 0, bytes: 11 * 16 });
  // the lambda runs under main: its subtree is inside main's, not added again
  assert.deepEqual(g.inclusive, totals(p, [p.threads[0].root]));
});

test('methodKey is class.name(desc)', () => {
  assert.equal(methodKey({ class: 'a.B$C', name: '<init>', desc: '(I)V' }), 'a.B$C.<init>(I)V');
});

test('deep trees do not overflow the stack', () => {
  const root: MctNode = {};
  let at = root;
  for (let i = 0; i < 20000; i++) {
    const kid: MctNode = { m: 1, calls: 1, a: [[1, 1, 1, 0, 16]] };
    at.c = [kid];
    at = kid;
  }
  const p = profileOf({
    types: [objType(1, 'X', 16)], methods: [method(1, 'X', 'deep')], sites: [site(1, 1, 1)],
    threads: [{ id: 1, name: 'main', daemon: false, alive: true, root: {} }],
  });
  p.threads[0].root = root; // after validation (JSON round trips of 20,000 levels overflow the stack)
  const g = totalsByMethod(p).groups.get('X.deep()V')!;
  assert.equal(g.self.objects, 20000);
  assert.equal(g.inclusive.objects, 20000);
  assert.equal(g.contexts, 20000);
});

test('focusOnMethods: all contexts of a method merged under one root, recursion once', async () => {
  const { focusOnMethods } = await import('../../core/views/focus-tree');
  const p = fixture();
  const f = focusOnMethods(p, [2, 3], 'focus')!;
  assert.equal(f.threads.length, 1);
  assert.equal(f.file.threads[0].name, 'focus');
  const [work, fib] = f.threads[0].root.c!;
  assert.equal(work.m, 2);
  assert.equal(work.calls, 6, 'three contexts of work: 3 + 1 + 2 calls');
  // work's merged self equals its per-method self total; fib appears under work and on its own
  const { groups } = totalsByMethod(p);
  assert.deepEqual(totals(f, [{ c: [{ ...work, c: undefined }] }]), groups.get('com.acme.Main.work(I)V')!.self);
  assert.deepEqual(work.c!.map((k) => k.m), [3]);
  assert.equal(fib.m, 3);
  assert.deepEqual(totals(f, [{ c: [fib] }]), groups.get('com.acme.Main.fib(I)I')!.inclusive);
  assert.equal(focusOnMethods(p, [99], 'none'), undefined);
});
