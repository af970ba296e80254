// UI scenario of Maven projects (issue 22) for ui.mjs's Workbench: the generated two-module Maven project
// (test/fixtures/maven/generate.mjs) opened as its own workspace, with no launch.json. F5 on app's Main.java
// compiles and resolves the project (Maven, offline), profiles acme.app.Main with the words module and commons-lang3
// on its class path, and the saved profile opens; then "Profile allocations" over CountTest.countsTwo runs that
// test through Surefire and opens its profile focused on the test method. The workbench goes back to the usual
// workspace afterwards. Screenshots in build/vscode-screenshots/.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateMavenProject } from '../../fixtures/maven/generate.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function openFolder(wb, folder) {
  const url = new URL(wb.page.url());
  url.searchParams.set('folder', folder);
  await wb.page.goto(url.toString());
  await wb.page.waitForSelector('.monaco-workbench', { timeout: 60000 });
  await wb.page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60000 });
  await sleep(2000);
}

export const MAVEN_SCENARIOS = {
  async 'Maven project: F5 with no launch.json profiles acme.app.Main; Profile allocations over a test'(wb) {
    const page = wb.page;
    const home = wb.folder;
    const folder = `${wb.folder}-maven`;
    rmSync(join(folder), { recursive: true, force: true });
    generateMavenProject(folder);
    try {
      await openFolder(wb, folder);
      await wb.openFile('Main.java');
      await page.locator('.monaco-editor .view-line', { hasText: 'public static void main' }).first().click();
      await page.keyboard.press('F5');
      // Maven compiles both modules and resolves the class path, then the program runs
      const text = await wb.waitFor('the session to end with a saved profile', async () => {
        const t = await wb.consoleText();
        return /profile saved to .*Main-\d{8}-\d{6}\.heaplens/.test(t) ? t : undefined;
      }, 180000);
      if (!/words: 3/.test(text)) throw new Error(`no program output in the Debug Console: ${text.slice(-400)}`);
      if (!/profiling acme\.app\.Main/.test(text)) throw new Error(`the session did not run acme.app.Main: ${text.slice(0, 400)}`);
      await wb.shot('maven-f5-session');
      // the "profile saved" notification's Open (the toast, or the notification center once the toast has gone)
      await wb.waitFor('the "profile saved" notification', async () => /profile saved to \.heaplens\/Main-/.test(await wb.notifications()), 20000);
      const open = page.locator('.notifications-toasts .notification-toast, .notifications-center .notification-list-item', { hasText: /profile saved to \.heaplens\/Main-/ })
        .locator('.monaco-button', { hasText: /^Open$/ }).first();
      await open.waitFor({ timeout: 10000 });
      await open.click();
      const view = page.frameLocator('iframe.webview').last().frameLocator('#active-frame');
      const top = view.locator('.flame-summary li[data-frame]').first();
      await top.waitFor({ state: 'attached', timeout: 30000 });
      const frame = await top.getAttribute('data-frame');
      console.log(`  top frame of the F5 profile: ${frame}`);
      if (!/^acme\.app\.Main\./.test(frame ?? '')) throw new Error(`the profile's top frame is ${frame}, expected acme.app.Main.…`);
      await sleep(1000);
      await wb.shot('maven-f5-profile');

      await wb.command('View: Close All Editors');
      await wb.tryCommand('View: Hide Panel');
      await wb.openFile('CountTest.java');
      const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: /^Profile allocations$/ });
      await wb.waitFor('three "Profile allocations" lenses (the class and its two tests)', async () => (await lens.count()) === 3, 30000);
      await wb.shot('maven-test-lenses');
      // the lenses in line order: the class, countsThree, countsTwo
      await lens.nth(2).click();
      await wb.waitFor('the panel focused on CountTest.countsTwo', async () => (await page.locator('.tab', { hasText: /CountTest\.countsTwo · / }).count()) > 0, 180000);
      const focused = page.frameLocator('iframe.webview').last().frameLocator('#active-frame');
      const root = focused.locator('.flame-summary li[data-frame]').first();
      await root.waitFor({ state: 'attached', timeout: 30000 });
      const rootFrame = await root.getAttribute('data-frame');
      console.log(`  top frame of the test's profile: ${rootFrame}`);
      if (!/^acme\.app\.CountTest\.countsTwo/.test(rootFrame ?? '')) throw new Error(`the test's profile is focused on ${rootFrame}, expected acme.app.CountTest.countsTwo`);
      await sleep(1500);
      await wb.shot('maven-test-profile');
    } finally {
      await openFolder(wb, home).catch(() => undefined);
    }
  },
};
