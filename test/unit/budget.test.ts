// Budget files: validation, what each selector measures, ignore kinds, --update edits, reports and JUnit XML.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { METRICS } from '../../core/views/aggregate';
import { annotateBudget } from '../../core/budget/budget-annotate';
import { BudgetRule, IGNORE_KINDS, parseBudget, RULE_FIELDS, TOP_FIELDS } from '../../core/budget/budget';
import { elementMatches, evaluateBudget, globRegExp, measureRule } from '../../core/budget/budget-measure';
import { checkJUnit, checkText, xmlEscape } from '../../extension/cli/budget-report';
import { parseMargin, updateBudgetText, withMargin } from '../../core/budget/budget-update';
import { loadProfile } from '../../core/profile/load';
import { MctNode } from '../../core/profile/types';
import { arrType, dataFile, method, objType, profileOf, repoRoot, site } from './helpers';
import { findAll, parseXml } from './support/xml';

const FIXTURE_BUDGET = path.join(repoRoot(), 'test', 'fixtures', 'java', 'budget', 'budget.heaplens-budget.json');
const base = loadProfile(dataFile('budget-base.heaplens'));
const copy = loadProfile(dataFile('budget-copy.heaplens'));

test('budget files: what is refused, with the rule and field named', () => {
  const bad = (doc: unknown, msg: RegExp): void => assert.throws(() => parseBudget(JSON.stringify(doc)), msg);
  bad([], /a JSON object with a "rules" array/);
  bad({ rules: [], extra: 1 }, /unknown top-level field "extra"/);
  bad({ version: 2, rules: [] }, /"version" 2 is not supported/);
  bad({ rules: [{ method: 'a.B.c' }] }, /rule 1: "metric" must be one of objects, arrays, elements, bytes/);
  bad({ rules: [{ id: 'x', method: 'a.B.c', metric: 'objects', maxx: 3 }] }, /rule 1 \("x"\): unknown field "maxx"/);
  bad({ rules: [{ metric: 'objects' }] }, /say what it measures/);
  bad({ rules: [{ total: true, thread: 'main', metric: 'objects' }] }, /"total" cannot be combined with "thread"/);
  bad({ rules: [{ total: false, metric: 'objects' }] }, /"total" must be true/);
  bad({ rules: [{ type: 'int[]', metric: 'objects' }] }, /int\[\] is an array type/);
  bad({ rules: [{ elementType: 'C', metric: 'objects' }] }, /"elementType" selects arrays/);
  bad({ rules: [{ under: 'com/acme', metric: 'objects' }] }, /not a package pattern/);
  bad({ rules: [{ total: true, metric: 'bytes', max: 1.5 }] }, /"max" must be a whole number/);
  bad({ rules: [{ total: true, metric: 'bytes', ignore: ['jit'] }] }, /unknown kind "jit"/);
  bad({ rules: [{ id: 'a', total: true, metric: 'bytes' }, { id: 'a', total: true, metric: 'objects' }] }, /rule 2: the id "a" is used twice/);
  bad({ rules: ['a.B.c'] }, /rule 1 must be an object/);
  bad({ rules: [{ id: '', total: true, metric: 'bytes' }] }, /rule 1 \(""\): "id" must be a non-empty string/);
  bad({ rules: [{ under: [], metric: 'bytes' }] }, /rule 1: "under" must be a package pattern or a non-empty array of them/);
  bad({ rules: [{ under: ['com.acme.*', 'a b'], metric: 'bytes' }] }, /rule 1: "under" pattern "a b" is not a package pattern/);
  bad({ ignore: ['jdk-frames', 'x'], rules: [] }, /^BudgetError: "ignore": unknown kind "x"/);
  bad({ rules: {} }, /"rules" must be an array/);
  assert.throws(() => parseBudget('{"rules": ['), /^BudgetError: not JSON/);
  const ok = parseBudget(JSON.stringify({ $schema: 'x', rules: [{ under: ['com.acme.*', 'org.x'], metric: 'objects', max: 3 }] }));
  assert.deepEqual(ok.rules[0], { index: 0, metric: 'objects', under: ['com.acme.*', 'org.x'], max: 3 });
  assert.deepEqual(ok.ignore, []);
});

