// The bench configuration that hands the agent over as -agentlib:instrument= (docs/benchmark.md, "Start-up, Round 5").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asAgentlib, configByName, heaplens } from '../lib/configs.mjs';

test('heaplens-exact-agentlib runs the exact agent as -agentlib:instrument=JAR=OPTIONS', () => {
  const cfg = configByName('heaplens-exact-agentlib');
  assert.deepEqual(cfg.jvmArgs({ agentJar: '/a/heaplens-agent.jar', profile: '/p' }), ['-agentlib:instrument=/a/heaplens-agent.jar=out=/p.heaplens']);
  assert.equal(cfg.needsAgent, true);
});

test('asAgentlib changes only the agent argument', () => {
  const cfg = asAgentlib({ ...heaplens('sites'), jvmArgs: (c) => ['-Xss8m', ...heaplens('sites').jvmArgs(c)] }, 'x');
  assert.deepEqual(cfg.jvmArgs({ agentJar: '/j.jar', profile: '/q' }), ['-Xss8m', '-agentlib:instrument=/j.jar=out=/q.heaplens,mode=sites']);
});
