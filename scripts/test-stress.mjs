// npm run test:stress: the reliability suite's long part (docs/reliability.md) — every class of the Debian jars
// loaded under -Xverify:all with and without the agent, and the bench workloads' outputs compared, on JDK 17
// and 25. Builds first; ends with the line `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const node = process.execPath;
const step = (what, args) => {
  console.log(`\n=== ${what} ===`);
  const r = spawnSync(node, args, { cwd: root, stdio: 'inherit' });
  return r.status ?? 1;
};

let failed = 0;
let passed = 0;
if (step('build', [join(root, 'scripts', 'build.mjs')]) !== 0) failed++;
else if (step('compile tests', [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.test.json')]) !== 0) failed++;
else {
  const dir = join(root, 'out', 'test', 'stress');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.test.js')).map((f) => join('out', 'test', 'stress', f)) : [];
  const tap = join(root, 'out', 'stress.tap');
  // one file at a time: each already runs two JVMs at once per JDK
  const status = step(`stress tests (${files.length} files)`, ['--test', '--test-concurrency=1', '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...files]);
  const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const count = (k) => Number((text.match(new RegExp(`^# ${k} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
  passed = count('pass');
  failed = count('fail') + count('cancelled') + (status !== 0 && count('fail') === 0 ? 1 : 0);
  if (files.length === 0) failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