test('the JSON schema lists the same fields, metrics and ignore kinds as the validator', () => {
  const schema = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'schemas', 'heaplens-budget.schema.json'), 'utf8'));
  assert.deepEqual(Object.keys(schema.properties).sort(), [...TOP_FIELDS].sort());
  assert.deepEqual(Object.keys(schema.definitions.rule.properties).sort(), [...RULE_FIELDS].sort());
  assert.deepEqual([...schema.definitions.metric.enum].sort(), [...METRICS].sort());
  assert.deepEqual(schema.definitions.ignore.items.enum, IGNORE_KINDS);
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8'));
  assert.deepEqual(pkg.contributes.jsonValidation, [
    { fileMatch: ['*.heaplens-budget.json', 'heaplens-budgets.json'], url: './schemas/heaplens-budget.schema.json' },
  ]);
});

test('globs and element types', () => {
  assert.ok(globRegExp('com.acme.*').test('com.acme.x.Y'));
  assert.ok(!globRegExp('com.acme.*').test('com.acmeX'));
  assert.ok(globRegExp('java.util.HashMap$Node').test('java.util.HashMap$Node'));
  assert.ok(globRegExp('*[]').test('int[][]'));
  const chars = arrType(1, 'char[]', 'C', 2);
  const strings = arrType(2, 'java.lang.String[]', 'R', 4);
  assert.ok(elementMatches(chars, 'C') && elementMatches(chars, 'char') && !elementMatches(chars, 'R'));
  assert.ok(elementMatches(strings, 'R') && elementMatches(strings, 'java.lang.String') && elementMatches(strings, 'reference'));
  assert.ok(!elementMatches(objType(3, 'java.lang.String', 24), 'java.lang.String'));
});

// main -> app.Top.run -> app.Top.run (recursion) -> lib.Util.help; main -> ClassLoader.loadClass;
// a JDK <clinit> site charged to run; a worker thread.
function small() {
  const types = [objType(1, 'java.lang.String', 24), objType(2, 'app.Thing', 16), arrType(3, 'char[]', 'C', 2), arrType(4, 'java.lang.Object[]', 'R', 4)];
  const methods = [
    method(1, 'app.Main', 'main'), method(2, 'app.Top', 'run'), method(3, 'lib.Util', 'help'),
    method(4, 'java.lang.ClassLoader', 'loadClass', { desc: '(Ljava/lang/String;)Ljava/lang/Class;' }),
    method(5, 'java.lang.Integer$IntegerCache', '<clinit>', { profiled: false }), method(6, 'app.W', 'work'),
  ];
  const sites = [site(1, 2, 2), site(2, 3, 1), site(3, 3, 3), site(4, 4, 1), site(5, 5, 4), site(6, 6, 2), site(7, 1, 1)];
  const run2: MctNode = { m: 2, calls: 1, a: [[1, 2, 10, 0, 160]], c: [{ m: 3, calls: 2, a: [[2, 1, 5, 0, 120], [3, 3, 5, 50, 180]] }] };
  const main: MctNode = {
    a: [[7, 1, 1, 0, 24]], // before main: the thread's root
    c: [{
      m: 1, calls: 1, a: [[7, 1, 2, 0, 48]], c: [
        { m: 2, calls: 1, a: [[1, 2, 3, 0, 48], [5, 4, 1, 256, 1040]], c: [run2, { m: 3, calls: 1, a: [[2, 1, 7, 0, 168]] }] },
        { m: 4, calls: 1, a: [[4, 1, 4, 0, 96]] },
      ],
    }],
  };
  const worker: MctNode = { c: [{ m: 6, calls: 1, a: [[6, 2, 20, 0, 320]] }] };
  return profileOf({
    types, methods, sites, threads: [
      { id: 1, name: 'main', daemon: false, alive: false, root: main },
      { id: 2, name: 'worker-1', daemon: false, alive: false, root: worker },
    ],
  });
}

