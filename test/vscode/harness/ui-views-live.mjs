// UI scenarios of issue 21's views on a *live* session and of the normalised diff, for ui.mjs's Workbench: the call
// tree table and the hot spots of the live view (opened from the status bar) grow while the program runs; a snapshot
// taken during a run is compared with the final profile as shares of each run's total and per call of a method.
// Screenshots in build/vscode-screenshots/.

import { liveFlameTreeAction, snapshotThenFinalProfile } from './ui-loop.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const visibleView = (wb) => wb.page.frameLocator('iframe.webview:visible').last().frameLocator('#active-frame');
const number = (t) => Number((/\d[\d,]*/.exec(t ?? '') ?? ['NaN'])[0].replace(/,/g, ''));

export const VIEW_LIVE_SCENARIOS = {
  async 'views live: the call tree table and the hot spots follow a running session (LiveDemo 20 s)'(wb) {
    const page = wb.page;
    await (await liveFlameTreeAction(wb, 'Profile Memory: LiveDemo 20 s')).click();
    await page.locator('.tab', { hasText: /\(live\)/ }).first().waitFor({ timeout: 15000 });
    const view = visibleView(wb);
    await view.locator('.flame-summary li[data-frame]').first().waitFor({ state: 'attached', timeout: 30000 });
    // the call tree table of live data: its first row's total allocations grow with the next updates
    await view.locator('#tab-calltree').click();
    const first = view.locator('.view-calltree .ct-row').first();
    await first.waitFor({ timeout: 30000 });
    const name = ((await first.locator('.ct-name').textContent()) ?? '').trim();
    const a = number(await first.locator('.ct-totalAllocations').textContent());
    console.log(`  live call tree, first read: ${name} ${a}`);
    if (!/^LiveDemo\./.test(name)) throw new Error(`the live call tree's first row is ${name}, expected LiveDemo.…`);
    await wb.shot('views-live-calltree-first');
    const b = await wb.waitFor('the live call tree to grow', async () => {
      const t = await view.locator('.view-calltree .ct-row').first().locator('.ct-totalAllocations').textContent({ timeout: 1000 }).catch(() => '');
      return number(t) > a ? number(t) : undefined;
    }, 20000);
    console.log(`  live call tree, later read: ${b}`);
    const rows = Number(await view.locator('.view-calltree .ct-scroll').getAttribute('data-rows'));
    if (!(rows > 1)) throw new Error(`the live call tree shows ${rows} rows`);
    await wb.shot('views-live-calltree-later');
    // hot spots of live data: the first type's allocations grow too; an opened type stays open across updates
    await view.locator('#tab-hotspots').click();
    const type = view.locator('.view-hotspots .hs-row.hs-level1').first();
    await type.waitFor({ timeout: 30000 });
    const typeName = ((await type.locator('.hs-name').textContent()) ?? '').trim();
    const c = number((await type.locator('.num').first().textContent()) ?? '');
    console.log(`  live hot spots, first read: ${typeName} ${c}`);
    await type.click();
    await view.locator('.view-hotspots .hs-row.hs-level2').first().waitFor({ timeout: 10000 });
    const d = await wb.waitFor('the live hot spots to grow', async () => {
      const t = await view.locator('.view-hotspots .hs-row.hs-level1').first().locator('.num').first().textContent({ timeout: 1000 }).catch(() => '');
      return number(t) > c ? number(t) : undefined;
    }, 20000);
    console.log(`  live hot spots, later read: ${d}`);
    if (await view.locator('.view-hotspots .hs-row.hs-level2').count() === 0) throw new Error('the opened type closed at a live update');
    await wb.shot('views-live-hotspots');
    await wb.waitFor('the LiveDemo session to end', async () => /profile saved to .*LiveDemo-\d{8}-\d{6}\.heaplens/.test(await wb.consoleText()), 90000);
  },

  async 'views: the normalised diff in VS Code — snapshot vs final as % of each run and per call of a method'(wb) {
    const page = wb.page;
    const { view } = await snapshotThenFinalProfile(wb);
    // Inverted: the page makes it from the built first tree (invert-built.ts); the load worker holds the call trees for
    // the other trees (the webview's CSP lets the worker run); the page says so on its body
    await view.locator('.view-flame label.toggle', { hasText: 'Inverted' }).locator('input').check();
    await view.locator('body[data-load-worker="running"]').waitFor({ state: 'attached', timeout: 30000 });
    await view.locator('.flame-summary li[data-frame]').first().waitFor({ state: 'attached', timeout: 30000 });
    console.log(`  inverted (the load worker running), top frame ${await view.locator('.flame-summary li[data-frame]').first().getAttribute('data-frame')}`);
    await wb.shot('views-inverted-by-worker');
    await view.locator('.view-flame label.toggle', { hasText: 'Inverted' }).locator('input').uncheck();
    await view.locator('#tab-diff').click();
    await view.locator('.view-diff button', { hasText: /baseline…/ }).click();
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: /snapshot 1 of this session/ }).first();
    await row.waitFor({ timeout: 10000 });
    await row.click();
    await wb.waitFor('the diff against the snapshot', async () => /^before: .*snapshot-1/.test((await view.locator('.view-diff .view-info').textContent({ timeout: 1000 }).catch(() => '')) ?? ''), 20000);
    // percent of each run's total: the table's columns are shares, the raw figures beside them
    await view.locator('.view-diff select[aria-label="Compare"]').selectOption('percent');
    const head = view.locator('.view-diff h2', { hasText: /Biggest changes by context \(total, % of total\)/ });
    await head.waitFor({ timeout: 10000 });
    const cells = await view.locator('.view-diff .table-wrap').first().locator('tbody tr').first().locator('td').allTextContents();
    console.log(`  % of total, first row: ${cells.join(' | ')}`);
    if (!cells.some((c) => /^\d+(\.\d+)? %$/.test(c.trim()))) throw new Error(`no share in the first row: ${cells.join(' | ')}`);
    if (!cells.some((c) => /→/.test(c))) throw new Error(`no absolute figures beside the shares: ${cells.join(' | ')}`);
    const legend = (await view.locator('.view-diff .legend').textContent()) ?? '';
    if (!/share of each run's total/.test(legend)) throw new Error(`the legend does not say what the colour means: ${legend}`);
    await sleep(500);
    await wb.shot('views-diff-percent');
    // per call of a method: a unit picker, and the figures per call
    await view.locator('.view-diff select[aria-label="Compare"]').selectOption('perCall');
    const unit = view.locator('.view-diff select[aria-label="Per call of"]');
    await unit.waitFor({ timeout: 10000 });
    const chosen = ((await unit.locator('option:checked').textContent()) ?? '').trim();
    await view.locator('.view-diff h2', { hasText: /Biggest changes by context \(total, per call of / }).waitFor({ timeout: 10000 });
    const legend2 = (await view.locator('.view-diff .legend').textContent()) ?? '';
    console.log(`  per call of ${chosen}; legend: ${legend2.slice(0, 80)}`);
    if (!/per call of/.test(legend2)) throw new Error(`the legend does not name the unit: ${legend2}`);
    await sleep(500);
    await wb.shot('views-diff-per-call');
  },
};
