// UI scenario of the hot lines on code that allocates only through JDK calls (issue 19) for ui.mjs's Workbench:
// the jdklines fixture (test/fixtures/java/jdklines, numbers derived in test/e2e/jdklines.test.ts) is copied into
// the workspace as src/jdklines/Main.java and profiled with `heaplens run` on JDK 17 into the workspace's
// .heaplens/ folder; the profile is opened from Quick Open (the HeapLens editor), then the source. The `line.split(",")`
// line, which has no `new` of its own, must be hot line 1 with its figure and what String.split allocated in its
// hover. Screenshots go to build/vscode-screenshots/.

import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'java', 'jdklines', 'jdklines', 'Main.java');
const SPLIT = 'String[] parts = line.split(",");';
/** The line of the split() call in the fixture (read from it, should the fixture grow). */
const SPLIT_LINE = readFileSync(FIXTURE, 'utf8').split('\n').findIndex((l) => l.includes(SPLIT)) + 1;
if (SPLIT_LINE < 1) throw new Error(`no "${SPLIT}" line in ${FIXTURE}`);
/** parse() runs 1003 times (3 warm-up calls and 1000), 10 allocations each inside String.split (jdklines.test.ts). */
const SPLIT_ALLOCATIONS = '10,030';

/** Compiles and profiles the fixture with the repository's CLI; returns the profile's file name in .heaplens/. */
function profileFixture(folder) {
  const src = join(folder, 'src', 'jdklines');
  mkdirSync(src, { recursive: true });
  cpSync(FIXTURE, join(src, 'Main.java'));
  const classes = mkdtempSync(join(tmpdir(), 'heaplens-jdklines-'));
  try {
    execFileSync('javac', ['--release', '17', '-g', '-d', classes, join(src, 'Main.java')], { stdio: 'inherit' });
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    const name = `jdklines-${stamp}.heaplens`;
    mkdirSync(join(folder, '.heaplens'), { recursive: true });
    execFileSync(process.execPath, [join(ROOT, 'bin', 'heaplens'), 'run', '--java', '/usr/bin/java', '--out', join(folder, '.heaplens', name),
      '--', '-cp', classes, 'jdklines.Main'], { stdio: 'inherit', timeout: 120000 });
    return name;
  } finally {
    rmSync(classes, { recursive: true, force: true });
  }
}

export const LINES_SCENARIOS = {
  async 'hot lines: a line that allocates only inside JDK calls is hot line 1, its hover says what String.split made'(wb) {
    const page = wb.page;
    const name = profileFixture(wb.folder);
    // the profile in the HeapLens editor (Quick Open, as a user opens any file): the editor's active profile
    await wb.openFile(name);
    const view = page.frameLocator('iframe.webview:visible').last().frameLocator('#active-frame');
    await view.locator('.flame-summary li[data-frame]').first().waitFor({ state: 'attached', timeout: 60000 });
    await wb.shot('lines-profile-open');
    // room for the code: no secondary side bar, no panel
    if (await page.locator('.part.auxiliarybar').isVisible().catch(() => false)) await wb.tryCommand('View: Hide Secondary Side Bar');
    await wb.tryCommand('View: Hide Panel');
    // Quick Open by path: the workspace has other Main.java files
    await wb.openFile('jdklines/Main.java');
    await wb.goToLine(SPLIT_LINE);
    await page.locator('.monaco-editor .view-overlays .cdr, .monaco-editor .margin-view-overlays .cgmr').first().waitFor({ timeout: 20000 });
    await sleep(500);
    await wb.shot('lines-jdk-only-hot-line');
    const text = (await wb.hover('the hot-line hover on the split() line', SPLIT, 'hot allocation line', 80)).replace(/\s+/g, ' ');
    console.log(`  hover: ${text.slice(0, 300)}`);
    if (!/hot allocation line 1 of \d+/.test(text)) throw new Error(`the split() line is not hot line 1: ${text.slice(0, 300)}`);
    if (!text.includes(`${SPLIT_ALLOCATIONS} allocations`)) throw new Error(`the hover does not say ${SPLIT_ALLOCATIONS} allocations: ${text.slice(0, 300)}`);
    if (!/inside String\.split: byte\[\] 3,009, String 3,009, Object\[\] 1,003, String\[\] 1,003/.test(text)) {
      throw new Error(`the hover does not say what String.split allocated: ${text}`);
    }
    await wb.shot('lines-jdk-only-hover');
    await page.keyboard.press('Escape');
  },
};
