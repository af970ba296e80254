// `heaplens diff` and `heaplens check` through the CLI dispatcher: output, files written, exit codes 0/1/2.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../../extension/cli/cli';
import { CliContext } from '../../extension/cli/context';
import { dataFile, repoRoot } from './helpers';
import { findAll, parseXml } from './support/xml';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-budget-cli-'));
const BASE = dataFile('budget-base.heaplens');
const COPY = dataFile('budget-copy.heaplens');
const BUDGET = path.join(repoRoot(), 'test', 'fixtures', 'java', 'budget', 'budget.heaplens-budget.json');

function ctx(): CliContext & { out: string; err: string } {
  const c = {
    env: {}, cwd: tmp, cliDir: tmp, out: '', err: '',
    stdout(t: string) { c.out += t; },
    stderr(t: string) { c.err += t; },
  };
  return c;
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const c = ctx();
  const code = await runCli(argv, c);
  return { code, out: c.out, err: c.err };
}

test('help lists diff and check', async () => {
  const r = await cli('help');
  assert.match(r.out, /heaplens diff BEFORE AFTER \[--metric objects\|arrays\|elements\|bytes\] \[--by method\|site\|type\]/);
  assert.match(r.out, /heaplens check PROFILE --budget FILE \[--junit FILE\]/);
});

test('diff: text by method, JSON by site, --out', async () => {
  const r = await cli('diff', BASE, COPY, '--top', '1');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Largest increases \(top 1 of 3\)\nchange {2}relative {2}before {2}after {2}method\n[- ]+\n {2}\+400 {3}\+100\.0% {5}400 {4}800 {2}budget\.Parser\.word\n/m);
  const j = await cli('diff', BASE, COPY, '--by', 'site', '--format', 'json', '--metric=elements');
  assert.equal(j.code, 0);
  const doc = JSON.parse(j.out);
  assert.deepEqual([doc.metric, doc.by, doc.delta, doc.increases[0].label], ['elements', 'site', 3808, 'java.lang.StringUTF16.compress:161']);
  const out = path.join(tmp, 'd', 'diff.txt');
  assert.equal((await cli('diff', BASE, COPY, '-o', out)).code, 0);
  assert.match(fs.readFileSync(out, 'utf8'), /^HeapLens diff: objects by method/);
});

test('diff: usage and file errors exit 2 with one line', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['diff', BASE], /^heaplens: diff needs two profile files \(before, after\)\n/],
    [['diff', BASE, COPY, '--by', 'thread'], /^heaplens: option --by must be one of method, site, type \(got "thread"\)\n$/],
    [['diff', BASE, COPY, '--top', 'all'], /^heaplens: --top must be a whole number \(0: all rows\), got "all"\n$/],
    [['diff', BASE, 'nope.heaplens'], /^heaplens: .*nope\.heaplens: cannot read: no such file\n$/],
  ];
  for (const [argv, msg] of cases) {
    const r = await cli(...argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.err, msg);
  }
});

test('check: exit 0 within budget, 1 when exceeded; JUnit XML written either way', async () => {
  const ok = await cli('check', BASE, '--budget', BUDGET, '--junit', 'reports/ok.xml');
  assert.equal(ok.code, 0, ok.out + ok.err);
  assert.match(ok.out, /All 6 budgets met\.\n$/);
  const okXml = parseXml(fs.readFileSync(path.join(tmp, 'reports', 'ok.xml'), 'utf8'));
  assert.deepEqual([okXml.attrs.tests, okXml.attrs.failures], ['6', '0']);
  const bad = await cli('check', COPY, '--budget', BUDGET, '--junit', path.join(tmp, 'bad.xml'));
  assert.equal(bad.code, 1);
  assert.match(bad.out, /^parse-objects {3}method budget\.Parser\.parse {12}objects {6}1,401 {2}1,001 {2}EXCEEDED \(\+400, \+40\.0%\)$/m);
  assert.match(bad.out, /\n4 of 6 budgets failed:\n/);
  const xml = parseXml(fs.readFileSync(path.join(tmp, 'bad.xml'), 'utf8'));
  assert.deepEqual(findAll(xml, 'failure').map((f) => f.attrs.message), [
    'objects 1,401 exceed the budget of 1,001 (+400, +40.0%)',
    'objects 804 exceed the budget of 425 (+379, +89.2%)',
    'array elements 4,708 exceed the budget of 2,804 (+1,904, +67.9%)',
    'objects 1,440 exceed the budget of 1,176 (+264, +22.4%)',
  ]);
});

