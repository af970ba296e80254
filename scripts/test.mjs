// npm test: deps → build → agent JUnit → TS unit tests (and bench/test) → e2e tests → reliability tests → .vsix →
// real VS Code (UI on the installed .vsix) → bench smoke.
// Stops at the first failing stage; always ends with the line `N passed, N failed`.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensureDeps, root } from './lib.mjs';

let passed = 0;
let failed = 0;

function finish(code) {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(code);
}

/** Runs a command with output shown live and also captured; resolves to { status, output }. */
function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let output = '';
    child.stdout.on('data', (d) => { output += d; process.stdout.write(d); });
    child.stderr.on('data', (d) => { output += d; process.stderr.write(d); });
    child.on('error', (e) => resolve({ status: 127, output: `${cmd}: ${e.message}` }));
    child.on('close', (status, signal) => resolve({ status: status ?? (signal ? 128 : 1), output }));
  });
}

function stage(name) {
  console.log(`\n=== ${name} ===`);
}

/** A stage failed: count it as a failure when it reported none itself, then stop. */
function stop(name, status, reportedFailures = 0) {
  if (reportedFailures === 0) failed += 1;
  console.error(`\nnpm test: stage "${name}" failed (exit ${status})`);
  finish(status || 1);
}

function findTests(dir, pattern) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...findTests(p, pattern));
    else if (pattern.test(e.name)) out.push(p);
  }
  return out.sort();
}

/** Runs node's test runner with the spec reporter on the console and TAP into a file, then counts. */
async function nodeTests(name, files) {
  stage(`${name} (${files.length} files)`);
  const tap = join(root, 'out', `${name.replace(/\W+/g, '-')}.tap`);
  const r = await run(process.execPath, [
    '--test', '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...files.map((f) => relative(root, f)),
  ]);
  const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const count = (key) => Number((text.match(new RegExp(`^# ${key} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
  const p = count('pass');
  const f = count('fail') + count('cancelled');
  passed += p;
  failed += f;
  console.log(`${name}: ${p} passed, ${f} failed`);
  if (r.status !== 0 || f > 0) stop(name, r.status || 1, f);
}

stage('dependencies');
ensureDeps();

stage('build');
const build = await run(process.execPath, [join(root, 'scripts', 'build.mjs')]);
if (build.status !== 0) stop('build', build.status);

const pom = join(root, 'agent', 'pom.xml');
if (existsSync(pom)) {
  stage('agent JUnit (mvn -o test)');
  const r = await run('mvn', ['-o', '-B', '-f', pom, 'test']);
  // Surefire's summary lines (one per module): "Tests run: N, Failures: F, Errors: E, Skipped: S" without "Time elapsed".
  let f = 0;
  for (const m of r.output.matchAll(/^\[\w+\] Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)\s*$/gm)) {
    const [run, fail, err, skip] = m.slice(1).map(Number);
    passed += run - fail - err - skip;
    failed += fail + err;
    f += fail + err;
  }
  if (r.status !== 0 || f > 0) stop('agent JUnit', r.status || 1, f);
} else {
  console.log('\n(agent/pom.xml does not exist: no agent tests)');
}

stage('compile tests (tsc -p tsconfig.test.json)');
rmSync(join(root, 'out'), { recursive: true, force: true });
mkdirSync(join(root, 'out'), { recursive: true });
const tsc = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.test.json')]);
if (tsc.status !== 0) stop('compile tests', tsc.status);

const unit = findTests(join(root, 'out', 'test', 'unit'), /\.test\.js$/);
if (unit.length === 0) stop('unit tests: none found', 1);
unit.push(...findTests(join(root, 'bench', 'test'), /\.test\.mjs$/)); // the bench's own library (a few seconds)
unit.push(...findTests(join(root, 'scripts', 'test'), /\.test\.mjs$/)); // the build and test scripts' own helpers
await nodeTests('unit tests', unit);

const e2e = [
  ...findTests(join(root, 'out', 'test', 'e2e'), /\.test\.js$/),
  ...findTests(join(root, 'test', 'e2e'), /\.test\.(mjs|cjs|js)$/),
];
if (e2e.length > 0) await nodeTests('e2e tests', e2e);
else console.log('\n(no e2e tests)');

// The reliability and security suite's fast part (docs/reliability.md); the long part is `npm run test:stress`.
const reliability = findTests(join(root, 'out', 'test', 'reliability'), /\.test\.js$/);
if (reliability.length > 0) await nodeTests('reliability tests', reliability);
else stop('reliability tests: none found', 1);

// The .vsix (npm run package's, from the dist/ just built) and the manifest: test/package/*.test.mjs
const packaging = findTests(join(root, 'test', 'package'), /\.test\.mjs$/);
if (packaging.length > 0) await nodeTests('package tests', packaging);

// The extension in a real VS Code (code-server 1.139 + Chromium, installed once into a cache folder):
// the in-host mocha suite and the UI scenarios (test/vscode/harness/run.mjs).
if (existsSync(join(root, 'test', 'vscode', 'harness', 'run.mjs'))) {
  stage('real VS Code (node test/vscode/harness/run.mjs)');
  const r = await run(process.execPath, [join(root, 'test', 'vscode', 'harness', 'run.mjs')]);
  const counts = [...r.output.matchAll(/^(\d+) passed, (\d+) failed$/gm)].pop();
  const p = counts ? Number(counts[1]) : 0;
  const f = counts ? Number(counts[2]) : 0;
  passed += p;
  failed += f;
  if (r.status !== 0 || f > 0) stop('real VS Code', r.status || 1, f);
}

if (existsSync(join(root, 'bench', 'run.mjs'))) {
  stage('bench smoke (node bench/run.mjs --smoke)');
  const r = await run(process.execPath, [join(root, 'bench', 'run.mjs'), '--smoke']);
  if (r.status !== 0) stop('bench smoke', r.status);
} else {
  console.log('\n(bench/run.mjs does not exist: no bench smoke)');
}

finish(0);
