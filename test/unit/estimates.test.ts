import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { loadProfile } from '../../core/profile/load';
import { plusMinus, typeIntervals } from '../../core/profile/estimates';
import { reportText } from '../../extension/cli/report-text';
import { dataFile } from './helpers';

/** sample.heaplens with the intervals a sampler=jfr agent states (String: 6 ± 1.5 objects; byte[]: every one seen). */
function withIntervals() {
  const p = loadProfile(dataFile('sample.heaplens'));
  p.file.agent.jfrTypes = [[2, 4, 4, 0, 128, 0], [1, 3, 6, 1.5, 144, 36], [99, 1, 2, 1, 16, 8]];
  return p;
}

test('typeIntervals: the stated intervals by estimated bytes, named from the types table; none without them', () => {
  const t = typeIntervals(withIntervals());
  assert.deepEqual(t.map((i) => [i.name, i.seen, i.count, i.countSd, i.bytes, i.bytesSd]), [
    ['java.lang.String', 3, 6, 1.5, 144, 36], ['byte[]', 4, 4, 0, 128, 0], ['type #99', 1, 2, 1, 16, 8]]);
  assert.deepEqual(typeIntervals(loadProfile(dataFile('sample.heaplens'))), []);
  const bad = loadProfile(dataFile('sample.heaplens'));
  (bad.file.agent as unknown as { jfrTypes: unknown }).jfrTypes = [[1, 2, 3], 'x', [1, 1, 1, 1, 1, null]];
  assert.deepEqual(typeIntervals(bad), [], 'malformed rows are skipped');
});

test('plusMinus: 1.96 σ as a share of the estimate; exact when σ is 0', () => {
  assert.equal(plusMinus(6, 1.5), '± 49 %');
  assert.equal(plusMinus(1000, 10), '± 2.0 %');
  assert.equal(plusMinus(128, 0), 'exact');
  assert.equal(plusMinus(0, 3), '± ?');
});

test('the text report shows each type\'s interval with the sampled tree, and not with another tree', () => {
  const p = withIntervals();
  const text = reportText(p, { tree: 'sampled' });
  assert.match(text, /^\s*java\.lang\.String\s+6\s+± 49 %\s+144\s+± 49 %\s+28\.6%$/m);
  assert.match(text, /^\s*byte\[\]\s+4\s+exact\s+40\s+128\s+exact\s+25\.4%$/m);
  assert.match(text, /95 %: the interval the agent states/);
  assert.doesNotMatch(reportText(p, { tree: 'exact' }), /± 49 %|95 %:/);
});
