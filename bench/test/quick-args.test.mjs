// `--quick`: the README's headline ratios in a few minutes (issue 26's `bench --quick` row), each default still
// overridable by its own flag.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseArgs } from '../lib/args.mjs';

test('--quick runs luindex and h2 under the headline configurations, one round, no accuracy or sampled-error runs', () => {
  const o = parseArgs(['--quick']);
  assert.deepEqual(o.workloads, ['luindex', 'h2']);
  assert.deepEqual(o.configs, ['plain', 'heaplens-exact', 'heaplens-sampled', 'heaplens-sites', 'heaplens-paused', 'jfr-alloc']);
  assert.equal(o.rounds, 1);
  assert.equal(o.startupReps, 3);
  assert.equal(o.accuracy, false);
  assert.equal(o.sampledError, false);
});

test('--quick keeps what other flags ask for', () => {
  const o = parseArgs(['--quick', '--workloads', 'javac,h2', '--configs', 'plain,heaplens-exact', '--startup-reps', '7', '--accuracy', 'smoke']);
  assert.deepEqual(o.workloads, ['javac', 'h2']);
  assert.deepEqual(o.configs, ['plain', 'heaplens-exact']);
  assert.equal(o.startupReps, 7);
  assert.equal(o.accuracy, true);
  assert.deepEqual(o.accuracyWorkloads, ['smoke']);
  assert.equal(o.sampledError, false);
});

test('without --quick every workload, configuration and measurement runs, three rounds', () => {
  const o = parseArgs([]);
  assert.equal(o.workloads, null);
  assert.equal(o.configs, null);
  assert.equal(o.rounds, 3);
  assert.equal(o.startupReps, 5);
  assert.equal(o.accuracy, true);
  assert.equal(o.sampledError, true);
});
