// npm run demo: build, compile the bundled sample, profile it with `heaplens run`, and write its reports.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensureDeps, must, root } from './lib.mjs';

const MAIN = 'demo.WordIndex';
const samples = join(root, 'samples', 'src');
const classes = join(root, 'build', 'samples');
const demo = join(root, 'build', 'demo');
const profile = join(demo, 'demo.heaplens');
const cli = join(root, 'bin', 'heaplens');

ensureDeps();
must(process.execPath, [join(root, 'scripts', 'build.mjs')], 'demo: build');

const jar = process.env.HEAPLENS_AGENT ?? join(root, 'dist', 'heaplens-agent.jar');
if (!existsSync(jar)) {
  console.error(`demo: the agent jar ${relative(root, jar)} is missing: the Java agent (agent/pom.xml) has not been built.`);
  console.error('demo: build it with `npm run build` once agent/ exists, then run `npm run demo` again.');
  process.exit(1);
}

function javaSources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? javaSources(join(dir, e.name)) : e.name.endsWith('.java') ? [join(dir, e.name)] : []);
}

const javac = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'javac') : 'javac';
rmSync(classes, { recursive: true, force: true });
mkdirSync(classes, { recursive: true });
must(javac, ['--release', '17', '-d', classes, ...javaSources(samples)], 'demo: javac samples');

mkdirSync(demo, { recursive: true });
rmSync(profile, { force: true });
console.log(`\n$ bin/heaplens run --out build/demo/demo.heaplens -- -cp build/samples ${MAIN}`);
must(process.execPath, [cli, 'run', '--out', profile, '--', '-cp', classes, MAIN], 'demo: heaplens run');

const report = spawnSync(process.execPath, [cli, 'report', profile, '--format', 'text'], { cwd: root, encoding: 'utf8' });
if (report.status !== 0) {
  process.stderr.write(report.stderr);
  console.error(`demo: heaplens report failed (exit ${report.status})`);
  process.exit(report.status || 1);
}
console.log(`\n$ bin/heaplens report build/demo/demo.heaplens --format text\n`);
process.stdout.write(report.stdout);
writeFileSync(join(demo, 'report.txt'), report.stdout);
must(process.execPath, [cli, 'report', profile, '--format', 'collapsed', '--out', join(demo, 'demo.collapsed')], 'demo: collapsed stacks');
must(process.execPath, [cli, 'report', profile, '--format', 'html', '--out', join(demo, 'report.html')], 'demo: HTML report');
must(process.execPath, [cli, 'report', profile, '--format', 'speedscope', '--out', join(demo, 'demo.speedscope.json')], 'demo: speedscope');

console.log('\ndemo files:');
for (const f of ['demo.heaplens', 'report.txt', 'report.html', 'demo.collapsed', 'demo.speedscope.json']) console.log(`  ${relative(process.cwd(), join(demo, f))}`);
console.log('  (report.html: the flame tree, sites, arrays and threads views in any browser, no network needed;');
console.log('   demo.collapsed / demo.speedscope.json: for flamegraph.pl, inferno or speedscope)');
