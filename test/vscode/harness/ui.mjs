// UI scenarios in the real workbench (Playwright on Debian's Chromium): the user's path through
// "Profile Memory". Each scenario takes screenshots into build/vscode-screenshots/.
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, workbenchUrl } from './browser.mjs';
import { ACCOUNTS_SCENARIOS } from './ui-accounts.mjs';
import { EDITOR_SCENARIOS } from './ui-editor.mjs';
import { HEAP_SCENARIOS } from './ui-heap.mjs';
import { JFR_SCENARIOS } from './ui-jfr.mjs';
import { LIFETIME_SCENARIOS } from './ui-lifetimes.mjs';
import { LINES_SCENARIOS } from './ui-lines.mjs';
import { LOOP_SCENARIOS } from './ui-loop.mjs';
import { MAVEN_SCENARIOS } from './ui-maven.mjs';
import { PICTURE_SCENARIOS, PRODUCT_SCENARIOS } from './ui-product.mjs';
import { VIEW_SCENARIOS } from './ui-views.mjs';
import { VIEW_LIVE_SCENARIOS } from './ui-views-live.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class Workbench {
  constructor(page, shots) {
    this.page = page;
    this.shots = shots;
    this.n = 0;
  }

  async shot(name) {
    const file = join(this.shots, `${String(++this.n).padStart(2, '0')}-${name}.png`);
    await this.page.screenshot({ path: file });
    console.log(`  screenshot ${file}`);
  }

  /**
   * Opens a quick input (F1, Ctrl+P, Ctrl+G …) and returns its text box once the harness has seen it open
   * and holding the focus. Keys are never typed blind: a quick input still closing from the previous
   * command, or one that never opened, would send them to the editor underneath (that once typed ":71"
   * into a source file, and a later scenario's compile step failed on it).
   */
  async openQuickInput(keys, timeout = 20000) {
    const page = this.page;
    const input = page.locator('.quick-input-widget input').first();
    const open = async () => (await input.isVisible().catch(() => false)) && input.evaluate((el) => el === document.activeElement).catch(() => false);
    const t0 = Date.now();
    for (let attempt = 1; ; attempt++) {
      await page.keyboard.press('Escape');
      await page.locator('.quick-input-widget').first().waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
      await this.focusWorkbench();
      await page.keyboard.press(keys);
      // a key sent while a webview held the focus can be lost on its way to the workbench: press it again
      const last = Date.now() - t0 > timeout - 5000 || attempt === 4;
      const ok = await this.waitFor(`the quick input (${keys}) to open with the focus`, open, last ? Math.max(5000, timeout - (Date.now() - t0)) : 5000)
        .then(() => true, (e) => { if (last) throw e; return false; });
      if (ok) return input;
    }
  }

  /**
   * Takes the keyboard focus from a webview (a HeapLens editor opened at a run's end): keys pressed while one of
   * its frames holds the focus go to the frame, and F1 or Ctrl+P may then never reach the workbench.
   */
  async focusWorkbench() {
    const inWebview = await this.page.evaluate(() => {
      const el = document.activeElement;
      if (el && el.tagName === 'IFRAME') {
        el.blur();
        return true;
      }
      return false;
    }).catch(() => false);
    if (inWebview) await sleep(100);
  }

  /** Types `text` into the open quick input and checks it arrived there (and nowhere else). */
  async typeInQuickInput(input, text) {
    await input.fill(text);
    const value = await input.inputValue();
    const focused = await input.evaluate((el) => el === document.activeElement).catch(() => false);
    if (value !== text || !focused) throw new Error(`the quick input did not take "${text}" (it holds "${value}", focused: ${focused})`);
  }

  /** Enter, only while the quick input holds the focus. */
  async enterInQuickInput(input) {
    if (!(await input.evaluate((el) => el === document.activeElement).catch(() => false))) {
      throw new Error('the quick input lost the focus before Enter');
    }
    await this.page.keyboard.press('Enter');
  }

  async palette(text) {
    const page = this.page;
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
    // A palette opened while the previous command's quick input is still closing can lose the typed text (the
    // list then shows every command, seen once in CI): type again in a fresh palette, up to four times.
    for (let attempt = 1; ; attempt++) {
      const input = await this.openQuickInput('F1');
      await input.fill(`>${text}`);
      const found = await row.waitFor({ timeout: 5000 }).then(() => true, () => false);
      if (found && (await input.inputValue()) === `>${text}`) {
        await this.enterInQuickInput(input);
        return;
      }
      if (attempt === 4) throw new Error(`the command palette has no "${text}" (typed: "${await input.inputValue()}")`);
      await sleep(500);
    }
  }

  /** Runs a palette command whose row label is exactly `title` (no prefix matches of longer titles). */
  async command(title) {
    const page = this.page;
    const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    // The palette lists the commands registered when it opened: right after the workbench loads, a contribution's
    // commands (the Extensions view's) can still be missing (seen in a clean CI run), so open it again, which lists
    // them again, until the row is there.
    for (let attempt = 1; ; attempt++) {
      const last = attempt === 3;
      const input = await this.openQuickInput('F1');
      await this.typeInQuickInput(input, `>${title}`);
      const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exact }) }).first();
      const found = await row.waitFor({ timeout: last ? 20000 : 10000 }).then(() => true, (e) => { if (last) throw e; return false; });
      if (found) {
        await row.click();
        return;
      }
      await page.keyboard.press('Escape');
      await sleep(1000);
    }
  }

  /** Quick Open (Ctrl+P): the workspace file `name` in the active editor. */
  async openFile(name, tab = name.split('/').pop()) {
    const page = this.page;
    // A file written a moment ago outside VS Code (a profile the scenario just made) can be missing from Quick
    // Open's first search ("No matching results"), and an Enter can be lost while a webview takes the focus (both
    // seen in clean CI runs): open Quick Open again, which searches again, until the file's tab is active.
    // The top row is clicked once it shows the file, not chosen with Enter: Enter takes the row focused at that
    // instant, which can still be another file's while the search runs (a CI run never got the tab in three tries).
    for (let attempt = 1; ; attempt++) {
      const last = attempt === 3;
      const input = await this.openQuickInput('Control+P');
      await this.typeInQuickInput(input, name);
      // the list's top row (the best match, what Enter would take), once it is the file's
      const row = page.locator('.quick-input-list .monaco-list-row[data-index="0"]', { hasText: tab }).first();
      const found = await row.waitFor({ timeout: 20000 }).then(() => true, (e) => { if (last) throw e; return false; });
      if (found) {
        await row.click();
        const open = await page.locator('.tab.active', { hasText: tab }).waitFor({ timeout: last ? 20000 : 10000 })
          .then(() => true, () => false);
        if (open) return;
        if (last) throw new Error(`"${name}" did not become the active tab; ${await this.describeTabs()}`);
      }
      await page.keyboard.press('Escape');
      await sleep(2000);
    }
  }

  /** The open tabs (the active ones marked *) and the notifications on screen: what a failed wait saw. */
  async describeTabs() {
    const page = this.page;
    const tabs = await page.locator('.tab').evaluateAll((els) => els.map((e) =>
      `${e.classList.contains('active') ? '*' : ''}${(e.getAttribute('aria-label') ?? e.textContent ?? '').trim()}`));
    const notes = await page.locator('.notification-list-item-message').allTextContents().catch(() => []);
    return `tabs: ${tabs.join(' | ') || 'none'}; notifications: ${notes.join(' | ') || 'none'}`;
  }

  /** Go to Line (Ctrl+G) in the active editor; the editor's cursor must then be on that line. */
  async goToLine(line) {
    const page = this.page;
    const input = await this.openQuickInput('Control+G', 10000);
    await this.typeInQuickInput(input, `:${line}`);
    await sleep(200);
    await this.enterInQuickInput(input);
    await page.locator('.quick-input-widget').first().waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
    await sleep(200);
  }

  /** Runs a command by its palette title when it exists (layout command titles differ between versions). */
  async tryCommand(title) {
    const page = this.page;
    const input = await this.openQuickInput('F1', 10000);
    await this.typeInQuickInput(input, `>${title}`);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    const found = await row.waitFor({ timeout: 3000 }).then(() => true, () => false);
    if (found) await this.enterInQuickInput(input);
    else await page.keyboard.press('Escape');
    await sleep(300);
  }

  /** The "debug " quick access (as in Ctrl+P, "debug "), then the configuration whose label is exactly `name`. */
  async startConfiguration(name) {
    const page = this.page;
    const input = await this.openQuickInput('F1');
    const exact = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exact }) }).first();
    // Right after start-up the launch configurations may not be known yet ("No matching launch configurations").
    await this.waitFor(`the launch configuration "${name}"`, async () => {
      await input.fill('');
      await this.typeInQuickInput(input, `debug ${name}`);
      await sleep(300);
      return (await row.count()) > 0;
    }, 30000);
    await row.click();
  }

  async statusText() {
    const item = this.page.locator('.statusbar-item', { hasText: 'HeapLens:' }).first();
    if (await item.count() === 0) return undefined;
    // the item can go between the two calls (a session ending): then it is gone, not a 30 s wait
    return (await item.textContent({ timeout: 1000 }).catch(() => undefined))?.trim();
  }

  async waitFor(what, fn, ms = 30000) {
    const t0 = Date.now();
    for (;;) {
      const v = await fn();
      if (v) {
        if (process.env.HEAPLENS_VSCODE_VERBOSE) console.log(`    (${what}: ${Date.now() - t0} ms)`);
        return v;
      }
      if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
      await sleep(100);
    }
  }

  /**
   * Hovers the editor line that shows `lineText` (at `x` pixels into it) until a hover that shows `hoverText`
   * opens; its text. Moving away first makes the editor open the hover again on each try.
   */
  async hover(what, lineText, hoverText, x = 60) {
    const line = this.page.locator('.monaco-editor .view-line', { hasText: lineText }).first();
    const hover = this.page.locator('.monaco-hover', { hasText: hoverText }).first();
    await this.waitFor(what, async () => {
      await this.page.mouse.move(5, 5);
      await line.hover({ position: { x, y: 5 } });
      return hover.waitFor({ state: 'visible', timeout: 3000 }).then(() => true, () => false);
    }, 30000);
    return (await hover.textContent()) ?? '';
  }

  /** Types `text` into the search box of the flame tree in `view` (a frame locator); the match count it shows. */
  async searchFlame(view, text) {
    await view.locator('.view-flame input.search').fill(text);
    const info = await this.waitFor('search matches', async () => {
      const t = (await view.locator('.match-info').textContent()) ?? '';
      return /\d+ match/.test(t) ? t : undefined;
    }, 10000);
    console.log(`  search "${text}": ${info}`);
    return info;
  }

  /** textContent of the first match, '' when there is none (without Playwright's 30 s auto-wait). */
  async text(selector) {
    const l = this.page.locator(selector).first();
    if (await l.count() === 0) return '';
    return (await l.textContent({ timeout: 1000 }).catch(() => '')) ?? '';
  }

  async consoleText() {
    return this.text('.repl .monaco-list-rows');
  }

  /** Text of the notification toasts and, when none is visible, of the notification center (opened for it). */
  async notifications() {
    const toasts = await this.text('.notifications-toasts');
    if (toasts.trim()) return toasts;
    const center = this.page.locator('.notifications-center');
    if (!(await center.isVisible().catch(() => false))) {
      await this.palette('Notifications: Show Notifications');
      await sleep(300);
    }
    return this.text('.notifications-center');
  }
}

