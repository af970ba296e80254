// UI scenarios of the profiler views of issue 21 for ui.mjs's Workbench, on a real program's profile: the bench's
// H2 workload (org.h2.tools.RunScript on a generated script, scale 0.1) profiled with bin/heaplens into the
// workspace, then opened in the HeapLens editor. Call tree table (expand, keys, linked with the flame tree),
// callers & callees, hot spots by class with an opened back-trace, search that dims, the memory chart, and the
// state kept across hiding and showing the editor. Screenshots go to build/vscode-screenshots/.

import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../../../scripts/lib.mjs';
import { jars } from '../../../bench/workloads/common.mjs';
import { generateSql } from '../../../bench/prepare/gen-sql.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PROFILE = 'h2-views.heaplens';

/** Profiles H2 RunScript (the bench's h2 workload at scale 0.1) into the workspace, once. */
function profileH2(folder) {
  const out = join(folder, PROFILE);
  if (existsSync(out)) return out;
  const script = join(folder, 'h2-views.sql');
  writeFileSync(script, generateSql(0.1, 7));
  const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  execFileSync(process.execPath, [join(root, 'bin', 'heaplens'), 'run', '--java', java, '--out', out, '--',
    '-cp', jars('h2').join(':'), 'org.h2.tools.RunScript', '-url', 'jdbc:h2:mem:views', '-script', script], { stdio: 'inherit', cwd: folder });
  return out;
}

async function openProfile(wb) {
  await wb.openFile(PROFILE);
  const view = wb.page.frameLocator('iframe.webview:visible').last().frameLocator('#active-frame');
  await view.locator('.flame-summary li[data-frame]').first().waitFor({ state: 'attached', timeout: 60000 });
  return view;
}

