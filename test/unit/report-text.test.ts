import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { loadProfile } from '../../core/profile/load';
import { reportText } from '../../extension/cli/report-text';
import { dataFile } from './helpers';

const text = reportText(loadProfile(dataFile('sample.heaplens')));
const lines = text.split('\n');

function row(...cells: string[]): void {
  const re = new RegExp(`^\\s*${cells.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+')}$`);
  assert.ok(lines.some((l) => re.test(l)), `a line with ${cells.join(' | ')}\n${text}`);
}

test('header names the JVM, command, mode, duration and whether the write was final', () => {
  assert.match(text, /^JVM: +OpenJDK 64-Bit Server VM 17\.0\.15 \(Debian\), pid 31337$/m);
  assert.match(text, /^Command: +com\.acme\.Main input\.txt$/m);
  assert.match(text, /^Mode: +exact$/m);
  assert.match(text, /^Written: .*\(write #2, after 1\.25 s\)$/m);
  assert.match(text, /^Final: +yes/m);
});

test('totals label bytes as estimates', () => {
  assert.ok(lines.includes('objects 13, arrays 8, array elements 51, est. bytes 504 (504 B)'));
});

test('top contexts, types, arrays by element type and threads', () => {
  row('7', '0', '112', 'Main.main');
  row('3', '3', '168', 'Main.main > Outer$Inner.run');
  row('java.lang.String', '6', '144', '28.6%');
  row('byte[]', '4', '40', '128', '25.4%');
  row('B', 'byte', '4', '40', '10.0', '128');
  row('R', 'reference', '2', '5', '2.5', '56');
  row('I', 'int', '2', '6', '3.0', '64');
  row('J', 'long', '0', '0', '-', '0');
  row('main', 'ended', '10', '7', '41', '400');
  row('worker-2', 'alive, daemon', '2', '0', '0', '48');
});

test('transform failures, warnings and constructor-analysis warnings are listed', () => {
  assert.match(text, /^transform failures: 1\n {2}com\.acme\.Broken \(loader app\): java\.lang\.IllegalStateException: bad frame$/m);
  assert.match(text, /^ {2}com\.acme\.Future: class file version 70 is newer than supported; skipped$/m);
  assert.match(text, /^ {2}com\.acme\.Odd\.<init>\(Z\)V: two different constructors invoked on this on different paths$/m);
  assert.match(text, /cross-check: object counts from constructor calls agree/);
});