function count(statusText) {
  const m = /([\d.]+)([kMGT]?) objects/.exec(statusText ?? '');
  if (!m) return -1;
  return Number(m[1]) * ({ '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12 })[m[2]];
}

const SCENARIOS = {
  async 'profile the sample: output, live count, pause/resume, saved profile listed'(wb) {
    await wb.startConfiguration('Profile Memory');
    await wb.waitFor('program output in the Debug Console', async () => /LiveDemo: second 1\b/.test(await wb.consoleText()), 60000);
    const a = await wb.waitFor('the status bar count', async () => { const t = await wb.statusText(); return count(t) > 0 ? t : undefined; });
    console.log(`  status bar: ${a}`);
    await wb.shot('profiling-console-and-status');
    const b = await wb.waitFor('the count to rise', async () => { const t = await wb.statusText(); return count(t) > count(a) ? t : undefined; }, 15000);
    console.log(`  status bar: ${b}`);
    await wb.palette('HeapLens: Pause Profiling');
    const p = await wb.waitFor('paused in the status bar', async () => { const t = await wb.statusText(); return /paused/.test(t ?? '') ? t : undefined; }, 10000);
    console.log(`  status bar: ${p}`);
    await wb.shot('paused');
    await wb.palette('HeapLens: Resume Profiling');
    const r = await wb.waitFor('resumed', async () => { const t = await wb.statusText(); return /obj\/s/.test(t ?? '') ? t : undefined; }, 10000);
    console.log(`  status bar: ${r}`);
    const text = await wb.waitFor('the end of the session', async () => { const t = await wb.consoleText(); return /profile saved to/.test(t) ? t : undefined; }, 60000);
    if (!/The program exited with code 0/.test(text)) throw new Error(`no exit code in the Debug Console: ${text.slice(-400)}`);
    await wb.waitFor('the status bar item to go', async () => (await wb.statusText()) === undefined, 10000);
    await wb.waitFor('the "profile saved" notification', async () => /profile saved to \.heaplens\/LiveDemo-/.test(await wb.notifications()), 10000);
    await wb.shot('session-ended-profile-saved');
    await wb.palette('HeapLens: Open Profile…');
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: /LiveDemo-\d{8}-\d{6}\.heaplens/ }).first().waitFor({ timeout: 10000 });
    await wb.shot('recent-profiles');
    await wb.page.keyboard.press('Escape');
  },

  async 'a wrong main class shows the clear error'(wb) {
    await wb.palette('Notifications: Clear All Notifications');
    await wb.startConfiguration('Profile Memory: wrong main class');
    const clear = /Main class "demo\.Nope" was not found on the classpath/;
    const text = await wb.waitFor('the error notification', async () => {
      const t = await wb.notifications();
      return clear.test(t) ? t : undefined;
    }, 30000);
    console.log(`  notification: ${text.slice(0, 200)}`);
    await wb.waitFor('the message in the Debug Console', async () => clear.test(await wb.consoleText()), 10000);
    // show the whole message: select the notification and expand it (→)
    const row = wb.page.locator('.notifications-center .monaco-list-row, .notifications-toasts .notification-toast', { hasText: 'was not found' }).first();
    if (await row.count()) {
      await row.click({ position: { x: 60, y: 12 } }).catch(() => undefined);
      await wb.page.keyboard.press('ArrowRight');
      await sleep(300);
    }
    await wb.shot('wrong-main-class');
  },

  async 'the saved profile opens in the HeapLens editor: flame tree, search, sites, light and dark'(wb) {
    // the first scenario saved .heaplens/LiveDemo-….heaplens; Open Profile opens it with the custom editor
    await wb.palette('HeapLens: Open Profile…');
    const row = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: /LiveDemo-\d{8}-\d{6}\.heaplens/ }).first();
    await row.waitFor({ timeout: 10000 });
    await row.click();
    const view = wb.page.frameLocator('iframe.webview').last().frameLocator('#active-frame');
    const top = view.locator('.flame-summary li[data-frame]').first();
    await top.waitFor({ state: 'attached', timeout: 30000 });
    const frame = await top.getAttribute('data-frame');
    console.log(`  top frame: ${frame}`);
    if (!/^demo\.LiveDemo\./.test(frame ?? '')) throw new Error(`the flame tree's top frame is ${frame}, expected demo.LiveDemo.…`);
    const painted = Number(await view.locator('.view-flame canvas').getAttribute('data-painted'));
    if (!(painted > 0)) throw new Error('nothing painted on the flame canvas');
    await wb.shot('profile-editor-flame');
    await wb.searchFlame(view, 'LiveDemo.index');
    await wb.shot('profile-editor-search');
    await view.locator('#tab-sites').click();
    await view.locator('.view-sites table.grid tbody tr').first().waitFor({ timeout: 10000 });
    await wb.shot('profile-editor-sites');
    await view.locator('#tab-flame').click();
    const theme = async (name) => {
      const page = wb.page;
      await wb.command('Preferences: Color Theme');
      const input = page.locator('.quick-input-widget input').first();
      await wb.waitFor('the theme picker', async () => input.evaluate((el) => el === document.activeElement).catch(() => false), 10000);
      await wb.typeInQuickInput(input, name);
      const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }) }).first();
      await row.waitFor({ timeout: 10000 });
      await row.click();
      await sleep(1500);
    };
    await theme('Light Modern');
    await wb.shot('profile-editor-light');
    await theme('Dark Modern');
    await wb.shot('profile-editor-dark');
  },
};

