// node scripts/measure-panel.mjs --profile FILE.heaplens [--pairs 3] [--base DIR] [--json OUT.jsonl] [--phases]
// The `.heaplens` editor's first paint in the real VS Code (code-server, test/vscode/harness; HEAPLENS_VSCODE_CACHE
// reuses an installed one). Each run opens a fresh workbench whose extension is loaded from a folder (this checkout, or
// `--base DIR`: another checkout with its own built dist/), opens FILE from Quick Open and reads, inside the webview's
// page, when the flame canvas was first painted (an init script polls its data-painted attribute every 5 ms, so the
// page's own code is not changed to be timed). Runs alternate between the two folders (base first in odd pairs), after one
// throwaway run each (start-up caches). Prints, per run: the paint since the webview page's navigation, since the
// Enter that opened the file, the page's longest task before the paint (Long Tasks API), and the load average; and,
// since the webview page's navigation, its phases: the page's own marks (`heaplens:NAME`, webview/timing.ts mark: its
// script's start, the host's first message, the fetch, the load worker's steps, the tree on the page, the render) and
// the browser's resource timings (the bundle, the styles, the font, the profile's fetch). `--phases` prints them as a
// table per run. `--screenshot DIR`: each run's workbench at its first paint and once the whole profile is shown (a
// file with a first section is painted from it first, then the whole tree replaces it: the two should look the same).
// `--base-profile FILE`: the base opens this file instead (a profile written by the base's own writers, when the
// two builds' file formats differ); its name must differ from FILE's.
import { copyFileSync, existsSync, mkdirSync, readFileSync, appendFileSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { launchBrowser } from '../test/vscode/harness/browser.mjs';
import { ensureInstalled } from '../test/vscode/harness/install.mjs';
import { startCodeServer } from '../test/vscode/harness/server.mjs';
import { root } from './lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
if (process.argv.includes('--help') || !arg('profile')) {
  console.log(readFileSync(new URL(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n'));
  process.exit(arg('profile') ? 0 : 2);
}
const profile = resolve(arg('profile'));
const pairs = Number(arg('pairs', '3'));
const base = arg('base') && resolve(arg('base'));
const baseProfile = arg('base-profile') && resolve(arg('base-profile'));
const out = arg('json');
const showPhases = process.argv.includes('--phases');
const shots = arg('screenshot') && resolve(arg('screenshot'));
let shot = 0;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];

/** Runs in every frame before its scripts: the first time a flame canvas says it painted, and the long tasks before. */
const WATCH = () => {
  const w = window;
  w.__heaplensLong = [];
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) w.__heaplensLong.push([e.startTime, e.duration]); })
      .observe({ type: 'longtask', buffered: true });
  } catch { /* no Long Tasks API */ }
  // polled: the webview writes its page into this frame with document.open, which a MutationObserver does not survive;
  // a timer runs when the painting task ends, which is when the paint can show
  const timer = setInterval(() => {
    const c = document.querySelector('.view-flame canvas[data-painted]');
    if (c && Number(c.getAttribute('data-painted')) > 0) {
      w.__heaplensPaint = performance.now();
      w.__heaplensPaintEpoch = performance.timeOrigin + w.__heaplensPaint;
      clearInterval(timer);
    }
  }, 5);
};

/** In the frame that painted: the paint, the long tasks before it, and the phases (ms since the frame's navigation). */
const PHASES = () => {
  const w = window;
  if (w.__heaplensPaint === undefined) return undefined;
  const phases = {};
  const nav = performance.getEntriesByType('navigation')[0];
  if (nav) phases['page: response end'] = nav.responseEnd;
  for (const e of performance.getEntriesByType('resource')) {
    const name = decodeURIComponent(e.name.split('?')[0]).split('/').pop();
    phases[`${name}: request`] = e.startTime;
    phases[`${name}: loaded`] = e.responseEnd;
  }
  for (const e of performance.getEntriesByType('mark')) if (e.name.startsWith('heaplens:')) phases[e.name.slice(9)] = e.startTime;
  phases.painted = w.__heaplensPaint;
  const rounded = Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, Math.round(v)]).sort((a, b) => a[1] - b[1]));
  return {
    paint: w.__heaplensPaint, epoch: w.__heaplensPaintEpoch, phases: rounded,
    longest: Math.max(0, ...w.__heaplensLong.filter(([s]) => s <= w.__heaplensPaint).map(([, d]) => d)),
  };
};

const printPhases = (label, phases) => {
  console.log(`  ${label}: phases since the webview page's navigation (ms)`);
  let last = 0;
  for (const [k, v] of Object.entries(phases)) {
    console.log(`    ${String(v).padStart(7)}  +${String(v - last).padEnd(6)} ${k}`);
    last = v;
  }
};

