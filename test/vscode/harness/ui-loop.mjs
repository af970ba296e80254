// UI scenarios of the run-to-profile loop (issue 19) for ui.mjs's Workbench: a run's profile opens in the
// HeapLens editor when it ends (no click), the live flame tree follows a running session from the status
// bar item, a snapshot survives its run and is diffed against the final profile, and F5 on a single Java
// file profiles the program, not javac. Screenshots in build/vscode-screenshots/.

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The visible HeapLens webview's document (hidden ones of earlier scenarios are skipped). */
const visibleView = (wb) => wb.page.frameLocator('iframe.webview:visible').last().frameLocator('#active-frame');

/** The first number of a text ("12,345 objects …" → 12345), NaN when there is none. */
const firstNumber = (t) => Number((/\d[\d,]*/.exec(t ?? '') ?? ['NaN'])[0].replace(/,/g, ''));

async function waitForSessionEnd(wb, name, ms) {
  await wb.waitFor(`the ${name} session to end`, async () => new RegExp(`profile saved to .*${name}-\\d{8}-\\d{6}\\.heaplens`).test(await wb.consoleText()), ms);
}

/**
 * Starts `configuration`, waits for the status bar's count and clicks it: the session's actions (never a silent
 * pause), the first being the live flame tree. Returns that action's row, not clicked yet.
 */
export async function liveFlameTreeAction(wb, configuration) {
  const page = wb.page;
  await wb.startConfiguration(configuration);
  const item = page.locator('.statusbar-item', { hasText: /HeapLens: .* objects/ }).first();
  await wb.waitFor('the status bar count', async () => /[1-9][\d.]*[kMG]? objects/.test((await item.textContent({ timeout: 1000 }).catch(() => '')) ?? ''), 60000);
  await item.click();
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Show Live Flame Tree' }).first();
  await row.waitFor({ timeout: 10000 });
  return row;
}

/**
 * Runs LiveDemo 12 s, takes a snapshot during its second 2 and waits for the run to end and its final profile to
 * open by itself in the HeapLens editor. Returns the snapshot's file name and the final profile's view.
 */
export async function snapshotThenFinalProfile(wb) {
  await wb.palette('Notifications: Clear All Notifications');
  await wb.startConfiguration('Profile Memory: LiveDemo 12 s');
  await wb.waitFor('the program to allocate', async () => /LiveDemo: second 2\b/.test(await wb.consoleText()), 60000);
  await wb.command('HeapLens: Take Snapshot');
  const snapshot = await wb.waitFor('the snapshot notification', async () => {
    const m = /snapshot 1 saved as (\S+\.snapshot-1-\d{6}\.heaplens)/.exec(await wb.notifications());
    return m?.[1];
  }, 20000);
  console.log(`  snapshot: ${snapshot}`);
  await waitForSessionEnd(wb, 'LiveDemo', 90000);
  await wb.page.locator('.tab', { hasText: /LiveDemo-\d{8}-\d{6}\.heaplens/ }).first().waitFor({ timeout: 20000 });
  const view = visibleView(wb);
  await view.locator('.flame-summary li[data-frame]').first().waitFor({ state: 'attached', timeout: 30000 });
  return { snapshot, view };
}

