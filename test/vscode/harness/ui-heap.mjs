// UI scenario of the heap dumps (issue 10) for ui.mjs's Workbench: profile the static-map fixture, take a heap
// dump from the running session (click 1), click the leaked class in the Heap view's histogram (click 2): the
// paths from GC roots name Main.CACHE, HashMap.table and the array index. Screenshots in build/vscode-screenshots/.

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const HEAP_SCENARIOS = {
  async 'heap view: take a heap dump, click the leaked class, see its paths from GC roots'(wb) {
    await wb.palette('Notifications: Clear All Notifications');
    await wb.startConfiguration('Profile Memory: static map');
    await wb.waitFor('the program to be ready', async () => /staticmap: ready/.test(await wb.consoleText()), 60000);
    await wb.palette('HeapLens: Take Heap Dump');                                   // click 1
    const view = wb.page.frameLocator('iframe.webview').last().frameLocator('#active-frame');
    const row = view.locator('.view-heap .heap-histogram tbody tr', { hasText: /^staticmap\.Leaked/ }).first();
    await row.waitFor({ timeout: 60000 });
    await wb.shot('heap-view-histogram');
    await row.click();                                                                // click 2
    const first = view.locator('.heap-path').first();
    await first.waitFor({ timeout: 30000 });
    const text = (await first.textContent()) ?? '';
    console.log(`  first path: ${text}`);
    if (!/staticmap\.Main\.CACHE → java\.util\.HashMap\.table → java\.util\.HashMap\$Node\[\d+\] → .*staticmap\.Leaked$/.test(text)) {
      throw new Error(`unexpected path: ${text}`);
    }
    const title = (await view.locator('.heap-paths h2').first().textContent()) ?? '';
    if (!/Why is staticmap\.Leaked still alive\?.*of 200 objects/.test(title)) throw new Error(`unexpected title: ${title}`);
    await sleep(300);
    await wb.shot('heap-view-paths-to-roots');
    await wb.palette('Debug: Stop');
    await sleep(1000);
  },
};
