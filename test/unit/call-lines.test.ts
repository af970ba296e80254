// Allocations made inside JDK calls, charged to the line of the call (the AllocRecord's line and callee,
// docs/format.md): hot lines, the "inside" breakdown, `--format lines` rows, the site table, pprof caller lines,
// merging and loading.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { hotLines, linesTsv } from '../../core/views/by-line';
import { mergeThreads } from '../../core/profile/mct';
import { validateProfile } from '../../core/profile/parse';
import { pprofOf } from '../../core/export/pprof';
import { siteTable, siteWhere } from '../../core/views/site-table';
import { frameTree } from '../../core/views/frames';
import { Profile } from '../../core/profile/types';
import { arrType, fileOf, method, objType, profileOf } from './helpers';

// app.Main.parse (Main.java) calls String.split on line 40 (callee 3) and allocates a Row on line 41; split's
// JDK sites are in String.split (ArrayList, line 3124) and Arrays.copyOfRange (byte[], line 3822).
function tables() {
  return {
    types: [objType(1, 'java.util.ArrayList', 24), arrType(2, 'byte[]', 'B', 1), objType(3, 'app.Main$Row', 16)],
    methods: [
      method(1, 'app.Main', 'main', { file: 'Main.java' }),
      method(2, 'app.Main', 'parse', { file: 'Main.java' }),
      method(3, 'java.lang.String', 'split', { file: 'String.java', profiled: false }),
      method(4, 'java.util.Arrays', 'copyOfRange', { file: 'Arrays.java', profiled: false }),
    ],
    sites: [
      { id: 1, method: 3, bci: 4, line: 3124, kind: 'new' as const, type: 1 },
      { id: 2, method: 4, bci: 9, line: 3822, kind: 'newarray' as const, type: 2 },
      { id: 3, method: 2, bci: 12, line: 41, kind: 'new' as const, type: 3 },
    ],
    threads: [
      { id: 1, name: 'main', daemon: false, alive: false, root: { c: [{ m: 1, calls: 1, c: [{
        m: 2, calls: 10, line: 30, a: [[1, 1, 10, 0, 240, 40, 3], [2, 2, 30, 60, 720, 40, 3], [3, 3, 10, 0, 160]],
      }] }] } },
      { id: 2, name: 'w', daemon: false, alive: false, root: { c: [{ m: 2, calls: 1, a: [[2, 2, 3, 6, 72, 40, 3]] }] } },
    ],
  };
}

function profile(): Profile {
  return profileOf(tables() as Parameters<typeof profileOf>[0]);
}

test('a JDK call\'s allocations land on the calling line, with what the callee made one level down', () => {
  const lines = hotLines(profile(), { scope: 'application', metric: 'count', limit: 10 });
  assert.deepEqual(lines.map((l) => [l.source, l.line, l.count, l.totals.bytes]), [
    ['app/Main.java', 40, 43, 1032],
    ['app/Main.java', 41, 10, 160],
  ]);
  assert.deepEqual(lines[0].inside.map((i) => [i.method, i.count, i.types.map((t) => `${t.type.name} ${t.count}`)]), [
    [3, 43, ['byte[] 33', 'java.util.ArrayList 10']],
  ]);
  assert.deepEqual(lines[1].inside, []);
  // the JDK lines themselves only with scope 'all', and then not the String/Arrays lines: those records are the line's
  assert.deepEqual(hotLines(profile(), { scope: 'all', metric: 'count', limit: 10 }).map((l) => l.line), [40, 41]);
});

test('--format lines: TSV with the header, hottest first, by bytes on request', () => {
  const p = profile();
  assert.equal(linesTsv(p, hotLines(p, { scope: 'application', metric: 'count', limit: 10 })),
    'file\tline\tmethod\tallocations\tbytes\napp/Main.java\t40\tapp.Main.parse\t43\t1032\napp/Main.java\t41\tapp.Main.parse\t10\t160\n');
  assert.equal(linesTsv(p, hotLines(p, { scope: 'application', metric: 'bytes', limit: 1 })),
    'file\tline\tmethod\tallocations\tbytes\napp/Main.java\t40\tapp.Main.parse\t43\t1032\n');
});

test('threads merge records by site, type, line and callee; the node keeps its line', () => {
  const merged = mergeThreads(profile());
  const parse = merged.c!.find((n) => n.m === 2)!;
  assert.deepEqual(parse.a, [[2, 2, 3, 6, 72, 40, 3]]);
  const deep = merged.c!.find((n) => n.m === 1)!.c![0];
  assert.equal(deep.line, 30);
  assert.deepEqual(deep.a, [[1, 1, 10, 0, 240, 40, 3], [2, 2, 30, 60, 720, 40, 3], [3, 3, 10, 0, 160]]);
});

test('the site table names the calling line and the call: Main.parse:40 › String.split › Arrays.copyOfRange:3822', () => {
  const p = profile();
  const tree = frameTree(mergeThreads(p), p.methods, p.types);
  const rows = siteTable({ tree, types: p.types, sites: p.sites, methods: p.methods }, 'count');
  assert.deepEqual(rows.map((r) => [siteWhere(r, p.methods), r.count]), [
    ['Main.parse:40 › String.split › Arrays.copyOfRange:3822', 30],
    ['Main.parse:40 › String.split:3124', 10],
    ['Main.parse:41', 10],
    ['Main.parse:40 › String.split › Arrays.copyOfRange:3822', 3],
  ]);
  // the traces' lines: main at its call of parse (the node's line 30), parse at the line charged
  assert.deepEqual(rows.map((r) => r.traceLines), [[30, 40], [30, 40], [30, 41], [40]]);
});

test('pprof: the caller frame at the line of its call, the innermost frame at the line of the JDK call', () => {
  const p = profile();
  const pp = pprofOf(p);
  const str = (i: number | bigint): string => pp.stringTable.strings[Number(i)];
  const fnName = new Map(pp.function.map((f) => [Number(f.id), str(f.name)]));
  const stacks = pp.sample.map((s) => s.locationId.map((id) => {
    const loc = pp.location.find((l) => Number(l.id) === Number(id))!;
    return `${fnName.get(Number(loc.line[0].functionId))}:${loc.line[0].line}`;
  }).join(' < '));
  assert.ok(stacks.includes('new byte[]:0 < java.util.Arrays.copyOfRange:3822 < app.Main.parse:40 < app.Main.main:30'), stacks.join('\n'));
  assert.ok(stacks.includes('new app.Main$Row:0 < app.Main.parse:41 < app.Main.main:30'), stacks.join('\n'));
});

test('loading: records of 5, 6 or 7 numbers; a callee not in "methods" is refused', () => {
  const t = tables();
  assert.doesNotThrow(() => validateProfile(JSON.parse(JSON.stringify(fileOf(t as Parameters<typeof fileOf>[0])))));
  const bad = JSON.parse(JSON.stringify(fileOf(t as Parameters<typeof fileOf>[0])));
  bad.threads[1].root.c[0].a[0][6] = 99;
  assert.throws(() => validateProfile(bad), /names callee method 99, which is not in "methods"/);
  const long = JSON.parse(JSON.stringify(fileOf(t as Parameters<typeof fileOf>[0])));
  long.threads[1].root.c[0].a[0].push(1);
  assert.throws(() => validateProfile(long), /expected \[site, type, count, elements, bytes\] and an optional line and callee/);
});