test('what a rule measures: method inclusive (recursion once), under, type, elementType, thread, total', () => {
  const p = small();
  const m = (r: Partial<BudgetRule>, ignore: string[] = []) => measureRule(p, { index: 0, metric: 'objects', ...r } as BudgetRule, new Set(ignore as never[]));
  assert.deepEqual(m({ method: 'app.Top.run' }), { value: 3 + 10 + 5 + 7, found: true }, 'run and its callees, the recursive run once');
  assert.deepEqual(m({ method: 'app.Top.run', metric: 'elements' }), { value: 50 + 256, found: true });
  assert.deepEqual(m({ method: 'lib.Util.help' }), { value: 12, found: true }, 'help in both contexts');
  assert.deepEqual(m({ method: 'app.Top.run()V' }), { value: 25, found: true }, 'with descriptor');
  assert.deepEqual(m({ method: 'app.Top.run(I)V' }), { value: 0, found: false });
  assert.deepEqual(m({ method: 'app.Nope.*' }), { value: 0, found: false });
  assert.deepEqual(m({ under: ['lib'] }), { value: 12, found: true });
  assert.deepEqual(m({ under: ['app.*'] }), { value: 2 + 25 + 4 + 20, found: true }, 'below app frames: main, run, help, loadClass, worker');
  assert.deepEqual(m({ type: 'java.lang.String', under: ['app.*'] }), { value: 2 + 12 + 4, found: true });
  assert.deepEqual(m({ type: 'java.lang.String' }), { value: 1 + 2 + 12 + 4, found: true }, 'the root record counts without a frame selector');
  assert.deepEqual(m({ type: 'java.lang.*' }), { value: 19, found: true });
  assert.deepEqual(m({ elementType: 'C', metric: 'elements' }), { value: 50, found: true });
  assert.deepEqual(m({ elementType: 'R', metric: 'arrays' }), { value: 1, found: true });
  assert.deepEqual(m({ thread: 'worker-*' }), { value: 20, found: true });
  assert.deepEqual(m({ thread: 'nobody' }), { value: 0, found: false });
  assert.deepEqual(m({ total: true }), { value: 1 + 2 + 25 + 4 + 20, found: true });
  assert.deepEqual(m({ total: true, metric: 'bytes' }), { value: 24 + 48 + 48 + 1040 + 160 + 120 + 180 + 168 + 96 + 320, found: true });
  // ignore kinds
  assert.deepEqual(m({ total: true }, ['jdk-frames']), { value: 1 + 2 + 25 + 20, found: true }, 'class loading left out');
  assert.deepEqual(m({ method: 'app.Top.run', metric: 'arrays' }, ['jdk-class-init']), { value: 5, found: true }, 'the IntegerCache array left out');
  assert.deepEqual(m({ method: 'app.Top.run', metric: 'arrays' }), { value: 6, found: true });
});

test('the committed fixture budget: met by the base profile, four rules exceeded by the copy variant', () => {
  const budget = parseBudget(fs.readFileSync(FIXTURE_BUDGET, 'utf8'));
  assert.deepEqual(budget.ignore, ['jdk-frames', 'jdk-class-init']);
  const ok = evaluateBudget(base, budget);
  assert.deepEqual(ok.map((r) => [r.name, r.value, r.verdict]), [
    ['parse-objects', 1001, 'ok'], ['tokens', 500, 'ok'], ['strings-in-app', 404, 'ok'],
    ['char-elements', 2804, 'ok'], ['indexer-thread', 19, 'ok'], ['total-objects', 1040, 'ok'],
  ]);
  const bad = evaluateBudget(copy, budget);
  assert.deepEqual(bad.map((r) => [r.name, r.value, r.verdict]), [
    ['parse-objects', 1401, 'exceeded'], ['tokens', 500, 'ok'], ['strings-in-app', 804, 'exceeded'],
    ['char-elements', 4708, 'exceeded'], ['indexer-thread', 19, 'ok'], ['total-objects', 1440, 'exceeded'],
  ]);
  // without the ignore kinds the total includes class loading and linkage
  assert.equal(evaluateBudget(base, { ...budget, ignore: [] })[5].value, 2953);
  assert.equal(evaluateBudget(base, { ...budget, ignore: [] }, ['jdk-frames', 'jdk-class-init'])[5].value, 1040, 'the command line adds kinds');
});

