import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { collapsed, collapsedText } from '../../core/export/collapsed';
import { loadProfile } from '../../core/profile/load';
import { dataFile, profileOf } from './helpers';

const p = loadProfile(dataFile('sample.heaplens'));

test('objects: non-array types, identical stacks summed across threads', () => {
  assert.deepEqual(collapsed(p, { metric: 'objects', threads: false }), [
    'com.acme.Main.main;com.acme.Outer$Inner 2',
    'com.acme.Main.main;com.acme.Outer$Inner.run;java.lang.String 3',
    'com.acme.Main.main;java.lang.Integer 5',
    'com.acme.Outer$Inner.run;java.lang.String 3',
  ]);
});

test('arrays and elements: array types only; records on the root have no method frame', () => {
  assert.deepEqual(collapsed(p, { metric: 'arrays', threads: false }), [
    'com.acme.Main.main;com.acme.Outer$Inner.run;byte[] 3',
    'com.acme.Main.main;com.acme.Util.grid;int[] 2',
    'com.acme.Main.main;com.acme.Util.grid;int[][] 1',
    'com.acme.Outer$Inner.run;byte[] 1',
    'java.lang.Object[] 1',
  ]);
  assert.deepEqual(collapsed(p, { metric: 'elements', threads: false }), [
    'com.acme.Main.main;com.acme.Outer$Inner.run;byte[] 30',
    'com.acme.Main.main;com.acme.Util.grid;int[] 6',
    'com.acme.Main.main;com.acme.Util.grid;int[][] 2',
    'com.acme.Outer$Inner.run;byte[] 10',
    'java.lang.Object[] 3',
  ]);
});

test('bytes: every record', () => {
  assert.deepEqual(collapsed(p, { metric: 'bytes', threads: false }), [
    'com.acme.Main.main;com.acme.Outer$Inner 32',
    'com.acme.Main.main;com.acme.Outer$Inner.run;byte[] 96',
    'com.acme.Main.main;com.acme.Outer$Inner.run;java.lang.String 72',
    'com.acme.Main.main;com.acme.Util.grid;int[] 64',
    'com.acme.Main.main;com.acme.Util.grid;int[][] 24',
    'com.acme.Main.main;java.lang.Integer 80',
    'com.acme.Outer$Inner.run;byte[] 32',
    'com.acme.Outer$Inner.run;java.lang.String 72',
    'java.lang.Object[] 32',
  ]);
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
