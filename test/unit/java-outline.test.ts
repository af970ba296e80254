import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import { parseJavaOutline } from '../../extension/editor/java-outline';
import { descParams, OutlineMatcher, sourceMethodName } from '../../extension/editor/match';
import { JavaOutline, OutlineType, packageOfSource, typesByBinaryName } from '../../extension/editor/outline';
import { MethodEntry } from '../../core/profile/types';
import { dataFile } from './helpers';

function fixture(): JavaOutline {
  return parseJavaOutline(fs.readFileSync(dataFile('java/Outline.java'), 'utf8'));
}

/** `Outline$Inner: <init>(String)@52-54 …` with 1-based lines, for compact assertions. */
function describe(t: OutlineType, prefix = ''): string[] {
  const name = prefix ? `${prefix}$${t.name}` : t.name;
  const methods = t.methods.map((m) => `${m.name}(${(m.params ?? []).join(',')})@${m.span.start.line + 1}-${m.span.end.line + 1}`);
  return [`${name} ${t.kind} ${t.span.start.line + 1}-${t.span.end.line + 1}: ${methods.join(' ')}`, ...t.types.flatMap((k) => describe(k, name))];
}

test('outline: package, nested, anonymous and local types, overloads, constructors, initializers', () => {
  const o = fixture();
  assert.equal(o.package, 'com.acme.shapes');
  assert.equal(o.source, 'parser');
  assert.deepEqual(o.types.flatMap((t) => describe(t)), [
    'Outline class 9-106: <clinit>()@13-15 <init>()@17-19 <init>(int)@21-23 add(?)@25-27 add(String,int[])@29-32 add(Entry[],long[][])@34-42 copy(List)@44-46',
    'Outline$1 anonymous 35-40: get()@36-39',
    'Outline$Inner class 49-75: <init>(String)@52-54 describe()@56-58 describe(Inner)@60-62',
    'Outline$Inner$Deeper class 64-74: depth()@65-73',
    'Outline$Inner$Deeper$1 anonymous 66-70: run()@67-69',
    'Outline$Shape interface 77-83: area()@78-78 label()@80-82',
    'Outline$Kind enum 85-95: <init>()@88-90 lower()@92-94',
    'Outline$Point record 97-105: <init>(int,int)@98-100 scale(int)@102-104',
    'Helper class 108-118: help()@109-117',
    'Helper$1 anonymous 110-115: toString()@111-114',
  ]);
  const inner = typesByBinaryName(o).get('Outline$Inner')!;
  // the lens goes above the declaration; "reveal" selects the name
  assert.deepEqual(inner.methods[1].nameSpan, { start: { line: 55, character: 15 }, end: { line: 55, character: 23 } });
});

test('local classes are numbered per name, anonymous ones per enclosing class in source order', () => {
  const o = parseJavaOutline(`
class A {
  Object f = new Object() {};
  void m() {
    class Local { void x() { Runnable r = new Runnable() { public void run() {} }; } }
    Object o = new Object() { Object p = new Object() {}; };
  }
  void n() { class Local {} }
}`);
  assert.deepEqual([...typesByBinaryName(o).keys()], ['A', 'A$1', 'A$1Local', 'A$1Local$1', 'A$2', 'A$2$1', 'A$2Local']);
  assert.equal(o.package, '');
});

test('unparsable source throws (the caller keeps the last good outline)', () => {
  assert.throws(() => parseJavaOutline('class { void'));
});

test('descParams: simple names with dims', () => {
  assert.deepEqual(descParams('([Ljava/util/Map$Entry;[[JI)V'), ['Entry[]', 'long[][]', 'int']);
  assert.deepEqual(descParams('()V'), []);
  assert.deepEqual(descParams('(Ldemo/WordIndex$Entry;ZCBSFD)I'), ['Entry', 'boolean', 'char', 'byte', 'short', 'float', 'double']);
});

test('sourceMethodName: lambdas belong to their enclosing method', () => {
  assert.deepEqual(sourceMethodName('lambda$main$0'), { name: 'main', lambda: true });
  assert.deepEqual(sourceMethodName('lambda$new$3'), { name: '<init>', lambda: true });
  assert.deepEqual(sourceMethodName('lambda$static$1'), { name: '<clinit>', lambda: true });
  assert.deepEqual(sourceMethodName('run'), { name: 'run', lambda: false });
});

test('packageOfSource skips comments and annotations', () => {
  assert.equal(packageOfSource('/* x */\n// y\n@Deprecated\npackage  com.acme .x;\nclass A {}'), 'com.acme.x');
  assert.equal(packageOfSource('class A {}'), '');
});

