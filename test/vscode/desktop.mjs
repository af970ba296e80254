// npm run test:desktop — the same in-host mocha suite under @vscode/test-electron on a desktop machine
// (downloads VS Code; it cannot run on the offline CI machine, where test/vscode/harness uses code-server).
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { root, must } from '../../scripts/lib.mjs';
import { prepareWorkspace } from './harness/workspace.mjs';

must(process.execPath, [join(root, 'scripts', 'build.mjs')], 'build');
must(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.test.json')], 'compile tests');
const workspace = prepareWorkspace(join(root, 'build', 'vscode-test', 'workspace-desktop'));
const report = join(root, 'build', 'vscode-test', 'desktop-report.txt');
try {
  await runTests({
    version: process.env.HEAPLENS_VSCODE_VERSION ?? '1.139.1',
    extensionDevelopmentPath: root,
    extensionTestsPath: join(root, 'out', 'test', 'vscode', 'suite', 'index'),
    extensionTestsEnv: { HEAPLENS_VSCODE_REPORT: report },
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
  });
  console.log(`desktop VS Code tests passed (report ${report})`);
} catch (e) {
  console.error(`desktop VS Code tests failed: ${e.message ?? e}`);
  process.exit(1);
}
