// Usage: node scripts/panel-replay/make.cjs PROFILE DIR (writes DIR/base.js: the text message main posts; DIR/this.js: the built one),
// cp scripts/panel-replay/page.html DIR, then node scripts/panel-replay/run.mjs DIR PAIRS [OUT.jsonl] (BASE_BUNDLE: the
// base webview.js). The panel page in headless Chromium fed the message a panel posts (as VS Code delivers it: a message
// event with Uint8Arrays); CPU = thread time of the page main thread tasks from the post to the first paint (trace).
// node run.mjs DIR PAIRS: the panel page (base bundle + text message, this bundle + built message), alternated
import { createRequire } from 'node:module';
import { copyFileSync, readFileSync, appendFileSync } from 'node:fs';
const root = new URL('../../', import.meta.url).pathname;
const require = createRequire(root);
const { chromium } = require('playwright-core');
const [dir, pairsArg, out] = process.argv.slice(2);
const bundles = { base: process.env.BASE_BUNDLE ?? '/tmp/base36/webview.js', this: `${root}dist/webview.js` };
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const one = async (cfg) => {
  copyFileSync(bundles[cfg], `${dir}/webview.js`);
  copyFileSync(`${dir}/${cfg}.js`, `${dir}/msg.js`);
  copyFileSync(`${root}dist/webview.css`, `${dir}/webview.css`);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel', 'disabled-by-default-devtools.timeline'] });
  await page.goto(`file://${dir}/page.html`);
  await page.waitForFunction(() => window.__paint !== undefined, null, { timeout: 300000, polling: 50 });
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
  const ev = trace.traceEvents ?? trace;
  const stamp = (m) => ev.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === m);
  const post = stamp('heaplens-post');
  const paint = stamp('heaplens-paint');
  // the page's main thread: CPU (thread time) of its top-level tasks from the post to the paint
  const tasks = ev.filter((e) => e.pid === post.pid && e.tid === post.tid && e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.ts >= post.ts - 1 && e.ts <= paint.ts);
  const cpu = tasks.reduce((a, e) => a + (e.tdur ?? 0), 0) / 1000;
  const longestCpu = Math.max(0, ...tasks.map((e) => (e.tdur ?? 0) / 1000));
  const r = await page.evaluate(() => ({ posted: window.__posted, paint: window.__paint, long: window.__long.filter(([s]) => s <= window.__paint) }));
  await page.close();
  return { config: cfg, pageCpu: Math.round(cpu), longestTaskCpu: Math.round(longestCpu), sincePosted: Math.round(r.paint - r.posted), sinceNavigation: Math.round(r.paint), longestTask: Math.round(Math.max(0, ...r.long.map(([, d]) => d))), load };
};
await one('base'); await one('this');
for (let p = 1; p <= Number(pairsArg); p++) {
  for (const cfg of p % 2 ? ['base', 'this'] : ['this', 'base']) {
    const r = { pair: p, ...(await one(cfg)) };
    console.log(JSON.stringify(r));
    if (out) appendFileSync(out, JSON.stringify(r) + '\n');
  }
}
await browser.close();
