// UI scenarios of the installed product (issue 12) for ui.mjs's Workbench, run against the .vsix installed
// into a fresh profile: first HeapLens in the Extensions view with its icon and README, the Getting Started
// walkthrough with its five steps and pictures, and its "Check the Java Runtime" button; last, the
// walkthrough's pictures taken again from the real UI into build/vscode-screenshots/walkthrough/
// (`node scripts/walkthrough-media.mjs` copies them to media/walkthrough/).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const WALKTHROUGH_STEPS = [
  'A JDK 17 or newer',
  'Add a Profile Memory configuration',
  'Read the flame tree',
  'CodeLens and hot lines',
  'Accounts and lifetimes',
];

/** Quick Open (Ctrl+P) of a workspace file whose row shows `row`, through the harness's checked quick input. */
async function quickOpen(wb, text, row) {
  const input = await wb.openQuickInput('Control+P');
  await wb.typeInQuickInput(input, text);
  await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: row }).first().waitFor({ timeout: 20000 });
  await wb.enterInQuickInput(input);
  await sleep(500);
}

/** A picture of part of the workbench: the union of the elements' boxes. */
export async function picture(wb, name, selectors) {
  const boxes = [];
  for (const s of selectors) {
    const b = await wb.page.locator(s).first().boundingBox();
    if (!b) throw new Error(`no ${s} on screen for the picture ${name}`);
    boxes.push(b);
  }
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const clip = { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
  const dir = join(wb.shots, 'walkthrough');
  mkdirSync(dir, { recursive: true });
  await wb.page.screenshot({ path: join(dir, `${name}.png`), clip });
  console.log(`  picture ${join(dir, `${name}.png`)} (${Math.round(clip.width)}×${Math.round(clip.height)})`);
}

/** Runs a palette command whose row label is exactly `title` (no prefix matches of longer titles). */
const command = (wb, title) => wb.command(title);

export const PRODUCT_SCENARIOS = {
  async 'installed .vsix: HeapLens in the Extensions view, its page with icon and README'(wb) {
    const page = wb.page;
    await command(wb, 'Extensions: Show Installed Extensions');
    const item = page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'HeapLens — Java Memory Profiler' }).first();
    await item.waitFor({ timeout: 30000 });
    const text = ((await item.textContent()) ?? '').replace(/\s+/g, ' ');
    console.log(`  extensions view: ${text.slice(0, 160)}`);
    if (!/Exact allocation profiling for Java/.test(text)) throw new Error(`the installed extension's description is missing: ${text}`);
    await item.click();
    const editor = page.locator('.extension-editor');
    await editor.locator('.name', { hasText: 'HeapLens' }).first().waitFor({ timeout: 20000 });
    const icon = editor.locator('.icon-container img.icon').first();
    await icon.waitFor({ timeout: 10000 });
    const natural = await wb.waitFor('the icon to load', async () => {
      const w = await icon.evaluate((img) => img.naturalWidth).catch(() => 0);
      return w > 0 ? w : undefined;
    }, 10000);
    if (natural < 128) throw new Error(`the extension icon is ${natural} px wide`);
    // the README is rendered in a webview (webviews live in an overlay over the editor: the newest one)
    const readme = page.frameLocator('iframe.webview').last().frameLocator('#active-frame');
    await readme.locator('h1', { hasText: 'HeapLens' }).first().waitFor({ timeout: 20000 });
    await readme.locator('h2', { hasText: 'Getting started' }).first().waitFor({ timeout: 10000 });
    // (its pictures are relative links to media/walkthrough/: code-server's extension page does not load
    // them from a remote extension folder, so they are not asserted here; the walkthrough shows the same files)
    await sleep(800);
    await wb.shot('installed-extension-page');
    await command(wb, 'View: Close All Editors');
    await command(wb, 'View: Show Explorer');
  },

  async 'Getting Started walkthrough: five steps with pictures, "Check the Java Runtime" finds the JDK'(wb) {
    const page = wb.page;
    // room for the pictures: the walkthrough hides its media column in a narrow editor
    await wb.tryCommand('View: Close Primary Side Bar');
    if (await page.locator('.part.auxiliarybar').isVisible().catch(() => false)) await wb.tryCommand('View: Hide Secondary Side Bar');
    await command(wb, 'Welcome: Open Walkthrough...');
    const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started with HeapLens' }).first();
    await pick.waitFor({ timeout: 20000 });
    await pick.click();
    const titles = await wb.waitFor('the walkthrough steps', async () => {
      const t = (await page.locator('.gettingStartedContainer .getting-started-step .step-title').allTextContents()).map((x) => x.trim()).filter(Boolean);
      return t.length >= WALKTHROUGH_STEPS.length ? t : undefined;
    }, 30000);
    console.log(`  steps: ${titles.join(' | ')}`);
    if (JSON.stringify(titles) !== JSON.stringify(WALKTHROUGH_STEPS)) throw new Error(`walkthrough steps ${JSON.stringify(titles)}, expected ${JSON.stringify(WALKTHROUGH_STEPS)}`);
    // every step shows its own picture from the package (the image loads: complete, naturalWidth > 0)
    const files = ['jdk', 'configure', 'flame', 'editor', 'accounts'];
    for (const [i, title] of WALKTHROUGH_STEPS.entries()) {
      await page.locator('.gettingStartedContainer .getting-started-step', { hasText: title }).first().click();
      // (the picture's URL is a resource URL with the path encoded, set as a property: match currentSrc's file name)
      const w = await wb.waitFor(`the picture of "${title}"`, async () => {
        const n = await page.locator('.gettingStartedContainer img').evaluateAll((l, f) => {
          const img = l.find((x) => x.currentSrc.includes(f));
          return img && img.complete ? img.naturalWidth : 0;
        }, `${files[i]}.png`).catch(() => 0);
        return n > 0 ? n : undefined;
      }, 10000).catch(async (e) => {
        const srcs = await page.locator('.gettingStartedContainer img').evaluateAll((l) => l.map((x) => `${x.className}:${x.currentSrc.slice(-60)}`));
        throw new Error(`${e.message}; pictures shown: ${srcs.join(', ')}`);
      });
      console.log(`  step "${title}": media/walkthrough/${files[i]}.png loaded (${w} px)`);
      if (i === 2) await wb.shot('walkthrough-flame-step');
    }
    await page.locator('.gettingStartedContainer .getting-started-step', { hasText: WALKTHROUGH_STEPS[0] }).first().click();
    await sleep(500);
    await wb.shot('walkthrough');
    await page.locator('.gettingStartedContainer .getting-started-step.expanded a, .gettingStartedContainer .getting-started-step.expanded .button-link', { hasText: 'Check the Java Runtime' }).first().click();
    const text = await wb.waitFor('the Java check notification', async () => {
      const t = await wb.notifications();
      return /HeapLens will run Java \d+/.test(t) ? t : undefined;
    }, 20000);
    console.log(`  notification: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
    if (!/\((found on PATH|from JAVA_HOME)\)/.test(text)) throw new Error(`the check does not say where the JDK came from: ${text}`);
    await sleep(500);
    await wb.shot('walkthrough-check-java');
    await page.keyboard.press('Escape');
    await command(wb, 'Notifications: Clear All Notifications');
    await command(wb, 'View: Close All Editors');
    await command(wb, 'View: Show Explorer');
  },
};

export const PICTURE_SCENARIOS = {
  async 'walkthrough pictures from the real UI: CodeLens, JDK check, a session, flame tree, sites'(wb) {
    const page = wb.page;
    // CodeLens and hot lines: WordIndex.java as the editor scenario left it (its profile is the active one)
    await page.keyboard.press('Escape');
    await quickOpen(wb, 'WordIndex.java', 'WordIndex.java');
    await page.locator('.tabs-container .tab', { hasText: 'WordIndex.java' }).first().click();
    await command(wb, 'View: Close Other Editors in Group');
    await wb.tryCommand('View: Close Primary Side Bar');
    if (await page.locator('.part.auxiliarybar').isVisible().catch(() => false)) await wb.tryCommand('View: Hide Secondary Side Bar');
    await wb.tryCommand('View: Hide Panel');
    await page.locator('.tabs-container .tab', { hasText: 'WordIndex.java' }).first().click();
    // the editor scenario's WordIndex profile, chosen by name (later runs' profiles opened at their ends)
    await command(wb, 'HeapLens: Choose the Profile Shown in the Editor…');
    const profileRow = page.locator('.quick-input-list .monaco-list-row', { hasText: /WordIndex-\d{8}-\d{6}\.heaplens/ }).first();
    await profileRow.waitFor({ timeout: 10000 });
    await profileRow.click();
    await page.locator('.tabs-container .tab', { hasText: 'WordIndex.java' }).first().click();
    await wb.goToLine(71);
    await page.locator('.monaco-editor .codelens-decoration a:visible', { hasText: /^HeapLens: / }).first().waitFor({ timeout: 20000 });
    await sleep(800);
    await picture(wb, 'editor', ['.part.editor']);
    await command(wb, 'View: Close All Editors');
    // the JDK step: the notification of "Check the Java Runtime"
    await command(wb, 'Notifications: Clear All Notifications');
    await command(wb, 'HeapLens: Check the Java Runtime');
    await wb.waitFor('the Java check notification', async () => /HeapLens will run Java \d+/.test(await wb.notifications()), 20000);
    await sleep(400);
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'HeapLens will run Java' }).first();
    // the toast, or its row in the notification center (older notifications may stay there: not in the picture)
    await picture(wb, 'jdk', [(await toast.isVisible().catch(() => false)) ? '.notifications-toasts .notification-toast:has-text("HeapLens will run Java")'
      : '.notifications-center .monaco-list-row:has-text("HeapLens will run Java")']);
    await command(wb, 'Notifications: Clear All Notifications');
    // the configuration step: launch.json and a running session, its Debug Console and the status bar count
    await quickOpen(wb, 'launch.json', 'launch.json');
    await page.locator('.tabs-container .tab', { hasText: 'launch.json' }).first().waitFor({ timeout: 20000 });
    await wb.startConfiguration('Profile Memory');
    await wb.waitFor('program output', async () => /LiveDemo: second 2\b/.test(await wb.consoleText()), 60000);
    await wb.waitFor('the status bar count', async () => /objects/.test((await wb.statusText()) ?? ''), 10000);
    await picture(wb, 'configure', ['.part.editor', '.part.panel', '.part.statusbar']);
    await wb.waitFor('the end of the session', async () => /profile saved to/.test(await wb.consoleText()), 60000);
    await command(wb, 'Notifications: Clear All Notifications');
    await wb.tryCommand('View: Hide Panel');
    await command(wb, 'View: Close All Editors');
    // the flame tree and the sites of the WordIndex profile (two worker threads: a deeper tree)
    await command(wb, 'HeapLens: Open Profile…');
    const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: /WordIndex-\d{8}-\d{6}\.heaplens/ }).first();
    await pick.waitFor({ timeout: 10000 });
    await pick.click();
    const view = page.frameLocator('iframe.webview').last().frameLocator('#active-frame');
    await view.locator('.flame-summary li[data-frame]').first().waitFor({ state: 'attached', timeout: 30000 });
    await sleep(1000);
    await picture(wb, 'flame', ['.part.editor']);
    await view.locator('#tab-sites').click();
    await view.locator('.view-sites table.grid tbody tr').first().waitFor({ timeout: 10000 });
    await sleep(500);
    await picture(wb, 'sites', ['.part.editor']);   // (the walkthrough's accounts picture is the accounts scenario's)
    await command(wb, 'View: Close All Editors');
  },
};
