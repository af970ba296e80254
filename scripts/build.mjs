// npm run build [-- --skip-agent]: agent jar (Maven, offline) → dist/, esbuild bundles → dist/, tsc typecheck.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDeps, ensureGcc, must, root } from './lib.mjs';

ensureDeps(); // a fresh clone: `npm run build`, `package` and `bench` work as the first command

const skipAgent = process.argv.includes('--skip-agent');
const dist = join(root, 'dist');
mkdirSync(dist, { recursive: true });

// (a) the Java agent
const pom = join(root, 'agent', 'pom.xml');
if (skipAgent) {
  console.log('build: agent skipped (--skip-agent)');
} else if (!existsSync(pom)) {
  console.log('build: agent/pom.xml does not exist yet; skipping the Java agent');
} else {
  must('mvn', ['-o', '-q', '-B', '-f', pom, '-DskipTests', 'package'], 'build: mvn package (agent)');
  const jar = join(root, 'agent', 'target', 'heaplens-agent.jar');
  if (!existsSync(jar)) {
    console.error(`build: Maven succeeded but ${jar} is missing`);
    process.exit(1);
  }
  // Copy then rename: a JVM still running with the old jar keeps its file (overwriting a jar in place under a
  // running JVM crashes it inside libzip).
  copyFileSync(jar, join(dist, 'heaplens-agent.jar.tmp'));
  renameSync(join(dist, 'heaplens-agent.jar.tmp'), join(dist, 'heaplens-agent.jar'));
  console.log('build: dist/heaplens-agent.jar');
  nativeSampler();
}

/**
 * The agent's native heap sampler (sampler=jvmti, docs/modes.md) next to the jar, named by OS and architecture as the
 * agent looks for it (agent/…/jvmti/JvmtiSampling.libraryName). Compiled with gcc against the building JDK's JNI and
 * JVMTI headers; without gcc or headers the build says so in one line and the agent falls back to its probes.
 */
function nativeSampler() {
  if (process.platform !== 'linux') {
    console.log(`build: native heap sampler not built on ${process.platform} (Linux only for now); sampler=jvmti falls back to probes`);
    return;
  }
  const arch = process.arch === 'x64' ? 'x64' : process.arch === 'arm64' ? 'arm64' : process.arch;
  const name = `libheaplens-sampler-linux-${arch}.so`;
  const javaHome = javaHomeOfBuild();
  const inc = javaHome && join(javaHome, 'include');
  if (!inc || !existsSync(join(inc, 'jvmti.h'))) {
    console.log(`build: native heap sampler skipped: no JDK headers (include/jvmti.h) under ${javaHome ?? 'JAVA_HOME'}; sampler=jvmti falls back to probes`);
    return;
  }
  if (!ensureGcc()) {
    console.log('build: native heap sampler skipped: gcc is not installed (apt-get install gcc); sampler=jvmti falls back to probes');
    return;
  }
  const out = join(dist, `${name}.tmp`);
  const r = spawnSync('gcc', ['-shared', '-fPIC', '-O2', '-Wall', '-Werror', '-I', inc, '-I', join(inc, 'linux'), '-o', out,
    join(root, 'agent', 'src', 'main', 'c', 'heaplens-sampler.c')], { stdio: 'inherit' });
  if (r.status !== 0) {
    rmSync(out, { force: true });
    console.error('build: gcc failed on agent/src/main/c/heaplens-sampler.c');
    process.exit(1);
  }
  renameSync(out, join(dist, name));      // as the jar: a running JVM keeps the old file
  console.log(`build: dist/${name}`);
}

/** The JDK Maven builds with: $JAVA_HOME, else the one `javac` on the PATH belongs to. */
function javaHomeOfBuild() {
  if (process.env.JAVA_HOME && existsSync(join(process.env.JAVA_HOME, 'include'))) return process.env.JAVA_HOME;
  const r = spawnSync('sh', ['-c', 'readlink -f "$(command -v javac)"'], { encoding: 'utf8' });
  const javac = r.status === 0 ? r.stdout.trim() : '';
  return javac ? join(javac, '..', '..') : undefined;
}

// (b) bundles
const esbuild = await import('esbuild');
const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning' };
await esbuild.build({ ...common, entryPoints: [join(root, 'extension/cli/main.ts')], outfile: join(dist, 'cli.js') });
await esbuild.build({
  ...common, entryPoints: [join(root, 'extension/extension.ts')], outfile: join(dist, 'extension.js'), external: ['vscode'],
});
// the Java parser of the editor features, run in a worker thread (extension/editor/parser-host.ts)
await esbuild.build({ ...common, entryPoints: [join(root, 'extension/editor/outline-worker.ts')], outfile: join(dist, 'outline-worker.js') });
// the HPROF analysis, run in a worker thread (extension/heap/worker-host.ts)
await esbuild.build({ ...common, entryPoints: [join(root, 'extension/heap/heap-worker.ts')], outfile: join(dist, 'heap-worker.js') });
console.log('build: dist/cli.js, dist/extension.js, dist/outline-worker.js, dist/heap-worker.js');
// the webview (views of issue 5): one browser bundle and its stylesheet; codicons copied next to them
// the load worker (webview/load/worker.ts) is built first and put into the page bundle as a string: the page starts it
// from a Blob URL, which both the VS Code webview and the self-contained HTML report allow (CSP worker-src blob:)
const worker = await esbuild.build({
  bundle: true, platform: 'browser', target: 'es2020', format: 'iife', sourcemap: false, minify: true, logLevel: 'warning',
  entryPoints: [join(root, 'webview/load/worker.ts')], write: false,
});
await esbuild.build({
  bundle: true, platform: 'browser', target: 'es2020', format: 'iife', sourcemap: false, minify: true, logLevel: 'warning',
  entryPoints: { webview: join(root, 'webview/main.ts') }, outdir: dist,
  define: { __HEAPLENS_WORKER__: JSON.stringify(worker.outputFiles[0].text) },
});
await esbuild.build({ bundle: true, minify: true, logLevel: 'warning', entryPoints: [join(root, 'webview/style.css')], outfile: join(dist, 'webview.css') });
mkdirSync(join(dist, 'codicons'), { recursive: true });
for (const f of ['codicon.css', 'codicon.ttf']) copyFileSync(join(root, 'node_modules/@vscode/codicons/dist', f), join(dist, 'codicons', f));
console.log('build: dist/webview.js, dist/webview.css, dist/codicons/');

// (c) typecheck
must(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', root, '--noEmit'], 'build: tsc typecheck');
must(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'webview')], 'build: tsc typecheck (webview)');
console.log('build: typecheck clean');
