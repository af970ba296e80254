import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { sourcePathOf, topLines, totalsByLine } from '../../core/views/by-line';
import { isJdkClass } from '../../core/profile/names';
import { Profile } from '../../core/profile/types';
import { arrType, method, objType, profileOf } from './helpers';

// Two sites on line 12 of Main.java (a String and an int[]), one on line 20, one JDK site (HashMap.java:1901)
// charged to main and to work; a site without a line.
function fixture(): Profile {
  return profileOf({
    types: [objType(1, 'com.acme.Item', 16), arrType(2, 'int[]', 'I', 4), objType(3, 'java.util.HashMap$Node', 32)],
    methods: [
      method(1, 'com.acme.Main', 'main', { file: 'Main.java' }),
      method(2, 'com.acme.Main$Worker', 'work', { file: 'Main.java' }),
      method(3, 'java.util.HashMap', 'newNode', { file: 'HashMap.java', profiled: false }),
      method(4, 'Top', 'run', { file: 'Top.java' }),
    ],
    sites: [
      { id: 1, method: 1, bci: 1, line: 12, kind: 'new', type: 1 },
      { id: 2, method: 1, bci: 9, line: 12, kind: 'newarray', type: 2 },
      { id: 3, method: 2, bci: 4, line: 20, kind: 'new', type: 1 },
      { id: 4, method: 3, bci: 0, line: 1901, kind: 'new', type: 3 },
      { id: 5, method: 2, bci: 7, kind: 'new', type: 1 },
      { id: 6, method: 4, bci: 0, line: 3, kind: 'new', type: 1 },
    ],
    threads: [
      { id: 1, name: 'main', daemon: false, alive: false, root: { c: [{
        m: 1, calls: 1, a: [[1, 1, 5, 0, 80], [2, 2, 2, 20, 112], [4, 3, 4, 0, 128]],
        c: [{ m: 2, calls: 2, a: [[3, 1, 3, 0, 48], [4, 3, 10, 0, 320], [5, 1, 1, 0, 16], [1, 1, 1, 0, 16]] }],
      }] } },
      { id: 2, name: 'w', daemon: false, alive: false, root: { c: [{ m: 2, calls: 1, a: [[3, 1, 6, 0, 96]] }, { m: 4, calls: 1, a: [[6, 1, 1, 0, 16]] }] } },
    ],
  });
}

test('sourcePathOf: package directories and the class file\'s source name', () => {
  assert.equal(sourcePathOf({ class: 'demo.WordIndex$Entry', file: 'WordIndex.java' }), 'demo/WordIndex.java');
  assert.equal(sourcePathOf({ class: 'Top', file: 'Top.java' }), 'Top.java');
  assert.equal(sourcePathOf({ class: 'a.b.C' }), undefined);
});

test('per-line totals: sites of one line merge; types and contexts broken down', () => {
  const lines = totalsByLine(fixture());
  const key = (l: { source: string; line: number }): string => `${l.source}:${l.line}`;
  assert.deepEqual(lines.map(key).sort(), ['Top.java:3', 'com/acme/Main.java:12', 'com/acme/Main.java:20', 'java/util/HashMap.java:1901']);
  const l12 = lines.find((l) => l.line === 12)!;
  assert.deepEqual(l12.totals, { objects: 6, arrays: 2, elements: 20, bytes: 80 + 112 + 16 });
  assert.equal(l12.count, 8);
  assert.deepEqual(l12.types.map((t) => [t.type.name, t.count]), [['com.acme.Item', 6], ['int[]', 2]]);
  assert.deepEqual(l12.sites.sort(), [1, 2]);
  assert.deepEqual(l12.methods, [1]);
  // contexts: main itself (7), then main > work (1)
  assert.deepEqual(l12.contexts, [{ path: [1], count: 7, bytes: 192 }, { path: [1, 2], count: 1, bytes: 16 }]);
  const l20 = lines.find((l) => l.line === 20)!;
  // threads merged: work under main (3) and work at the top of thread w (6)
  assert.deepEqual(l20.contexts, [{ path: [2], count: 6, bytes: 96 }, { path: [1, 2], count: 3, bytes: 48 }]);
  const jdk = lines.find((l) => l.line === 1901)!;
  assert.equal(jdk.count, 14);
  assert.deepEqual(jdk.contexts.map((c) => c.path), [[1, 2], [1]]);
});

test('include filter, context limit, ranking', () => {
  const p = fixture();
  const app = totalsByLine(p, { include: (_s, m) => !isJdkClass(m.class), contexts: 1 });
  assert.equal(app.some((l) => l.source.startsWith('java/')), false);
  assert.equal(app.find((l) => l.line === 20)!.contexts.length, 1);
  const all = totalsByLine(p);
  assert.deepEqual(topLines(all, 'count', 2).map((l) => l.line), [1901, 20]);
  assert.deepEqual(topLines(all, 'bytes', 10).map((l) => l.line), [1901, 12, 20, 3]);
  assert.deepEqual(topLines(all, 'count', 0), []);
  const byBytes = totalsByLine(p, { metric: 'bytes' }).find((l) => l.line === 1901)!;
  assert.deepEqual(byBytes.contexts.map((c) => c.bytes), [320, 128]);
});
