import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { collapsed, collapsedText } from '../../core/export/collapsed';
import { loadProfile } from '../../core/profile/load';
import { dataFile, profileOf } from './helpers';

const p = loadProfile(dataFile('sample.heaplens'));

// sample.heaplens' stacks summed across threads, and what each holds: objects, arrays, elements, bytes (0: none of
// that metric; a stack appears in a metric's output only when it has some)
const STACKS: Array<[stack: string, objects: number, arrays: number, elements: number, bytes: number]> = [
  ['com.acme.Main.main;com.acme.Outer$Inner', 2, 0, 0, 32],
  ['com.acme.Main.main;com.acme.Outer$Inner.run;byte[]', 0, 3, 30, 96],
  ['com.acme.Main.main;com.acme.Outer$Inner.run;java.lang.String', 3, 0, 0, 72],
  ['com.acme.Main.main;com.acme.Util.grid;int[]', 0, 2, 6, 64],
  ['com.acme.Main.main;com.acme.Util.grid;int[][]', 0, 1, 2, 24],
  ['com.acme.Main.main;java.lang.Integer', 5, 0, 0, 80],
  ['com.acme.Outer$Inner.run;byte[]', 0, 1, 10, 32],
  ['com.acme.Outer$Inner.run;java.lang.String', 3, 0, 0, 72],
  ['java.lang.Object[]', 0, 1, 3, 32],
];
const METRICS = ['objects', 'arrays', 'elements', 'bytes'] as const;
const expected = (metric: typeof METRICS[number]): string[] => {
  const i = METRICS.indexOf(metric) + 1;
  return STACKS.filter((r) => (r[i] as number) > 0).map((r) => `${r[0]} ${r[i]}`);
};

test('objects: non-array types, identical stacks summed across threads', () => {
  assert.deepEqual(collapsed(p, { metric: 'objects', threads: false }), expected('objects'));
});

test('arrays and elements: array types only; records on the root have no method frame', () => {
  assert.deepEqual(collapsed(p, { metric: 'arrays', threads: false }), expected('arrays'));
  assert.deepEqual(collapsed(p, { metric: 'elements', threads: false }), expected('elements'));
});

test('bytes: every record', () => {
  assert.deepEqual(collapsed(p, { metric: 'bytes', threads: false }), expected('bytes'));
});

test('threads: the first frame names the thread', () => {
  assert.deepEqual(collapsed(p, { metric: 'objects', threads: true }), [
    'thread:main;com.acme.Main.main;com.acme.Outer$Inner 2',
    'thread:main;com.acme.Main.main;com.acme.Outer$Inner.run;java.lang.String 3',
    'thread:main;com.acme.Main.main;java.lang.Integer 5',
    'thread:worker-1;com.acme.Outer$Inner.run;java.lang.String 1',
    'thread:worker-2;com.acme.Outer$Inner.run;java.lang.String 2',
  ]);
  assert.deepEqual(collapsed(p, { metric: 'arrays', threads: true }).filter((l) => !l.includes('com.acme')), [
    'thread:main;java.lang.Object[] 1',
  ]);
});

test('text form ends with a newline; zero counts and empty profiles give nothing', () => {
  assert.equal(collapsedText(p, { metric: 'objects', threads: false }).split('\n').length, 5);
  const empty = profileOf({
    types: [{ id: 1, name: 'int[]', array: true, size: null, elementSize: 4, elementCode: 'I' }],
    methods: [{ id: 1, class: 'a.B', name: 'c', desc: '()V', profiled: true }],
    sites: [{ id: 1, method: 1, bci: 0, kind: 'newarray', type: 1 }],
    threads: [{ id: 1, name: 'odd;name', daemon: false, alive: true, root: { c: [{ m: 1, calls: 1, a: [[1, 1, 2, 0, 32]] }] } }],
  });
  assert.equal(collapsedText(empty, { metric: 'objects', threads: false }), '');
  assert.deepEqual(collapsed(empty, { metric: 'elements', threads: true }), []);
  assert.deepEqual(collapsed(empty, { metric: 'arrays', threads: true }), ['thread:odd_name;a.B.c;int[] 2']);
});
