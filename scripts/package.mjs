// npm run package [-- --no-build]: build (agent jar, bundles), then heaplens-<version>.vsix with @vscode/vsce.
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { root } from './lib.mjs';
import { listZip, packageVsix } from './vsix.mjs';

if (!process.argv.includes('--no-build')) {
  const b = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
try {
  const { file, bytes, ms } = packageVsix();
  const entries = listZip(file);
  for (const e of entries) console.log(`  ${String(e.size).padStart(9)}  ${e.name}`);
  console.log(`package: ${relative(root, file)}: ${(bytes / 1024).toFixed(0)} KiB, ${entries.length} files (vsce ${(ms / 1000).toFixed(1)} s)`);
} catch (e) {
  console.error(`package: ${e.message}`);
  process.exit(1);
}
