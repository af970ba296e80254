// Runs the mocha suite (test/vscode/suite, compiled to out/) inside code-server's real Node extension
// host: the workbench honours extensionTestsPath in `payload` (smoke-test driver on) and calls
// window.codeAutomationExit(code) when run() settles.
import { existsSync, readFileSync, rmSync, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import { root } from '../../../scripts/lib.mjs';
import { launchBrowser, workbenchUrl } from './browser.mjs';

/** Resolves to { passed, failed, report }. */
export async function runExtensionTests(server, paths, folder, outDir, timeoutMs = 240000) {
  const report = join(outDir, 'ext-test-report.txt');
  rmSync(report, { force: true });
  const tests = join(root, 'out', 'test', 'vscode', 'suite', 'index');
  if (!existsSync(`${tests}.js`)) throw new Error(`${tests}.js is missing: compile the tests first (tsc -p tsconfig.test.json)`);
  const url = workbenchUrl(server, folder, [
    ['extensionTestsPath', tests],
    // HEAPLENS_HEAP_LAG_DUMP=FILE.hprof adds the measurement of test/vscode/suite/heap-lag.test.ts
    ['extensionEnvironment', JSON.stringify({
      HEAPLENS_VSCODE_REPORT: report, ...(process.env.HEAPLENS_HEAP_LAG_DUMP ? { HEAPLENS_HEAP_LAG_DUMP: process.env.HEAPLENS_HEAP_LAG_DUMP } : {}),
    })],
  ]);
  const wbLog = createWriteStream(join(outDir, 'ext-tests-workbench.log'));
  const browser = await launchBrowser(paths.chromium);
  let code = 1;
  try {
    const page = await browser.newPage();
    const done = new Promise((resolve) => { void page.exposeFunction('codeAutomationExit', (c) => resolve(c)); });
    await page.exposeFunction('codeAutomationLog', (type, args) => wbLog.write(`[${type}] ${format(...(args ?? []))}\n`));
    page.on('pageerror', (e) => wbLog.write(`[pageerror] ${e.message}\n`));
    await page.goto(url);
    code = await Promise.race([done, new Promise((r) => setTimeout(() => r('timeout'), timeoutMs))]);
    if (code === 'timeout') console.error(`extension tests: no result within ${timeoutMs / 1000} s`);
  } finally {
    await browser.close();
    wbLog.end();
  }
  const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
  process.stdout.write(text);
  const m = /^(\d+) passed, (\d+) failed/m.exec(text);
  const passed = m ? Number(m[1]) : 0;
  let failed = m ? Number(m[2]) : 0;
  if (!m || (code !== 0 && failed === 0)) failed += 1;
  return { passed, failed };
}
