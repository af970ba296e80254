// Format version 2 (docs/format.md, Node `line`): a node's call line is written only where it changes for the pair
// (parent's method, method). Both readers (the model's, core/profile/parse.ts with version2.ts, and the load worker's
// fast reader, webview/load/flat-parse.ts) must read a version 2 file as the version 1 file of the same profile.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseProfile } from '../../core/profile/parse';
import { MctNode, ProfileFile } from '../../core/profile/types';
import { parseFlat } from '../../webview/load/flat-parse';
import { METHODS, SITES, TYPES } from './views-fixture';

function file(version: number, roots: MctNode[]): ProfileFile {
  return {
    format: 'heaplens-profile', version,
    meta: { agentVersion: 't', mode: 'exact', pid: 1, command: 't', jvmArgs: [], startTime: 0, writeTime: 1, final: true, sequence: 1, options: {} },
    types: TYPES, methods: METHODS, sites: SITES,
    threads: roots.map((root, i) => ({ id: i + 1, name: `t${i + 1}`, daemon: false, alive: false, root })),
    transform: { failures: [], warnings: [] }, agent: {},
  } as unknown as ProfileFile;
}

/**
 * main (1) calls load (2) on line 11 twice in two contexts, parse (3) on line 12, then on line 13; load calls parse
 * on line 21, and (recursion) load on line 22, whose own load call has no line; a second thread repeats main → load.
 * Version 1 writes every line; version 2 only the changes, "line": -1 for "none".
 */
const V1: MctNode[] = [
  {
    c: [{
      m: 1, calls: 1, a: [[1, 1, 2, 0, 32]], c: [
        { line: 11, m: 2, calls: 3, c: [
          { line: 21, m: 3, calls: 4, a: [[3, 1, 4, 0, 64]] },
          { line: 22, m: 2, calls: 2, c: [{ m: 2, calls: 1 }, { line: 21, m: 3, calls: 1 }] },
        ] },
        { line: 12, m: 3, calls: 5 },
        { line: 13, m: 4, calls: 1, c: [{ line: 40, m: 2, calls: 1, c: [{ line: 21, m: 3, calls: 7 }] }] },
      ],
    }],
  },
  { c: [{ m: 1, calls: 2, c: [{ line: 11, m: 2, calls: 6 }, { line: 13, m: 3, calls: 1 }] }] },
];
const V2: MctNode[] = [
  {
    c: [{
      m: 1, calls: 1, a: [[1, 1, 2, 0, 32]], c: [
        { line: 11, m: 2, calls: 3, c: [
          { line: 21, m: 3, calls: 4, a: [[3, 1, 4, 0, 64]] },
          { line: 22, m: 2, calls: 2, c: [{ line: -1, m: 2, calls: 1 }, { m: 3, calls: 1 }] },
        ] },
        { line: 12, m: 3, calls: 5 },
        { line: 13, m: 4, calls: 1, c: [{ line: 40, m: 2, calls: 1, c: [{ m: 3, calls: 7 }] }] },
      ],
    }],
  },
  { c: [{ m: 1, calls: 2, c: [{ m: 2, calls: 6 }, { line: 13, m: 3, calls: 1 }] }] },
];

test('version 2: the model reads the call lines version 1 writes', () => {
  const two = parseProfile(JSON.stringify(file(2, V2)));
  const one = parseProfile(JSON.stringify(file(1, V1)));
  assert.deepEqual(two.threads.map((t) => t.root), V1);
  assert.deepEqual(one.threads.map((t) => t.root), V1);
  assert.equal(two.fileVersion, 2);
  assert.equal(two.file.version, 1, 'expanded: the shape of version 1, so reading it again changes nothing');
  assert.deepEqual(parseProfile(JSON.stringify(two.file)).threads.map((t) => t.root), V1);
  assert.equal(one.fileVersion, 1);
});

test('version 2: the fast reader reads the call lines version 1 writes', () => {
  // raw nodes in file order: t1 root, main, load, parse, load, load, parse, parse, main-line-13 helper, load, parse;
  // t2 root, main, load, parse
  const lines = [0, 0, 11, 21, 22, 0, 21, 12, 13, 40, 21, 0, 0, 11, 13];
  const two = parseFlat(JSON.stringify(file(2, V2)))!;
  const one = parseFlat(JSON.stringify(file(1, V1)))!;
  assert.deepEqual(two.raw.line, lines);
  assert.deepEqual(one.raw.line, lines);
  assert.deepEqual(two.raw.calls, [0, 1, 3, 4, 2, 1, 1, 5, 1, 1, 7, 0, 2, 6, 1]);
  assert.deepEqual(two.raw.m, one.raw.m);
  assert.equal(two.light.version, 1);
});

test('version 2: the fast reader leaves a file whose trees come before its version to JSON.parse', () => {
  const f = file(2, V2) as unknown as Record<string, unknown>;
  const { version, ...rest } = f;
  assert.equal(parseFlat(JSON.stringify({ ...rest, version })), undefined);
  assert.ok(parseFlat(JSON.stringify({ version: 1, ...rest })));
});