test('check text: each rule with measured value, limit and verdict; the failures explained', () => {
  const budget = parseBudget(fs.readFileSync(FIXTURE_BUDGET, 'utf8'));
  const info = { profile: 'copy.heaplens', budget: 'budget.json', jvm: 'OpenJDK 17', ignore: budget.ignore };
  const lines = checkText(evaluateBudget(copy, budget), info).split('\n');
  assert.deepEqual(lines.slice(0, 6), [
    'HeapLens budget check: copy.heaplens (OpenJDK 17) against budget.json',
    'left out (ignore): jdk-frames, jdk-class-init',
    '',
    'rule            measures                              metric    measured  limit  verdict',
    '--------------  ------------------------------------  --------  --------  -----  -------------------------',
    'parse-objects   method budget.Parser.parse            objects      1,401  1,001  EXCEEDED (+400, +40.0%)',
  ]);
  assert.equal(lines[6], 'tokens          type budget.Token                     objects        500    500  ok');
  assert.ok(lines.includes('4 of 6 budgets failed:'));
  assert.ok(lines.includes('  char-elements: array elements 4,708 exceed the budget of 2,804 (+1,904, +67.9%)'));
  assert.match(checkText(evaluateBudget(base, budget), info), /\nAll 6 budgets met\.\n$/);
});

test('missing selectors and rules without max fail with a message saying why', () => {
  const budget = parseBudget(JSON.stringify({ rules: [
    { id: 'renamed', method: 'budget.Parser.parseAll', metric: 'objects', max: 10 },
    { id: 'new', type: 'budget.Token', metric: 'objects' },
    { type: 'budget.Token', metric: 'bytes', max: 1, ignore: [] },
  ] }));
  const r = evaluateBudget(base, budget);
  assert.deepEqual(r.map((x) => [x.name, x.verdict]), [['renamed', 'missing'], ['new', 'unset'], ['type budget.Token (bytes)', 'exceeded']]);
  const text = checkText(r, { profile: 'p', budget: 'b', jvm: 'j' });
  assert.match(text, /renamed {20}method budget\.Parser\.parseAll {2}objects {9}- {5}10  NOT FOUND/);
  assert.match(text, /new: objects 500 measured, but the rule has no "max" \(run heaplens check --update to set it\)/);
  assert.match(text, /renamed: method budget\.Parser\.parseAll: nothing in the profile matches/);
  assert.match(text, /^type budget\.Token \(bytes\) {2}\[ignore: nothing\] {14}bytes {6}12,000/m);
});

test('JUnit XML: well-formed, one testcase per rule, failures with messages', () => {
  const budget = parseBudget(fs.readFileSync(FIXTURE_BUDGET, 'utf8'));
  const info = { profile: 'build/<copy> & "x".heaplens', budget: 'ci/budget.heaplens-budget.json', jvm: 'OpenJDK 17' };
  const xml = checkJUnit(evaluateBudget(copy, budget), info, new Date(2026, 0, 2, 3, 4, 5));
  const root = parseXml(xml);
  assert.equal(root.name, 'testsuites');
  assert.deepEqual([root.attrs.tests, root.attrs.failures, root.attrs.errors], ['6', '4', '0']);
  const [suite] = findAll(root, 'testsuite');
  assert.deepEqual([suite.attrs.name, suite.attrs.tests, suite.attrs.failures, suite.attrs.timestamp],
    ['heaplens budgets (ci/budget.heaplens-budget.json)', '6', '4', '2026-01-02T03:04:05']);
  const props = Object.fromEntries(findAll(suite, 'property').map((p) => [p.attrs.name, p.attrs.value]));
  assert.equal(props.profile, 'build/<copy> & "x".heaplens', 'attribute values escaped and read back');
  const cases = findAll(suite, 'testcase');
  assert.deepEqual(cases.map((c) => c.attrs.name), ['parse-objects', 'tokens', 'strings-in-app', 'char-elements', 'indexer-thread', 'total-objects']);
  assert.ok(cases.every((c) => c.attrs.classname === 'heaplens.budget.budget_heaplens-budget'));
  const failed = cases.filter((c) => findAll(c, 'failure').length > 0);
  assert.deepEqual(failed.map((c) => c.attrs.name), ['parse-objects', 'strings-in-app', 'char-elements', 'total-objects']);
  const f = findAll(failed[0], 'failure')[0];
  assert.equal(f.attrs.message, 'objects 1,401 exceed the budget of 1,001 (+400, +40.0%)');
  assert.equal(f.attrs.type, 'budget-exceeded');
  assert.equal(f.text, 'method budget.Parser.parse, objects: measured 1401, limit 1001');
  assert.equal(xmlEscape('a<b>&"\'\u0001'), 'a&lt;b&gt;&amp;&quot;&apos;');
});