/** What a scenario may edit (sources, launch and task files): copied aside once, restored before each scenario. */
const EDITABLE = ['src', '.vscode'];

function keepPristine(folder) {
  const copy = `${folder}.pristine`;
  rmSync(copy, { recursive: true, force: true });
  for (const d of EDITABLE) cpSync(join(folder, d), join(copy, d), { recursive: true });
  return copy;
}

/**
 * Each scenario starts from the workspace as prepared: no editor open (an unsaved change is discarded) and the
 * sources and launch files as they were, so that nothing one scenario typed can break the next one's compile
 * step. What the runs wrote (.heaplens/, dumps) stays: later scenarios open earlier profiles, as a user would.
 */
async function startPristine(wb, folder, pristine) {
  // a modal dialog left by the previous scenario would take every key: answer it "Cancel"
  const cancel = wb.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Cancel$/ }).first();
  if (await cancel.isVisible().catch(() => false)) {
    console.log(`  (a dialog was left open: ${(await wb.text('.monaco-dialog-box')).trim().slice(0, 120)})`);
    await cancel.click();
  }
  await wb.command('View: Close All Editors');
  const dontSave = wb.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Don't Save$/ }).first();
  await sleep(400);
  for (let i = 0; i < 10 && await dontSave.isVisible().catch(() => false); i++) {
    await dontSave.click();
    await sleep(300);
  }
  for (const d of EDITABLE) {
    if (!existsSync(join(pristine, d))) continue;
    rmSync(join(folder, d), { recursive: true, force: true });
    cpSync(join(pristine, d), join(folder, d), { recursive: true });
  }
  await wb.page.keyboard.press('Escape');
}

