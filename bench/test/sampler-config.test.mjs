// The JFR sampler's bench configuration and the --sampler flag of the sampled-error runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseArgs } from '../lib/args.mjs';
import { configByName } from '../lib/configs.mjs';

test('heaplens-sampled-jfr starts the agent as heaplens run does for sampler=jfr', () => {
  const cfg = configByName('heaplens-sampled-jfr');
  assert.deepEqual(cfg.jvmArgs({ agentJar: '/a.jar', profile: '/p' }),
    ['-XX:FlightRecorderOptions=stackdepth=1024', '-XX:TLABSize=16k', '-XX:-ResizeTLAB', '-XX:TLABRefillWasteFraction=1',
      '-javaagent:/a.jar=out=/p.heaplens,mode=sampled,sampler=jfr']);
  assert.equal(cfg.needsAgent, true);
});

test('--sampler chooses the sampled-error runs\' sampler', () => {
  assert.equal(parseArgs([]).sampler, 'probes');
  assert.equal(parseArgs(['--sampler', 'jfr']).sampler, 'jfr');
  assert.equal(parseArgs(['--sampler', 'jvmti']).sampler, 'jvmti');
  assert.throws(() => parseArgs(['--sampler', 'tlab']), /--sampler needs probes, jvmti or jfr/);
});

test('heaplens-sampled-jvmti and -probes name their sampler whatever the agent\'s default', () => {
  assert.deepEqual(configByName('heaplens-sampled-jvmti').jvmArgs({ agentJar: '/a.jar', profile: '/p' }),
    ['-javaagent:/a.jar=out=/p.heaplens,mode=sampled,sampler=jvmti']);
  assert.deepEqual(configByName('heaplens-sampled-probes').jvmArgs({ agentJar: '/a.jar', profile: '/p' }),
    ['-javaagent:/a.jar=out=/p.heaplens,mode=sampled,sampler=probes']);
});