export const VIEW_SCENARIOS = {
  async 'views: call tree table on H2 — sortable, expands, keys move, Enter shows the row in the flame tree'(wb) {
    profileH2(wb.folder);
    const view = await openProfile(wb);
    await view.locator('#tab-calltree').click();
    const rows = view.locator('.view-calltree .ct-row');
    await rows.first().waitFor({ timeout: 30000 });
    const first = ((await rows.first().locator('.ct-name').textContent()) ?? '').trim();
    console.log(`  first row: ${first}`);
    if (first !== 'RunScript.main') throw new Error(`the call tree's first row is ${first}, expected RunScript.main`);
    // the hottest path opens by itself: more rows than the root's children
    const shown = Number(await view.locator('.view-calltree .ct-scroll').getAttribute('data-rows'));
    if (!(shown > 10)) throw new Error(`only ${shown} rows: the hottest path did not open`);
    await wb.shot('views-calltree');
    // sort by self bytes: the header says so, the first row changes order below its parent
    await view.locator('.ct-head .ct-selfBytes').click();
    await view.locator('.ct-head .ct-selfBytes[aria-sort="descending"]').waitFor({ timeout: 10000 });
    await view.locator('.ct-head .ct-totalAllocations').click();
    // keys: select the first row, Down ×4, Right opens, Left closes
    await rows.first().click();
    for (let k = 0; k < 4; k++) await wb.page.keyboard.press('ArrowDown');
    const picked = view.locator('.view-calltree .ct-row.selected .ct-name');
    await picked.waitFor({ timeout: 10000 });
    const name = ((await picked.textContent()) ?? '').trim();
    console.log(`  selected with the keys: ${name}`);
    await wb.shot('views-calltree-keys');
    await wb.page.keyboard.press('Enter');
    // Enter: the flame tab, zoomed to the caller, the frame outlined and named in the status line for screen readers
    await view.locator('.view-flame:not([hidden])').waitFor({ timeout: 10000 });
    const crumbs = ((await view.locator('.view-flame .crumbs').textContent()) ?? '').replace(/\s+/g, ' ');
    console.log(`  flame breadcrumb: ${crumbs}`);
    if (!crumbs.includes('RunScript.process')) throw new Error(`the flame tree was not zoomed along the row's path: ${crumbs}`);
    await wb.shot('views-calltree-to-flame');
    // and back: the flame tree's selection is the table's selected row
    await view.locator('#tab-calltree').click();
    const again = ((await view.locator('.view-calltree .ct-row.selected .ct-name').textContent()) ?? '').trim();
    if (again !== name) throw new Error(`the table's selection is ${again} after the flame tree, expected ${name}`);
  },

  async 'views: callers & callees on H2 — B on a call tree row, then MVMap.operate from the method list'(wb) {
    const view = await openProfile(wb);
    // B on a row of the call tree: that row's method
    await view.locator('#tab-calltree').click();
    await view.locator('.view-calltree .ct-row').first().click();
    await wb.page.keyboard.press('b');
    await view.locator('#tab-butterfly[aria-selected="true"]').waitFor({ timeout: 10000 });
    await wb.waitFor('the summary of RunScript.main', async () => /^org\.h2\.tools\.RunScript\.main — /.test(((await view.locator('.view-butterfly .bf-summary').textContent()) ?? '').trim()), 20000);
    // then another method from the list
    const pick = view.locator('.view-butterfly input.bf-pick');
    await pick.fill('org.h2.mvstore.MVMap.operate');
    await pick.press('Enter');
    const summary = view.locator('.view-butterfly .bf-summary');
    await wb.waitFor('the summary of MVMap.operate', async () => /org\.h2\.mvstore\.MVMap\.operate — [\d,]+ allocations/.test((await summary.textContent()) ?? ''), 30000);
    console.log(`  ${(((await summary.textContent()) ?? '').replace(/\s+/g, ' ')).slice(0, 200)}`);
    const painted = await view.locator('.view-butterfly canvas').evaluateAll((cs) => cs.map((c) => Number(c.dataset.painted ?? 0)));
    if (!(painted.length === 2 && painted.every((n) => n >= 2))) throw new Error(`callers and callees canvases painted ${painted}`);
    await wb.shot('views-callers-callees');
  },

  async 'views: hot spots by class on H2 — byte[] → its sites → a back-trace opened to the callers'(wb) {
    const view = await openProfile(wb);
    await view.locator('#tab-hotspots').click();
    const type = view.locator('.view-hotspots .hs-row.hs-level1').first();
    await type.waitFor({ timeout: 30000 });
    console.log(`  first type: ${((await type.textContent()) ?? '').replace(/\s+/g, ' ').trim()}`);
    await type.click();
    const site = view.locator('.view-hotspots .hs-row.hs-level2').first();
    await site.waitFor({ timeout: 10000 });
    await site.click();
    const frame = view.locator('.view-hotspots .hs-row.hs-level3').first();
    await frame.waitFor({ timeout: 10000 });
    await frame.click();
    await view.locator('.view-hotspots .hs-row.hs-level4').first().waitFor({ timeout: 10000 });
    const site1 = ((await site.locator('.hs-name').textContent()) ?? '').trim();
    console.log(`  first site: ${site1}`);
    if (!/\.java:\d+\)$/.test(site1)) throw new Error(`the site has no file and line: ${site1}`);
    const levels = await view.locator('.view-hotspots .hs-row[aria-level]').evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('aria-level'))));
    if (new Set(levels.filter((l) => l === 2)).size === 0) throw new Error('no site rows');
    await wb.shot('views-hotspots');
  },

  async 'views: search dims what does not match and counts the matches; the memory chart of the run'(wb) {
    const view = await openProfile(wb);
    await view.locator('#tab-flame').click();
    await wb.searchFlame(view, 'MVMap');
    const note = (await view.locator('.view-flame .legend-note').textContent()) ?? '';
    if (!/every other frame dimmed/.test(note)) throw new Error(`the legend does not say that frames are dimmed: ${note}`);
    await wb.shot('views-search-dims');
    await view.locator('.view-flame input.search').fill('');
    await view.locator('#tab-memory').click();
    const summary = view.locator('.view-memory .mem-summary');
    await wb.waitFor('the memory summary', async () => /heap used peaked at/.test((await summary.textContent()) ?? ''), 20000);
    console.log(`  ${((await summary.textContent()) ?? '').slice(0, 200)}`);
    const bars = await view.locator('.view-memory svg.mem rect.mem-gc').count();
    if (bars < 1) throw new Error('no collection on the memory chart of an H2 run');
    await wb.shot('views-memory');
  },

  async 'views: the CodeLens "callers & callees" on WordIndex.tokenize opens the Callers & callees view on it'(wb) {
    const page = wb.page;
    await wb.startConfiguration('Profile Memory: WordIndex');
    await wb.waitFor('the WordIndex session to end', async () => /profile saved to .*WordIndex-\d{8}-\d{6}\.heaplens/.test(await wb.consoleText()), 90000);
    await wb.tryCommand('View: Hide Panel');
    await wb.openFile('WordIndex.java');
    await wb.goToLine(49);
    // the lens line of tokenize: its allocation lens and, beside it, "callers & callees"
    const line = page.locator('.monaco-editor .codelens-decoration').filter({ has: page.locator('a', { hasText: /^HeapLens: \d{2,3},\d{3} allocations/ }) }).first();
    await line.waitFor({ timeout: 30000 });
    const lens = line.locator('a', { hasText: 'callers & callees' });
    await lens.waitFor({ timeout: 10000 });
    await lens.click();
    await wb.waitFor('the Callers & callees panel', async () => (await page.locator('.tab', { hasText: /Callers & callees · WordIndex-/ }).count()) > 0, 20000);
    const view = page.frameLocator('iframe.webview:visible').last().frameLocator('#active-frame');
    await view.locator('#tab-butterfly[aria-selected="true"]').waitFor({ timeout: 30000 });
    const summary = view.locator('.view-butterfly .bf-summary');
    const text = await wb.waitFor('the summary of tokenize', async () => {
      const t = ((await summary.textContent()) ?? '').replace(/\s+/g, ' ');
      return /^demo\.WordIndex\.tokenize — [\d,]+ allocations/.test(t) && t;
    }, 20000);
    console.log(`  ${text.slice(0, 200)}`);
    await sleep(500);
    await wb.shot('views-codelens-callers-callees');
  },

  async 'views: the state survives hiding and showing the editor (tab, open rows, sort)'(wb) {
    const view = await openProfile(wb);
    await view.locator('#tab-calltree').click();
    await view.locator('.ct-head .ct-calls').click();      // sort by calls, descending
    await view.locator('.ct-head .ct-calls[aria-sort="descending"]').waitFor({ timeout: 10000 });
    const before = Number(await view.locator('.view-calltree .ct-scroll').getAttribute('data-rows'));
    // hide: another editor in front (the webview is disposed: retainContextWhenHidden is off), then show again
    await wb.palette('View: Toggle Output');
    await wb.openFile('h2-views.sql');
    await sleep(1000);
    await wb.openFile(PROFILE);
    const back = wb.page.frameLocator('iframe.webview:visible').last().frameLocator('#active-frame');
    await back.locator('#tab-calltree[aria-selected="true"]').waitFor({ timeout: 30000 });
    await back.locator('.ct-head .ct-calls[aria-sort="descending"]').waitFor({ timeout: 10000 });
    const after = Number(await back.locator('.view-calltree .ct-scroll').getAttribute('data-rows'));
    console.log(`  rows before hiding ${before}, after showing again ${after}`);
    if (after !== before) throw new Error(`the call tree showed ${before} rows before hiding and ${after} after`);
    await wb.shot('views-state-after-hide-show');
    await back.locator('.ct-head .ct-totalAllocations').click();
  },
};
