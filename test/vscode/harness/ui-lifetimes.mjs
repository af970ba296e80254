// UI scenario of the lifetime mode (issue 9) for ui.mjs's Workbench: profile the lifetimes fixture (copied into the
// workspace as src/lifetimes/Main.java) with "mode": "lifetime", open the saved profile's Lifetimes view — the
// HUP Figure 5 chart and the drag table with the dragged class lifetimes.Kept on top — then the fixture's source,
// where the Kept allocation line carries the Information diagnostic. Screenshots go to build/vscode-screenshots/.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProfileView, savedProfileName } from './run-profile.mjs';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'java', 'lifetimes', 'Main.java');
/** The line of `Holder.kept = new Kept(7);` in the fixture (read from it: the fixture grows). */
const KEPT_LINE = readFileSync(FIXTURE, 'utf8').split('\n').findIndex((l) => l.includes('Holder.kept = new Kept(7);')) + 1;
if (KEPT_LINE < 1) throw new Error(`no "Holder.kept = new Kept(7);" line in ${FIXTURE}`);

export const LIFETIME_SCENARIOS = {
  async 'lifetimes: the Lifetimes view shows the dragged class on top and the editor hints at its allocation line'(wb) {
    const page = wb.page;
    await wb.startConfiguration('Profile Memory: lifetimes');
    await wb.waitFor('the lifetimes session to end', async () => /profile saved to .*Main-\d{8}-\d{6}\.heaplens/.test(await wb.consoleText()), 180000);
    const view = await runProfileView(wb, await savedProfileName(wb, /Main-\d{8}-\d{6}\.heaplens/));   // opens by itself when the run ends
    await view.locator('#tab-lifetimes').click();
    await view.locator('.view-lifetimes svg.lt-area path.lt-drag').first().waitFor({ state: 'attached', timeout: 30000 });
    const first = view.locator('.view-lifetimes table.grid tbody tr').first();
    await first.waitFor({ timeout: 10000 });
    const top = ((await first.locator('td').first().textContent()) ?? '').trim();
    console.log(`  drag table, first row: ${top}`);
    if (top !== 'lifetimes.Kept') throw new Error(`the drag table's top row is ${top}, expected lifetimes.Kept`);
    const stat = (await view.locator('.lt-stat').textContent()) ?? '';
    if (!/Precision: unreachable objects were seen within/.test(stat)) throw new Error(`no precision in the stat line: ${stat}`);
    await first.click();
    await view.locator('.lt-pattern').first().waitFor({ timeout: 10000 });
    await wb.shot('lifetimes-view');

    // the source: an Information diagnostic on the Kept allocation line
    await wb.openFile('Main.java');
    await wb.goToLine(KEPT_LINE);
    // the diagnostic's hover on the line (an Information diagnostic has no squiggle class to wait for in every version)
    const text = await wb.hover('the diagnostic hover on the Kept line', 'Holder.kept = new Kept(7);', 'HeapLens lifetimes', 100);
    console.log(`  hover: ${text.replace(/\s+/g, ' ').slice(0, 220)}`);
    if (!/lifetimes\.Kept object\(s\) allocated here stayed reachable/.test(text)) throw new Error(`the diagnostic does not describe the drag: ${text}`);
    if (!/assigning null/.test(text) || !/not proof that the change is safe/.test(text)) throw new Error(`the diagnostic lacks the hint or its caveat: ${text}`);
    await wb.shot('lifetimes-diagnostic');
    await page.keyboard.press('Escape');
    const problems = page.locator('.composite-bar .action-item', { hasText: 'Problems' }).first();
    if (await problems.count()) {
      await problems.click();
      await wb.waitFor('the hint in the Problems panel', async () => /stayed reachable/.test(await wb.text('.markers-panel')), 10000);
      await wb.shot('lifetimes-problems');
    }
  },
};
