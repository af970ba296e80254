// npm run build [-- --skip-agent]: agent jar (Maven, offline) → dist/, esbuild bundles → dist/, tsc typecheck.
import { copyFileSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDeps, must, root } from './lib.mjs';

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