test('margins: percentages rounded up exactly, absolute amounts', () => {
  assert.deepEqual(parseMargin('10%'), { percent: '10' });
  assert.deepEqual(parseMargin('500'), { absolute: 500 });
  assert.throws(() => parseMargin('ten'), /--margin must be a percentage/);
  assert.equal(withMargin(1069, parseMargin('10%')), 1176);
  assert.equal(withMargin(1000, parseMargin('10%')), 1100, 'no floating-point 1100.0000000000002');
  assert.equal(withMargin(1001, parseMargin('2.5%')), 1027);
  assert.equal(withMargin(0, parseMargin('10%')), 0);
  assert.equal(withMargin(7, parseMargin('3')), 10);
  assert.equal(withMargin(7, undefined), 7);
});

test('--update edits only the max values: order, ids, comments and formatting stay; missing max inserted', () => {
  const text = [
    '{',
    '  "comment": "keep me",',
    '  "rules": [',
    '    {',
    '      "id": "parse-objects",',
    '      "comment": "the parser",',
    '      "method": "budget.Parser.parse",',
    '      "metric": "objects"',
    '    },',
    '    { "id": "tokens", "type": "budget.Token", "metric": "objects", "max": 1 },',
    '    { "id": "gone", "method": "budget.Old.x", "metric": "objects", "max": 5 },',
    '    {"total": true, "metric": "arrays"}',
    '  ]',
    '}',
    '',
  ].join('\n');
  const budget = parseBudget(text);
  const { text: out, changes } = updateBudgetText(text, evaluateBudget(base, budget), parseMargin('10%'));
  assert.equal(out, text
    .replace('"metric": "objects"\n    },', '"metric": "objects",\n      "max": 1149\n    },')
    .replace('"max": 1 }', '"max": 550 }')
    .replace('"metric": "arrays"}', '"metric": "arrays", "max": 1614}'));
  assert.deepEqual(changes.map((c) => [c.name, c.before, c.after]), [['parse-objects', undefined, 1149], ['tokens', 1, 550], ['total (arrays)', undefined, 1614]]);
  const again = parseBudget(out);
  assert.deepEqual(again.rules.map((r) => r.max), [1149, 550, 5, 1614]);
  // an empty object and an exact update
  const tiny = '{"rules":[{"total":true,"metric":"objects","max":9999}]}';
  assert.equal(updateBudgetText(tiny, evaluateBudget(base, parseBudget(tiny))).text, '{"rules":[{"total":true,"metric":"objects","max":2953}]}');
});

test('annotations for editors: ranges of rules and max values, lens texts, errors with offsets', () => {
  const text = fs.readFileSync(FIXTURE_BUDGET, 'utf8');
  const a = annotateBudget(text, copy);
  assert.equal(a.error, undefined);
  assert.equal(a.annotations.length, 6);
  const first = a.annotations[0];
  assert.equal(text.slice(first.maxRange!.start, first.maxRange!.end), '1001');
  assert.match(text.slice(first.range.start, first.range.end), /^\{\n\s+"id": "parse-objects",[\s\S]*\}$/);
  assert.deepEqual(a.annotations.map((x) => x.lens), [
    'measured 1,401 objects · budget 1,001 · exceeded by 400',
    'measured 500 objects · budget 500 · ok',
    'measured 804 objects · budget 425 · exceeded by 379',
    'measured 4,708 array elements · budget 2,804 · exceeded by 1,904',
    'measured 19 objects · budget 38 · ok',
    'measured 1,440 objects · budget 1,176 · exceeded by 264',
  ]);
  assert.equal(a.annotations[0].message, 'objects 1,401 exceed the budget of 1,001 (+400, +40.0%)');
  const broken = '{"rules": [\n  {"total": true, "metric": "objects"},\n  {"method": "x.Y.z"}\n]}';
  const e = annotateBudget(broken, copy);
  assert.deepEqual(e.annotations, []);
  assert.match(e.error!.message, /^rule 2: "metric" must be one of/);
  assert.equal(e.error!.offset, broken.indexOf('{"method"'));
  assert.deepEqual(annotateBudget('{"rules": [}', copy).error, { message: 'expected a value at line 1', offset: 11 });
  const unset = annotateBudget('{"rules": [{"type": "budget.Token", "metric": "objects"}]}', copy).annotations[0];
  assert.deepEqual([unset.verdict, unset.lens, unset.maxRange], ['unset', 'measured 500 objects · no budget yet', undefined]);
});
