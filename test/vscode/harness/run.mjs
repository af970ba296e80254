// npm run test:vscode — the real VS Code tests: install (cached), start code-server, run the in-host mocha
// suite, then the UI scenarios; screenshots in build/vscode-screenshots/. Ends with "N passed, N failed".
// Needs `npm run build` (dist/) and compiled tests (out/test/vscode) first; `npm test` does both.
import { readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { root } from '../../../scripts/lib.mjs';
import { runExtensionTests } from './ext-tests.mjs';
import { ensureInstalled } from './install.mjs';
import { startCodeServer } from './server.mjs';
import { listZip, packageVsix, vsixPath } from '../../../scripts/vsix.mjs';
import { runUiScenarios } from './ui.mjs';
import { prepareWorkspace } from './workspace.mjs';

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log('real VS Code tests: the code-server harness runs on linux-x64 only; on this machine use `npm run test:desktop`.');
  console.log('0 passed, 0 failed');
  process.exit(0);
}

const t0 = Date.now();
const lap = (m) => console.log(`[${((Date.now() - t0) / 1000).toFixed(0)} s] ${m}`);
const out = join(root, 'build', 'vscode-test');
const shots = join(root, 'build', 'vscode-screenshots');
let passed = 0;
let failed = 0;
let server;
try {
  const paths = ensureInstalled();
  lap('installed');
  rmSync(shots, { recursive: true, force: true });
  const suiteWs = prepareWorkspace(join(out, 'workspace-suite'));
  const uiWs = prepareWorkspace(join(out, 'workspace-ui'));
  // The UI scenarios run the packaged extension as a user gets it: the .vsix of the current dist/,
  // installed with `code-server --install-extension` into the fresh profile. The in-host suite loads the
  // source folder (extensionDevelopmentPath, which takes precedence there).
  const vsix = packageVsix(join(out, basename(vsixPath())));
  lap(`packaged ${vsix.file} (${(vsix.bytes / 1024).toFixed(0)} KiB, ${listZip(vsix.file).length} files)`);
  server = await startCodeServer(paths, join(out, 'server'), { vsix: vsix.file });
  const { name, publisher, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  if (!server.installed.includes(`${publisher}.${name}@${version}`)) throw new Error(`the .vsix is not listed as installed: ${server.installed}`);
  lap('code-server started');
  // HEAPLENS_VSCODE_ONLY=ui|suite runs one half (for working on it)
  const only = process.env.HEAPLENS_VSCODE_ONLY;
  const suite = only === 'ui' ? { passed: 0, failed: 0 } : await runExtensionTests(server, paths, suiteWs, out);
  lap(`extension host suite: ${suite.passed} passed, ${suite.failed} failed`);
  const ui = only === 'suite' ? { passed: 0, failed: 0 } : await runUiScenarios(server, paths, uiWs, shots, { installed: true });
  lap(`UI scenarios: ${ui.passed} passed, ${ui.failed} failed`);
  passed = suite.passed + ui.passed;
  failed = suite.failed + ui.failed;
} catch (e) {
  console.error(`real VS Code tests: ${e.stack ?? e}`);
  failed += 1;
} finally {
  await server?.stop();
}
lap(`done; logs in ${out}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