export const LOOP_SCENARIOS = {
  async 'loop: F5 → the run ends → its flame tree is open without a click; the console line is a link'(wb) {
    const page = wb.page;
    await wb.palette('Notifications: Clear All Notifications');
    await wb.startConfiguration('Profile Memory');
    await waitForSessionEnd(wb, 'LiveDemo', 90000);
    // no click, no command: the saved profile's editor tab and its flame tree
    const tab = page.locator('.tab', { hasText: /LiveDemo-\d{8}-\d{6}\.heaplens/ }).first();
    await tab.waitFor({ timeout: 20000 });
    const view = visibleView(wb);
    const top = view.locator('.flame-summary li[data-frame]').first();
    await top.waitFor({ state: 'attached', timeout: 30000 });
    const frame = await top.getAttribute('data-frame');
    console.log(`  opened by itself: ${((await tab.textContent()) ?? '').trim()}, top frame ${frame}`);
    if (!/^demo\.LiveDemo\./.test(frame ?? '')) throw new Error(`the opened profile's top frame is ${frame}, expected demo.LiveDemo.…`);
    // the Debug Console's "profile saved" line: its path is a link
    const link = page.locator('.repl .monaco-list-rows a', { hasText: /LiveDemo-\d{8}-\d{6}\.heaplens/ }).first();
    await link.waitFor({ timeout: 10000 });
    console.log(`  console link: ${(await link.textContent())?.trim()}`);
    await sleep(500);
    await wb.shot('loop-profile-opened-at-end');
  },

  async 'loop: the live flame tree from the status bar item updates during a 20 s run'(wb) {
    const page = wb.page;
    const row = await liveFlameTreeAction(wb, 'Profile Memory: LiveDemo 20 s');
    const actions = await page.locator('.quick-input-list .monaco-list-row .label-name').allTextContents();
    console.log(`  status bar actions: ${actions.join(' | ')}`);
    if (!actions.some((a) => /Pause Profiling/.test(a))) throw new Error(`no "Pause Profiling" among the actions: ${actions.join(' | ')}`);
    await wb.shot('loop-status-bar-actions');
    await row.click();
    await page.locator('.tab', { hasText: /\(live\)/ }).first().waitFor({ timeout: 15000 });
    const view = visibleView(wb);
    const top = view.locator('.flame-summary li[data-frame]').first();
    await top.waitFor({ state: 'attached', timeout: 30000 });
    const a = (await top.textContent()) ?? '';
    console.log(`  live, first read: ${a.slice(0, 100)}`);
    await wb.shot('loop-live-flame-first');
    const b = await wb.waitFor('the live flame tree to grow', async () => {
      const t = (await view.locator('.flame-summary li[data-frame]').first().textContent({ timeout: 1000 }).catch(() => '')) ?? '';
      return firstNumber(t) > firstNumber(a) ? t : undefined;
    }, 20000);
    console.log(`  live, later read: ${b.slice(0, 100)}`);
    await wb.shot('loop-live-flame-later');
    // Show Profile offers the same running session
    await wb.command('HeapLens: Show Profile');
    const live = page.locator('.quick-input-list .monaco-list-row', { hasText: 'running: live flame tree' }).first();
    await live.waitFor({ timeout: 10000 });
    // the session's own file, still being written, is the live row, not a saved profile
    const rows = await page.locator('.quick-input-list .monaco-list-row .label-name').allTextContents();
    const own = /LiveDemo-\d{8}-\d{6}\.heaplens/.exec(await wb.consoleText())?.[0];
    if (!own || rows.some((r) => r.includes(own))) throw new Error(`Show Profile lists the running session's file ${own}: ${rows.join(' | ')}`);
    await wb.shot('loop-show-profile-picker');
    await page.keyboard.press('Escape');
    await waitForSessionEnd(wb, 'LiveDemo', 90000);
  },

  async 'loop: a snapshot taken during the run survives it and diffs against the final profile'(wb) {
    const page = wb.page;
    const { view } = await snapshotThenFinalProfile(wb);
    // its Diff tab offers the snapshot as the baseline
    await view.locator('#tab-diff').click();
    await view.locator('.view-diff button', { hasText: 'Load baseline…' }).click();
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: /snapshot 1 of this session/ }).first();
    await row.waitFor({ timeout: 10000 });
    await wb.shot('loop-diff-baseline-picker');
    await row.click();
    const info = await wb.waitFor('the diff against the snapshot', async () => {
      const t = (await view.locator('.view-diff .view-info').textContent({ timeout: 1000 }).catch(() => '')) ?? '';
      return /^before: .*\.snapshot-1-\d{6}\.heaplens · after: LiveDemo-\d{8}-\d{6}\.heaplens/.test(t) ? t : undefined;
    }, 20000);
    console.log(`  diff: ${info}`);
    const m = /([\d,]+) → ([\d,]+)/.exec(info);
    const before = Number(m?.[1].replace(/,/g, ''));
    const after = Number(m?.[2].replace(/,/g, ''));
    if (!(before > 0 && after > before)) throw new Error(`the final profile should have more allocations than the snapshot: ${info}`);
    await sleep(500);
    await wb.shot('loop-diff-snapshot-vs-final');
  },

  async 'loop: F5 on a single Java file profiles the program, not javac'(wb) {
    const page = wb.page;
    await wb.openFile('WordIndex.java');
    await wb.startConfiguration('Profile Memory: current file');
    await wb.waitFor('the compile step in the Debug Console', async () => /compiled WordIndex\.java in \d+ ms; profiling demo\.WordIndex/.test(await wb.consoleText()), 60000);
    await waitForSessionEnd(wb, 'WordIndex', 90000);
    await page.locator('.tab', { hasText: /WordIndex-\d{8}-\d{6}\.heaplens/ }).first().waitFor({ timeout: 20000 });
    const view = visibleView(wb);
    const top = view.locator('.flame-summary li[data-frame]').first();
    await top.waitFor({ state: 'attached', timeout: 30000 });
    const frame = await top.getAttribute('data-frame');
    console.log(`  top frame: ${frame}`);
    if (!/^demo\.WordIndex\.main/.test(frame ?? '')) throw new Error(`the top frame is ${frame}, expected demo.WordIndex.main`);
    const search = view.locator('.view-flame input.search');
    const matches = async (text) => {
      await search.fill(text);
      await sleep(600);
      return ((await view.locator('.match-info').textContent()) ?? '').trim();
    };
    const own = await matches('WordIndex.tokenize');
    const javac = await matches('com.sun.tools.javac');
    console.log(`  search "WordIndex.tokenize": ${own}; "com.sun.tools.javac": ${javac}`);
    if (!/\d+ match/.test(own)) throw new Error(`the program's own method is not found: ${own}`);
    if (javac !== 'no match') throw new Error(`javac frames in the profile: ${javac}`);
    await wb.shot('loop-single-file-no-javac');
  },
};
