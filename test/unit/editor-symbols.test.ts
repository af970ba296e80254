import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { hotLineHover } from '../../extension/editor/hover-text';
import { OutlineMatcher } from '../../extension/editor/match';
import { Span, typesByBinaryName } from '../../extension/editor/outline';
import { isFocusRequest } from '../../extension/editor/refs';
import { outlineFromSymbols, simpleParam, SYMBOL_KIND, SymbolLike } from '../../extension/editor/symbols';
import { totals } from '../../core/views/aggregate';
import { totalsByLine } from '../../core/views/by-line';
import { loadProfile } from '../../core/profile/load';
import { dataFile, eachEqual } from './helpers';

const span = (a: number, b: number): Span => ({ start: { line: a, character: 4 }, end: { line: b, character: 5 } });
const sym = (name: string, kind: number, a: number, b: number, children?: SymbolLike[]): SymbolLike =>
  ({ name, kind, range: span(a, b), selectionRange: span(a, a), children });

// What Eclipse JDT LS answers for a file like test/unit/data/java/Outline.java (names as it writes them).
const JDT: SymbolLike[] = [
  sym('Outline<T extends Comparable<T>>', SYMBOL_KIND.Class, 8, 105, [
    sym('items', 7, 9, 9),
    sym('static {...}', SYMBOL_KIND.Method, 12, 14),
    sym('Outline()', SYMBOL_KIND.Constructor, 16, 18),
    sym('Outline(int)', SYMBOL_KIND.Constructor, 20, 22),
    sym('add(T)', SYMBOL_KIND.Method, 24, 26),
    sym('add(String, int...)', SYMBOL_KIND.Method, 28, 31),
    sym('add(Map.Entry<String, Integer>[], long[][])', SYMBOL_KIND.Method, 33, 41, [
      sym('new Supplier<String>() {...}', SYMBOL_KIND.Class, 34, 39, [sym('get()', SYMBOL_KIND.Method, 35, 38)]),
    ]),
    sym('Inner', SYMBOL_KIND.Class, 48, 74, [
      sym('Inner(String)', SYMBOL_KIND.Constructor, 51, 53),
      sym('describe()', SYMBOL_KIND.Method, 55, 57),
      sym('describe(Inner)', SYMBOL_KIND.Method, 59, 61),
    ]),
    sym('Kind', SYMBOL_KIND.Enum, 84, 94, [sym('Kind()', SYMBOL_KIND.Constructor, 87, 89)]),
  ]),
];

test('simpleParam: generics, qualified names, varargs, type variables, names', () => {
  eachEqual(simpleParam, [
    ['Map.Entry<String, Integer>[]', 'Entry[]'],
    ['int...', 'int[]'],
    ['T', '?'],
    ['final @NonNull String name', 'String'],
    ['long[][]', 'long[][]'],
  ]);
});

test('document symbols → outline → matching', () => {
  const o = outlineFromSymbols(JDT, 'package com.acme.shapes;\nclass Outline {}')!;
  assert.equal(o.source, 'symbols');
  assert.equal(o.package, 'com.acme.shapes');
  const types = typesByBinaryName(o);
  assert.deepEqual([...types.keys()], ['Outline', 'Outline$1', 'Outline$Inner', 'Outline$Kind']);
  assert.deepEqual(types.get('Outline')!.methods.map((m) => `${m.name}(${m.params!.join(',')})`),
    ['<clinit>()', '<init>()', '<init>(int)', 'add(?)', 'add(String,int[])', 'add(Entry[],long[][])']);
  const m = new OutlineMatcher(o);
  const at = (cls: string, name: string, desc: string): number | undefined =>
    m.match({ id: 1, class: `com.acme.shapes.${cls}`, name, desc, profiled: true })?.method?.span.start.line;
  assert.equal(at('Outline', 'add', '([Ljava/util/Map$Entry;[[J)V'), 33);
  assert.equal(at('Outline', 'add', '(Ljava/lang/Comparable;)V'), 24);
  assert.equal(at('Outline$1', 'get', '()Ljava/lang/String;'), 35);
  assert.equal(at('Outline$Kind', '<init>', '(Ljava/lang/String;I)V'), 87);
  assert.equal(outlineFromSymbols([], ''), undefined);
  assert.equal(outlineFromSymbols([sym('x', 13, 0, 0)], ''), undefined, 'no type: no outline (fall back to the parser)');
});

test('hot line hover: types, contexts with focus links', () => {
  const p = loadProfile(dataFile('wordindex.heaplens'));
  const line = totalsByLine(p).find((l) => l.source === 'demo/WordIndex.java' && l.line === 79)!;
  const md = hotLineHover({ profile: p, line, rank: 1, of: 10, total: totals(p), sourceLabel: 'demo.heaplens', source: { kind: 'file', file: '/x/demo.heaplens' } });
  assert.match(md, /^\*\*HeapLens\*\* · hot allocation line 1 of 10 · demo\\\.heaplens/);
  assert.match(md, /\| `demo\.WordIndex\$Entry` \| 9,693 \|  \| 227 KiB \|/);
  assert.match(md, /1\. \[WordIndex\\\.main › WordIndex\\\.top\]\(command:heaplens\.focusMethod\?/);
  const link = /\(command:heaplens\.focusMethod\?([^ )]+)/.exec(md)![1];
  const [req] = JSON.parse(decodeURIComponent(link)) as unknown[];
  assert.ok(isFocusRequest(req));
  assert.deepEqual(req.frames.map((f) => f.method), ['top']);
  assert.deepEqual(req.path!.map((f) => f.method), ['main', 'top']);
  assert.equal(req.line, 79);
  assert.equal(isFocusRequest({ source: {}, frames: [] }), false);
  assert.doesNotMatch(md, /account/, 'no accounts in this profile: no account in the hover');
  // with memory accounts (exact mode: derived from the call tree), each context names the account it is charged to
  const withAccounts = { ...p, file: { ...p.file, accounts: { mode: 'exact', names: ['(unaccounted)', 'demo'], liveness: { kind: 'off', every: 1 }, snapshots: [] } } };
  const md2 = hotLineHover({ profile: withAccounts as typeof p, line, rank: 1, of: 10, total: totals(p), sourceLabel: 'demo.heaplens', source: { kind: 'file', file: '/x/demo.heaplens' } });
  assert.match(md2, /1\. \[WordIndex\\\.main › WordIndex\\\.top\]\(command:[^\n]* · account `demo`/);
});
