// npm run build [-- --skip-agent]: agent jar (Maven, offline) → dist/, esbuild bundles → dist/, tsc typecheck.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { must, root } from './lib.mjs';

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
  copyFileSync(jar, join(dist, 'heaplens-agent.jar'));
  console.log('build: dist/heaplens-agent.jar');
}

// (b) bundles
const esbuild = await import('esbuild');
const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning' };
await esbuild.build({ ...common, entryPoints: [join(root, 'extension/cli/main.ts')], outfile: join(dist, 'cli.js') });
await esbuild.build({
  ...common, entryPoints: [join(root, 'extension/extension.ts')], outfile: join(dist, 'extension.js'), external: ['vscode'],
});
console.log('build: dist/cli.js, dist/extension.js');

// (c) typecheck
must(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', root, '--noEmit'], 'build: tsc typecheck');
console.log('build: typecheck clean');