async function openFile(page, name) {
  for (let attempt = 1; attempt <= 4; attempt++) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ timeout: 10000 });
    await input.fill(name);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
    if (await row.waitFor({ timeout: 15000 }).then(() => true, () => false)) {
      const t0 = Date.now();
      await page.keyboard.press('Enter');
      return t0;
    }
    await sleep(2000);
  }
  throw new Error(`Quick Open does not find ${name}`);
}

async function oneRun(browser, server, folder, extension, name) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript(WATCH);
  const page = await context.newPage();
  try {
    const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
    const payload = [['extensionDevelopmentPath', remote(extension)], ['skipWelcome', 'true']];
    await page.goto(`${server.url}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60000 });
    await sleep(3000);                       // the workbench's own start-up settles
    const loadAvg = load();
    const t0 = await openFile(page, name);
    const deadline = Date.now() + Number(process.env.MEASURE_PANEL_TIMEOUT ?? 120000);
    for (;;) {
      for (const f of page.frames()) {
        const r = await f.evaluate(PHASES).catch(() => undefined);
        if (r && shots) {
          // the first paint (from the file's first section when it has one: 200 ms for the legend's task), then the
          // page once the whole profile is shown (mark whole-shown, or the tree's arrival for a page without a section)
          mkdirSync(shots, { recursive: true });
          await sleep(200);
          const swapped = () => f.evaluate(() => {
            const has = (m) => performance.getEntriesByType('mark').some((e) => e.name === `heaplens:${m}`);
            return has('whole-shown') || (!has('section-shown') && has('rendered'));
          }).catch(() => false);
          const early = await swapped();
          await page.screenshot({ path: join(shots, `${++shot}-${basename(extension)}-${name}-first${early ? '-after-swap' : ''}.png`) });
          for (let k = 0; k < 600 && !(await swapped()); k++) await sleep(200);
          // when the whole tree replaced the section's (a page without one: its first paint)
          r.wholeShown = await f.evaluate(() => performance.getEntriesByName('heaplens:whole-shown')[0]?.startTime).catch(() => undefined);
          await sleep(2000);
          await page.screenshot({ path: join(shots, `${shot}-${basename(extension)}-${name}-whole.png`) });
        }
        if (r) {
          return {
            sinceNavigation: Math.round(r.paint), sinceEnter: Math.round(r.epoch - t0), longestTask: Math.round(r.longest), load: loadAvg,
            ...(r.wholeShown !== undefined ? { wholeShown: Math.round(r.wholeShown) } : {}), phases: r.phases,
          };
        }
      }
      if (Date.now() > deadline) {
        await page.screenshot({ path: '/tmp/panel36-timeout.png' });
        const seen = await Promise.all(page.frames().map((f) => f.evaluate(() => [location.href.slice(0, 80), typeof window.__heaplensLong, document.querySelectorAll('canvas').length, document.querySelector('canvas')?.getAttribute('data-painted')]).catch((e) => String(e).slice(0, 80))));
        throw new Error(`no flame paint within 120 s; frames: ${JSON.stringify(seen)}`);
      }
      await sleep(50);
    }
  } finally {
    await context.close();
    // the closed window's extension host lingers for code-server's reconnection grace time (10 s): let it end, so
    // that the next run does not share the cores with it
    await sleep(Number(process.env.MEASURE_PANEL_PAUSE ?? 12000));
  }
}

const paths = ensureInstalled();
const work = `/tmp/measure-panel-${process.pid}`;
const folder = join(work, 'ws');
mkdirSync(folder, { recursive: true });
const name = basename(profile);
copyFileSync(profile, join(folder, name));
const baseName = baseProfile ? basename(baseProfile) : name;
if (baseProfile) {
  if (baseName === name) throw new Error('--base-profile needs another file name than --profile');
  copyFileSync(baseProfile, join(folder, baseName));
}
const server = await startCodeServer(paths, join(work, 'server'));
const browser = await launchBrowser(paths.chromium);
const configs = base ? [['base', base, baseName], ['this', root, name]] : [['this', root, name]];
for (const [, dir] of configs) if (!existsSync(join(dir, 'dist', 'extension.js'))) throw new Error(`${dir} has no built dist/`);
try {
  for (const [label, dir, file] of configs) {
    const r = await oneRun(browser, server, folder, dir, file);
    console.log(`warm-up ${label}: ${JSON.stringify({ ...r, phases: undefined })}`);
    if (showPhases) printPhases(`warm-up ${label}`, r.phases);
  }
  for (let p = 1; p <= pairs; p++) {
    const order = p % 2 === 1 ? configs : [...configs].reverse();
    for (const [label, dir, file] of order) {
      const r = { pair: p, config: label, profile: file, ...(await oneRun(browser, server, folder, dir, file)) };
      console.log(JSON.stringify({ ...r, phases: undefined }));
      if (showPhases) printPhases(`pair ${p} ${label}`, r.phases);
      if (out) appendFileSync(out, `${JSON.stringify(r)}\n`);
    }
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
