// UI scenario of the heap dumps (issue 10) for ui.mjs's Workbench: profile the static-map fixture, take a heap
// dump from the running session (click 1), click the leaked class in the Heap view's histogram (click 2): the
// paths from GC roots name Main.CACHE, HashMap.table and the array index. Then a ~110 MB dump read in the heap
// worker: its progress notification, Cancel, and a second read to the end. Screenshots in build/vscode-screenshots/.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../../../scripts/lib.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** "HeapLens: Open Heap Dump…" and the file typed into the open dialog (a quick input in the browser workbench). */
async function openDump(wb, file) {
  await wb.palette('HeapLens: Open Heap Dump');
  const input = wb.page.locator('.quick-input-widget input').first();
  await wb.waitFor('the open dialog', async () => (await input.isVisible().catch(() => false))
    && input.evaluate((el) => el === document.activeElement).catch(() => false), 20000);
  await sleep(500);
  await wb.typeInQuickInput(input, file);
  await sleep(500);
  await wb.enterInQuickInput(input);
}

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
    // the exact command (a fuzzy palette match once ran another one and the session went on), then its end
    await wb.command('Debug: Stop');
    await wb.waitFor('the session to end', async () => (await wb.statusText()) === undefined, 20000);
  },

  async 'heap view: a big dump is read in a worker: progress with MB read, Cancel stops it, a second read ends in the view'(wb) {
    // 1,500,000 items in maps, lists and a chain (bench/heap/BigHeap.java): a ~330 MB dump. 110 MB was read to the
    // end before the progress could be seen on an idle CI machine; this one takes several seconds there too.
    const dump = join(wb.folder, 'big.hprof');
    const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
    if (!existsSync(dump)) execFileSync(java, ['-Xmx4g', join(root, 'bench/heap/BigHeap.java'), dump, '1.5'], { stdio: 'inherit' });
    await wb.palette('Notifications: Clear All Notifications');
    await openDump(wb, dump);
    // the progress notification: a toast, or (when the workbench keeps it quiet: the bell gets a dot) in the
    // notification center, opened for it
    const toast = wb.page.locator('.notifications-toasts .notification-toast, .notifications-center .notification-list-item', { hasText: 'big.hprof' }).first();
    if (!(await toast.waitFor({ timeout: 1500 }).then(() => true, () => false))) {
      await wb.palette('Notifications: Show Notifications');
      await toast.waitFor({ timeout: 10000 });
    }
    const progress = await wb.waitFor('the notification to show the MB read', async () => {
      const t = (await toast.textContent({ timeout: 1000 }).catch(() => '')) ?? '';
      return /\(pass [12] of 2\): \d+ of \d+ MB/.test(t) && t;
    }, 20000);
    console.log(`  progress: ${progress.replace(/\s+/g, ' ').trim()}`);
    await wb.shot('heap-big-dump-progress');
    await toast.locator('.monaco-button', { hasText: 'Cancel' }).click();
    const note = await wb.waitFor('the status bar to say the read was cancelled', async () => {
      const t = await wb.text('.statusbar');
      return /reading .*big\.hprof was cancelled/.test(t) && t;
    }, 10000);
    console.log(`  status bar: ${/HeapLens: reading .*was cancelled/.exec(note)?.[0]}`);
    await wb.shot('heap-big-dump-cancelled');
    const view = wb.page.frameLocator('iframe.webview').last().frameLocator('#active-frame');
    if ((await view.locator('.view-heap', { hasText: 'big.hprof' }).count()) > 0) throw new Error('the cancelled dump is shown in the Heap view');

    await openDump(wb, dump);
    const row = view.locator('.view-heap .heap-histogram tbody tr', { hasText: /^BigHeap\$Item/ }).first();
    await row.waitFor({ timeout: 180000 });
    const text = (await row.textContent()) ?? '';
    if (!/^BigHeap\$Item\s*1,500,000/.test(text)) throw new Error(`unexpected histogram row: ${text}`);
    await sleep(300);
    await wb.shot('heap-big-dump-histogram');
  },
};
