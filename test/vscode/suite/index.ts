// The extension test entry (`run()`), loaded by the extension host when extensionTestsPath points here:
// the same suite runs in code-server (test/vscode/harness) and under @vscode/test-electron on a desktop
// (`npm run test:desktop`). The report also goes to $HEAPLENS_VSCODE_REPORT, because the host's console
// output does not reach the terminal in code-server.
import * as fs from 'fs';
import * as path from 'path';
import * as util from 'util';
import Mocha = require('mocha');

export function run(): Promise<void> {
  const report = process.env.HEAPLENS_VSCODE_REPORT;
  if (report) fs.writeFileSync(report, '');
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...a: unknown[]) => void };
  const original = base.consoleLog;
  base.consoleLog = (...args: unknown[]): void => {
    if (report) fs.appendFileSync(report, `${util.format(...args)}\n`);
    original(...args);
  };
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60000, reporter: 'spec' });
  for (const f of fs.readdirSync(__dirname).sort()) {
    if (f.endsWith('.test.js')) mocha.addFile(path.join(__dirname, f));
  }
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const s = runner.stats!;
      const line = `${s.passes} passed, ${s.failures} failed${s.pending ? `, ${s.pending} skipped` : ''}`;
      if (report) fs.appendFileSync(report, `${line}\n`);
      base.consoleLog = original;
      if (failures > 0) reject(new Error(`${failures} tests failed`));
      else resolve();
    });
  });
}