/**
 * Runs every scenario in one workbench; resolves to { passed, failed }. `installed`: the workbench runs the
 * .vsix installed into the profile (no extensionDevelopmentPath), and the product scenarios run first.
 */
export async function runUiScenarios(server, paths, folder, shots, { installed = false } = {}) {
  mkdirSync(shots, { recursive: true });
  const browser = await launchBrowser(paths.chromium);
  let passed = 0;
  let failed = 0;
  try {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    const wb = new Workbench(page, shots);
    wb.folder = folder;                         // the workspace's path (scenarios that put files into it)
    await page.goto(workbenchUrl(server, folder, [], { installed }));
    await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
    await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60000 });
    await sleep(1500);
    // HEAPLENS_VSCODE_SCENARIO=text runs only the scenarios whose name contains it (for working on one; a|b: either)
    const pick = process.env.HEAPLENS_VSCODE_SCENARIO;
    const all = Object.entries({
      ...(installed ? PRODUCT_SCENARIOS : {}), ...SCENARIOS, ...EDITOR_SCENARIOS, ...ACCOUNTS_SCENARIOS, ...LIFETIME_SCENARIOS,
      ...(installed ? PICTURE_SCENARIOS : {}), ...HEAP_SCENARIOS, ...JFR_SCENARIOS, ...LINES_SCENARIOS, ...LOOP_SCENARIOS,
      ...MAVEN_SCENARIOS, ...VIEW_SCENARIOS, ...VIEW_LIVE_SCENARIOS,
    }).filter(([n]) => !pick || pick.split('|').some((p) => n.includes(p)));     // a|b: either
    const pristine = keepPristine(folder);
    for (const [name, body] of all) {
      const t0 = Date.now();
      console.log(`UI: ${name}`);
      try {
        await startPristine(wb, folder, pristine);
        await body(wb);
        passed++;
        console.log(`  ✔ ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      } catch (e) {
        failed++;
        console.log(`  ✘ ${name}: ${e.message}`);
        await wb.shot(`FAILED-${name.replace(/\W+/g, '-').slice(0, 40)}`).catch(() => undefined);
      }
    }
  } finally {
    await browser.close();
  }
  return { passed, failed };
}