test('check --format json and --ignore', async () => {
  const r = await cli('check', BASE, '--budget', BUDGET, '--format', 'json');
  assert.equal(r.code, 0);
  const doc = JSON.parse(r.out);
  assert.equal(doc.passed, true);
  assert.deepEqual(doc.rules[0], {
    index: 0, id: 'parse-objects', name: 'parse-objects', scope: 'method budget.Parser.parse', metric: 'objects',
    value: 1001, max: 1001, verdict: 'ok', message: 'objects 1,001 within the budget of 1,001',
  });
  fs.writeFileSync(path.join(tmp, 'raw.json'), JSON.stringify({ rules: [{ id: 'total', total: true, metric: 'objects', max: 2953 }] }));
  assert.equal((await cli('check', BASE, '--budget', 'raw.json')).code, 0);
  const ign = await cli('check', BASE, '--budget', 'raw.json', '--ignore', 'jdk-frames,jdk-class-init', '--format', 'json');
  assert.equal(JSON.parse(ign.out).rules[0].value, 1040);
});

test('check --update writes the measured values (with a margin) and keeps the rest', async () => {
  const file = path.join(tmp, 'heaplens-budgets.json');
  const original = fs.readFileSync(BUDGET, 'utf8');
  fs.writeFileSync(file, original);
  const r = await cli('check', COPY, '--budget', file, '--update', '--margin', '10%');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^parse-objects {7}1,001 {6}1,542  raised$/m);
  const updated = fs.readFileSync(file, 'utf8');
  assert.equal(updated, original.replace('"max": 1001', '"max": 1542').replace('"max": 500', '"max": 550')
    .replace('"max": 425', '"max": 885').replace('"max": 2804', '"max": 5179').replace('"max": 38', '"max": 21')
    .replace('"max": 1176', '"max": 1584'));
  assert.equal((await cli('check', COPY, '--budget', file)).code, 0, 'the accepted change now passes');
  const same = await cli('check', COPY, '--budget', file, '--update', '--margin', '10%');
  assert.match(same.out, /\(no change\)/);
});

test('check: usage and file errors exit 2', async () => {
  fs.writeFileSync(path.join(tmp, 'broken.json'), '{"rules": [{"method": "a.B.c", "metric": "weight"}]}');
  const cases: Array<[string[], RegExp]> = [
    [['check', BASE], /^heaplens: check needs --budget FILE\n/],
    [['check', '--budget', BUDGET], /^heaplens: check needs exactly one profile file\n/],
    [['check', BASE, '--budget', 'missing.json'], /^heaplens: missing\.json: cannot read the budget file: no such file\n$/],
    [['check', BASE, '--budget', 'broken.json'], /^heaplens: broken\.json: rule 1: "metric" must be one of objects, arrays, elements, bytes\n$/],
    [['check', 'nope.heaplens', '--budget', BUDGET], /nope\.heaplens: cannot read: no such file\n$/],
    [['check', BASE, '--budget', BUDGET, '--margin', '5%'], /^heaplens: --margin applies to --update\n$/],
    [['check', BASE, '--budget', BUDGET, '--update', '--junit', 'x.xml'], /takes no --junit or --format/],
    [['check', BASE, '--budget', BUDGET, '--update', '--margin', 'lots'], /--margin must be a percentage like 10% or a whole number like 500/],
    [['check', BASE, '--budget', BUDGET, '--ignore', 'jit'], /^heaplens: --ignore: unknown kind "jit" \(known: jdk-frames, jdk-class-init\)\n$/],
  ];
  for (const [argv, msg] of cases) {
    const r = await cli(...argv);
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.out}${r.err}`);
    assert.match(r.err, msg);
  }
});

test('check --update on a budget file that does not exist writes a starter budget with measured limits (issue 20)', async () => {
  const wordindex = dataFile('wordindex.heaplens');
  const file = path.join(tmp, 'ci', 'new.json');
  fs.rmSync(path.join(tmp, 'ci'), { recursive: true, force: true });
  const r = await cli('check', wordindex, '--update', '--budget', file, '--margin', '10%');
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /new\.json did not exist: wrote a starter budget from .*wordindex\.heaplens/);
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(doc.version, 1);
  assert.deepEqual(doc.rules.map((x: { id: string; max: number }) => [x.id, x.max]),
    [['total-objects', 138725], ['total-bytes', 9049762], ['app-objects', 138715]]);   // measured + 10%, rounded up
  assert.deepEqual(doc.rules[2].under, ['demo.*']);
  // the starter budget is a budget like any other: the same profile meets it
  const check = await cli('check', wordindex, '--budget', file);
  assert.equal(check.code, 0, check.out);
  assert.match(check.out, /All 3 budgets met/);
  assert.match(check.out, /total-objects +total +objects +126,113 +138,725 +ok/);
  // without --update a missing budget is still an error
  assert.equal((await cli('check', wordindex, '--budget', path.join(tmp, 'none.json'))).code, 2);
});
