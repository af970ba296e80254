// UI scenario of memory accounts (issue 8) for ui.mjs's Workbench: profile the fixture server through
// "Profile Memory: server accounts" (accounts srv.http.* and srv.cache, exact liveness), open the saved profile,
// (it opens by itself when the run ends) and see the Accounts view: the leaking account srv.cache on top of the leak suspects; "Why is it still
// alive?" opens the Heap view on the dump written at exit, with the path through Cache.STORE. Screenshots go
// to build/vscode-screenshots/.

import { runProfileView, savedProfileName } from './run-profile.mjs';
import { picture } from './ui-product.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const ACCOUNTS_SCENARIOS = {
  async 'accounts: the Accounts view names the leaking account on top of the leak suspects'(wb) {
    await wb.palette('Notifications: Clear All Notifications');
    await wb.startConfiguration('Profile Memory: server accounts');
    // the counter shows the accounts' own figures (this mode records no call tree: never "0 objects")
    const counter = await wb.waitFor('the accounted figures in the status bar', async () => {
      const t = await wb.statusText();
      return /HeapLens: [1-9][\d.]*[kMG]? accounted · [\d.]+[kMG]? live/.test(t ?? '') ? t : undefined;
    }, 60000);
    console.log(`  status bar: ${counter}`);
    await wb.waitFor('the server session to end', async () => /profile saved to .*Main-\d{8}-\d{6}\.heaplens/.test(await wb.consoleText()), 120000);
    const saved = await savedProfileName(wb, /Main-\d{8}-\d{6}\.heaplens/);
    // room for the view: no secondary side bar, no panel
    if (await wb.page.locator('.part.auxiliarybar').isVisible().catch(() => false)) await wb.palette('View: Hide Secondary Side Bar').catch(() => undefined);
    await wb.palette('View: Hide Panel').catch(() => undefined);
    await sleep(300);
    // the run's profile opens by itself (the visible webview: earlier scenarios may have left others open, hidden)
    const view = await runProfileView(wb, saved);
    await view.locator('#tab-accounts').click();
    const firstSuspect = view.locator('.view-accounts table[aria-label="Leak suspects"] tbody tr').first();
    await firstSuspect.waitFor({ timeout: 30000 });
    const cells = await firstSuspect.locator('td').allTextContents();
    console.log(`  top suspect: ${cells.slice(0, 6).join(' | ')}`);
    if (cells[0] !== 'srv.cache') throw new Error(`the top leak suspect is in account ${cells[0]}, expected srv.cache`);
    const note = (await view.locator('.view-accounts .accounts-note').textContent()) ?? '';
    if (!/Live counts: exact/.test(note)) throw new Error(`the view does not say how live counts were taken: ${note}`);
    await view.locator('.view-accounts table[aria-label="Leak suspects"]').scrollIntoViewIfNeeded();
    await wb.shot('accounts-view-suspects');
    await picture(wb, 'accounts', ['.part.editor']);   // the walkthrough's "Accounts and lifetimes" picture
    await view.locator('.view-accounts').evaluate((e) => e.scrollIntoView());
    await view.locator('.view-accounts table[aria-label="Accounts"]').scrollIntoViewIfNeeded();
    await wb.shot('accounts-view-top');
    // "Why is it still alive?" (the second click after opening the tab): the heap dump the program wrote at exit,
    // the Heap view on the paths from GC roots to the suspect's class (issue 10)
    // the cache's own class (a JDK type such as byte[] has paths from everywhere, not only from the leak)
    const entryRow = wb.page.frameLocator('iframe.webview:visible').last().frameLocator('#active-frame')
      .locator('.view-accounts table[aria-label="Leak suspects"] tbody tr', { hasText: 'srv.cache.Entry' }).first();
    await entryRow.locator('button', { hasText: 'Why is it still alive?' }).click();
    const heap = wb.page.frameLocator('iframe.webview:visible').last().frameLocator('#active-frame');
    const path = heap.locator('.heap-path').first();
    await path.waitFor({ timeout: 60000 });
    const text = (await path.textContent()) ?? '';
    console.log(`  first path: ${text}`);
    const cls = 'srv.cache.Entry';
    const title = (await heap.locator('.heap-paths h2').first().textContent()) ?? '';
    if (!title.includes(`Why is ${cls} still alive?`)) throw new Error(`the Heap view is not on ${cls}: ${title}`);
    if (!/srv\.cache\.Cache\.STORE → java\.util\.HashMap\.table/.test(text)) {
      throw new Error(`the path from the GC roots to ${cls} does not go through srv.cache.Cache.STORE: ${text}`);
    }
    await sleep(300);
    await wb.shot('accounts-why-alive');
    // close the Heap view (the active editor): a second HeapLens webview would stand in front of later scenarios'
    await wb.palette('View: Close Editor');
    await sleep(500);
  },
};