// Every method javac 17 writes for the fixture (javap: class, name, descriptor, first line) → where it goes.
const COMPILED: Array<[string, string, string, number, string]> = [
  ['Outline', '<clinit>', '()V', 11, 'Outline#<clinit>@13'],
  ['Outline', '<init>', '()V', 18, 'Outline#<init>@17'],
  ['Outline', '<init>', '(I)V', 21, 'Outline#<init>@21'],
  ['Outline', 'add', '(Ljava/lang/Comparable;)V', 26, 'Outline#add@25'],
  ['Outline', 'add', '(Ljava/lang/String;[I)V', 30, 'Outline#add@29'],
  ['Outline', 'add', '([Ljava/util/Map$Entry;[[J)V', 35, 'Outline#add@34'],
  ['Outline', 'copy', '(Ljava/util/List;)Ljava/util/List;', 45, 'Outline#copy@44'],
  ['Outline', 'lambda$add$0', '(Ljava/lang/String;[I)V', 30, 'Outline#add@29'],
  ['Outline$1', '<init>', '(Lcom/acme/shapes/Outline;[Ljava/util/Map$Entry;)V', 35, 'Outline$1#type'],
  ['Outline$1', 'get', '()Ljava/lang/String;', 38, 'Outline$1#get@36'],
  ['Outline$1', 'get', '()Ljava/lang/Object;', 35, 'Outline$1#get@36'],
  ['Outline$Inner', '<init>', '(Ljava/lang/String;)V', 52, 'Outline$Inner#<init>@52'],
  ['Outline$Inner', 'describe', '()Ljava/lang/String;', 57, 'Outline$Inner#describe@56'],
  ['Outline$Inner', 'describe', '(Lcom/acme/shapes/Outline$Inner;)Ljava/lang/String;', 61, 'Outline$Inner#describe@60'],
  ['Outline$Inner$Deeper', '<init>', '(Lcom/acme/shapes/Outline$Inner;)V', 64, 'Outline$Inner$Deeper#type'],
  ['Outline$Inner$Deeper', 'depth', '()I', 66, 'Outline$Inner$Deeper#depth@65'],
  ['Outline$Inner$Deeper$1', 'run', '()V', 68, 'Outline$Inner$Deeper$1#run@67'],
  ['Outline$Kind', '<init>', '(Ljava/lang/String;I)V', 88, 'Outline$Kind#<init>@88'],
  ['Outline$Kind', 'values', '()[Lcom/acme/shapes/Outline$Kind;', 85, 'Outline$Kind#type'],
  ['Outline$Kind', 'lower', '()Ljava/lang/String;', 93, 'Outline$Kind#lower@92'],
  ['Outline$Point', '<init>', '(II)V', 98, 'Outline$Point#<init>@98'],
  ['Outline$Point', 'scale', '(I)Lcom/acme/shapes/Outline$Point;', 103, 'Outline$Point#scale@102'],
  ['Outline$Point', 'toString', '()Ljava/lang/String;', 97, 'Outline$Point#type'],
  ['Outline$Shape', 'label', '()Ljava/lang/String;', 81, 'Outline$Shape#label@80'],
  ['Helper', '<init>', '()V', 108, 'Helper#type'],
  ['Helper', 'help', '()V', 110, 'Helper#help@109'],
  ['Helper$1', 'toString', '()Ljava/lang/String;', 113, 'Helper$1#toString@111'],
  // an anonymous class the outline numbered differently: the enclosing type, by line
  ['Outline$7', 'run', '()V', 68, 'Outline$Inner$Deeper$1#run@67'],
];

test('profile methods match their declarations: overloads, synthetic parameters, lambdas, bridges, implicit members', () => {
  const matcher = new OutlineMatcher(fixture());
  COMPILED.forEach(([cls, name, desc, line, want], i) => {
    const m: MethodEntry = { id: i, class: `com.acme.shapes.${cls}`, name, desc, line, file: 'Outline.java', profiled: true };
    const t = matcher.match(m);
    assert.ok(t, `${cls}.${name}${desc} matches`);
    const got = t.method ? `${t.typeName}#${t.method.name}@${t.method.span.start.line + 1}` : `${t.typeName}#type`;
    assert.equal(got, want, `${cls}.${name}${desc}`);
  });
  assert.equal(matcher.match({ id: 99, class: 'com.other.Outline', name: 'x', desc: '()V', profiled: true }), undefined);
  assert.equal(matcher.match({ id: 99, class: 'com.acme.shapes.Elsewhere', name: 'x', desc: '()V', profiled: true }), undefined);
  assert.equal(matcher.declares('com.acme.shapes.Helper$1'), true);
});

test('without parameter types (a language server that gave none), arity and lines decide', () => {
  const o = fixture();
  for (const t of typesByBinaryName(o).values()) for (const m of t.methods) delete m.params;
  const matcher = new OutlineMatcher(o);
  const at = (name: string, desc: string, line?: number): number | undefined =>
    matcher.match({ id: 1, class: 'com.acme.shapes.Outline', name, desc, line, profiled: true })?.method?.span.start.line;
  assert.equal(at('add', '(Ljava/lang/String;[I)V', 30), 28);
  assert.equal(at('copy', '(Ljava/util/List;)Ljava/util/List;'), 43);
  assert.equal(at('add', '([Ljava/util/Map$Entry;[[J)V'), undefined, 'three overloads and no line: no guess');
});
