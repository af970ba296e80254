import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { parseJavaOutline } from '../../extension/editor/java-outline';
import { fileLenses } from '../../extension/editor/lens-model';
import { bytes, hasCallees, heatLevel, hotLineText, inclusiveTitle, lensTitle, lensTooltip, pct, splitText, totalsText } from '../../extension/editor/lens-text';
import { totalsByMethod } from '../../core/views/by-method';
import { topLines, totalsByLine } from '../../core/views/by-line';
import { loadProfile } from '../../core/profile/load';
import { isJdkClass } from '../../core/profile/names';
import { dataFile, repoRoot } from './helpers';

// wordindex.heaplens: `npm run demo`'s profile of samples/src/demo/WordIndex.java (read from samples/: a change there
// that moves its methods fails here, and the profile is to be made again with `npm run demo`)
function demo(): ReturnType<typeof fileLenses> {
  const p = loadProfile(dataFile('wordindex.heaplens'));
  return fileLenses(p, parseJavaOutline(fs.readFileSync(path.join(repoRoot(), 'samples/src/demo/WordIndex.java'), 'utf8')));
}

test('number formats', () => {
  assert.equal(bytes(56), '56 B');
  assert.equal(bytes(1536), '1.5 KiB');
  assert.equal(bytes(232_632), '227 KiB');
  assert.equal(bytes(1.2 * 1024 * 1024), '1.2 MiB');
  assert.equal(pct(0.1372), '14%');
  assert.equal(pct(0.054), '5.4%');
  assert.equal(pct(0.02), '2%');
  assert.equal(pct(0.0004), '<0.1%');
  assert.equal(pct(0), '0%');
  // allocations = objects + arrays, as a Java developer counts them
  assert.equal(totalsText({ objects: 12400, arrays: 38, elements: 9, bytes: 1.2 * 1024 * 1024 }), '12,438 allocations · ~1.2 MiB');
  assert.equal(totalsText({ objects: 0, arrays: 1, elements: 9, bytes: 56 }), '1 allocation · ~56 B');
  assert.equal(totalsText({ objects: 1, arrays: 0, elements: 0, bytes: 16 }), '1 allocation · ~16 B');
  // a type the agent could not size: no "~0 B"
  assert.equal(totalsText({ objects: 3, arrays: 0, elements: 0, bytes: 0 }), '3 allocations');
  assert.equal(totalsText({ objects: 0, arrays: 0, elements: 0, bytes: 0 }), '0 allocations · ~0 B');
  assert.equal(splitText({ objects: 12400, arrays: 38, elements: 9, bytes: 0 }), '12,400 objects, 38 arrays of 9 elements');
});

test('WordIndex lenses: one per allocating method, in source order, lambdas with main', () => {
  const { lenses } = demo();
  const rows = lenses.map((l) => `${l.anchor.start.line + 1} ${l.method?.name ?? `(type ${l.typeName})`}: ${lensTitle(l)} | ${inclusiveTitle(l)}`);
  assert.deepEqual(rows, [
    '14 (type WordIndex): HeapLens (initializers): 1 allocation · ~56 B (<0.1%) | incl. callees: 1 allocation · ~56 B (<0.1%)',
    '34 generateText: HeapLens: 52 allocations · ~1.6 MiB (20%) | incl. callees: 56 allocations · ~1.6 MiB (20%)',
    '49 tokenize: HeapLens: 160,071 allocations · ~4.7 MiB (58%) | incl. callees: 160,082 allocations · ~4.7 MiB (58%)',
    '68 count: HeapLens: 33,685 allocations · ~1.0 MiB (13%) | incl. callees: 33,849 allocations · ~1.0 MiB (13%)',
    '76 top: HeapLens: 9,726 allocations · ~451 KiB (5.4%) | incl. callees: 9,799 allocations · ~454 KiB (5.5%)',
    '86 lengthPairs: HeapLens: 13 allocations · ~832 B (<0.1%) | incl. callees: 17 allocations · ~936 B (<0.1%)',
    '94 indexChunk: HeapLens: no allocations of its own | incl. callees: 97,539 allocations · ~3.7 MiB (45%)',
    '98 main: HeapLens: 2,892 allocations · ~100 KiB (1.2%) | incl. callees: 210,595 allocations · ~8.1 MiB (100%)',
  ]);
  assert.deepEqual(lenses.filter(hasCallees).map((l) => l.method?.name), ['generateText', 'tokenize', 'count', 'top', 'lengthPairs', 'indexChunk', 'main']);
  const main = lenses[lenses.length - 1];
  assert.deepEqual(main.members.map((m) => m.name).sort(), ['lambda$main$0', 'lambda$main$1', 'main']);
  assert.match(lensTooltip(main), /Includes the lambdas lambda\$main\$\d, lambda\$main\$\d\./);
});

test('lenses over sampled estimates (sampled mode, a JFR recording) say so in the title and the tooltip', () => {
  const top = demo().lenses.find((l) => l.method?.name === 'top')!;
  assert.equal(lensTitle(top, true), 'HeapLens (estimated): 9,726 allocations · ~451 KiB (5.4%)');
  const tip = lensTooltip(top, 'ESTIMATES from a JFR recording\'s allocation samples (…)').split('\n');
  assert.equal(tip[tip.length - 2], 'ESTIMATES from a JFR recording\'s allocation samples (…)');
  assert.ok(!lensTooltip(top).includes('ESTIMATES'));
});

test('a lens equals the model\'s per-method totals when one method is behind it', () => {
  const p = loadProfile(dataFile('wordindex.heaplens'));
  const byMethod = totalsByMethod(p).groups;
  const tokenize = demo().lenses.find((l) => l.method?.name === 'tokenize')!;
  assert.deepEqual(tokenize.totals.self, byMethod.get('demo.WordIndex.tokenize(Ljava/lang/String;)Ljava/util/List;')!.self);
  assert.deepEqual(tokenize.totals.inclusive, byMethod.get('demo.WordIndex.tokenize(Ljava/lang/String;)Ljava/util/List;')!.inclusive);
  assert.match(lensTooltip(tokenize), /^Allocated by WordIndex\.tokenize itself and by JDK code on its behalf: 160,071 allocations · ~4\.7 MiB \(80,006 objects, 80,065 arrays of [\d,]+ elements; 58% of the profile's est\. bytes\)\./);
  assert.match(lensTooltip(tokenize), /3 calls that called or allocated something in 3 calling contexts, all threads\./);
  assert.match(lensTooltip(tokenize, undefined, true), /\n3 calls in 3 calling contexts, all threads\./, 'leaves=keep: every call');
});

test('hot lines of the application: text and gutter level', () => {
  const p = loadProfile(dataFile('wordindex.heaplens'));
  const top = topLines(totalsByLine(p, { include: (_s, m) => !isJdkClass(m.class) }), 'count', 10);
  assert.equal(top[0].source, 'demo/WordIndex.java');
  assert.equal(top[0].line, 79);
  assert.equal(hotLineText(top[0]), '▲ 9,693 × WordIndex$Entry · ~227 KiB');
  assert.equal(hotLineText(top[1]), '▲ 13 allocations · int[], int[][] · ~832 B');
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((r) => heatLevel(r, 10)), [5, 5, 4, 4, 3, 3, 2, 2, 1, 1]);
  assert.equal(heatLevel(1, 1), 5);
  assert.equal(heatLevel(3, 3), 2);
});
