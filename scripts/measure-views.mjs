// node scripts/measure-views.mjs [--nodes 100000] [--json]: how fast the views are on a big profile.
// Generates a profile of N call-tree nodes (seeded, so every run sees the same tree), writes its HTML
// report, opens it in headless Chromium (network off) with #bench=1 and prints what the page measured:
// first paint (from the start of the page script: parse, validate, merge, flatten, lay out, paint),
// zoom in / zoom out (lay out + paint), metric switch, search, first inversion (clicked once the page is parsed, or
// --invert-delay MS after the paint, or right after it with --invert-at-paint; timed until the inverted tree is drawn). Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { firstSectionWriter, root } from './lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const N = Number(arg('nodes', '100000'));
/** --wide K: one more node with K children (the call tree table's expand figure) */
const WIDE = Number(arg('wide', '0'));
const asJson = process.argv.includes('--json');
/** --invert-delay MS: the first inversion is clicked no sooner than MS after the first paint (default: when the bench gets there) */
const INVERT_DELAY = Number(arg('invert-delay', '0'));
/** --invert-at-paint: the first inversion is clicked right after the first paint, before the zooms */
const INVERT_AT_PAINT = process.argv.includes('--invert-at-paint');

/** A seeded random profile with exactly N nodes over 4 threads, ~3,000 methods in 60 packages. */
export function generate(n, seed = 42, wide = 0) {
  let s = seed >>> 0;
  const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const pick = (k) => Math.floor(rnd() * k);
  const pkgs = Array.from({ length: 60 }, (_, i) => (i < 40 ? `com.acme.m${i}` : i < 50 ? `java.util.p${i}` : `org.lib.l${i}`));
  const methods = Array.from({ length: 3000 }, (_, i) => ({
    id: i + 1, class: `${pkgs[i % 60]}.C${i % 97}`, name: `m${i}`, desc: '()V', file: `C${i % 97}.java`, line: 10 + (i % 500), profiled: i % 60 < 50 || i % 7 === 0,
  }));
  const types = Array.from({ length: 200 }, (_, i) => (i % 4 === 3
    ? { id: i + 1, name: `${['byte', 'int', 'long', 'java.lang.Object'][i % 16 >> 2]}[]`.replace(/^/, '') + (i > 100 ? '[]' : ''), array: true, size: null, elementSize: 4, elementCode: ['B', 'I', 'J', 'R'][i % 16 >> 2] }
    : { id: i + 1, name: `com.acme.T${i}`, array: false, size: 16 + 8 * (i % 5) }));
  for (const t of types) if (t.array && t.name.endsWith('[][]')) t.elementCode = 'R';
  const sites = Array.from({ length: 5000 }, (_, i) => ({ id: i + 1, method: 1 + (i % 3000), bci: i % 300, line: 20 + (i % 400), kind: 'new', type: 1 + (i % 200) }));
  const threads = [0, 1, 2, 3].map((t) => ({ id: t + 1, name: t === 0 ? 'main' : `worker-${t}`, daemon: t > 0, alive: false, root: { c: [] } }));
  // breadth-first growth: every new node goes under a random existing node of limited depth
  const open = threads.map((t) => ({ node: t.root, depth: 0 }));
  for (let made = 0; made < n - threads.length; made++) {
    const parent = open[open.length > 64 && rnd() < 0.7 ? open.length - 1 - pick(Math.min(open.length, 400)) : pick(open.length)];
    const node = { m: 1 + pick(3000), calls: 1 + pick(50) };
    const recs = pick(4);
    if (recs) node.a = Array.from({ length: recs }, () => {
      const site = pick(5000);
      const type = types[site % 200];
      const count = 1 + pick(1000);
      const elements = type.array ? count * pick(64) : 0;
      return [site + 1, type.id, count, elements, type.array ? count * 16 + elements * 4 : count * type.size];
    });
    (parent.node.c ??= []).push(node);
    if (parent.depth < 40) open.push({ node, depth: parent.depth + 1 });
  }
  if (wide > 0) {
    // one node under main's root with `wide` children, each of a different method: the table's widest row to open
    const hub = { m: 1, calls: 1, c: Array.from({ length: wide }, (_, k) => ({ m: 3001 + k, calls: 1, a: [[1 + (k % 5000), types[(k % 5000) % 200].id, 1 + (k % 7), 0, 32]] })) };
    for (let k = 0; k < wide; k++) methods.push({ id: 3001 + k, class: `com.acme.wide.W${k % 100}`, name: `w${k}`, desc: '()V', file: 'W.java', line: 1, profiled: true });
    (threads[0].root.c ??= []).push(hub);
  }
  const now = Date.now();
  return {
    format: 'heaplens-profile', version: 1,
    meta: { agentVersion: 'generated', mode: 'exact', jvm: { name: 'generated', vendor: '', version: '', javaHome: '' }, pid: 0, command: `generated ${n} nodes`,
      jvmArgs: [], startTime: now - 1000, writeTime: now, final: true, sequence: 1, options: {}, layout: { objectHeader: 12, arrayHeader: 16, reference: 4, alignment: 8, compressedOops: true, source: 'generated' } },
    types, methods, sites, threads,
    transform: { classesTransformed: 0, classesSkipped: 0, classesFailed: 0, retransformed: 0, methodsProfiled: 3000, sites: 5000, failures: [], warnings: [] },
    agent: { threads: 4, nodes: n, writeMillis: 0, bytesWritten: 0, collectorCycles: 0 },
  };
}

const chromiumBin = [process.env.HEAPLENS_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((c) => c && existsSync(c));
if (!chromiumBin) {
  console.error('measure-views: no Chromium (apt-get install chromium, or set HEAPLENS_CHROMIUM)');
  process.exit(2);
}
const dir = join(root, 'build', 'views-bench');
mkdirSync(dir, { recursive: true });
const profile = join(dir, `generated-${N}${WIDE ? `-wide${WIDE}` : ""}.heaplens`);
const html = join(dir, `generated-${N}${WIDE ? `-wide${WIDE}` : ""}.html`);
// with its first section, as the agent writes it (the .heaplens editor paints from it; the report ignores it)
writeFileSync(profile, JSON.stringify((await firstSectionWriter())(generate(N, 42, WIDE))));
const rep = spawnSync(process.execPath, [join(root, 'bin', 'heaplens'), 'report', profile, '--format', 'html', '-o', html], { encoding: 'utf8' });
if (rep.status !== 0) {
  console.error(rep.stderr);
  process.exit(1);
}
// playwright-core drives Debian's Chromium and waits for the figures: the page loads the profile in a worker, so
// the bench finishes after the load event (--dump-dom would dump the page before it)
const { chromium } = createRequire(`${root}/`)('playwright-core');
const browser = await chromium.launch({
  executablePath: chromiumBin, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--host-resolver-rules=MAP * ~NOTFOUND', '--proxy-server=127.0.0.1:9'],
});
let text;
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.route(/^(?!file:|blob:|data:)/, (route) => route.abort());     // network off
  await page.goto(`${pathToFileURL(html).href}#bench=1${INVERT_DELAY ? `&invertDelay=${INVERT_DELAY}` : ''}${INVERT_AT_PAINT ? '&invertAtPaint=1' : ''}`, { timeout: 600_000 });
  await page.locator('#heaplens-bench').waitFor({ state: 'attached', timeout: 600_000 });
  text = await page.locator('#heaplens-bench').textContent();
} catch (e) {
  console.error(`measure-views: the page wrote no figures: ${e.message}`);
  process.exit(1);
} finally {
  await browser.close();
}
const fig = JSON.parse(text);
if (asJson) {
  console.log(JSON.stringify(fig));
} else {
  console.log(`views on a generated profile: ${fig.nodes} nodes (merged tree), depth ${fig.maxDepth}, headless Chromium, 1400×900`);
  console.log(`  first paint        ${fig.firstPaintMs} ms  (page script start → painted; ${fig.sinceNavigationMs} ms since navigation)`);
  console.log(`    load worker: ${fig.worker ? 'yes' : 'no (parsed on the page thread)'}; page thread's longest task before the paint ${fig.longestTaskMs} ms (${fig.longTasks} tasks ≥ 50 ms)`);
  console.log(`    steps: ${Object.entries(fig.steps).map(([k, v]) => `${k} ${v} ms`).join(', ')}`);
  console.log(`    of which layout  ${fig.firstLayoutMs} ms, canvas ${fig.firstCanvasMs} ms, ${fig.framesPainted} frames drawn`);
  console.log(`  zoom in  (${fig.zooms}×)    median ${fig.zoomInMs.median} ms, max ${fig.zoomInMs.max} ms`);
  console.log(`  zoom out (${fig.zooms}×)    median ${fig.zoomOutMs.median} ms, max ${fig.zoomOutMs.max} ms`);
  console.log(`  metric switch      ${fig.metricSwitchMs} ms`);
  console.log(`  search             ${fig.searchMs} ms`);
  console.log(`  first inversion    ${fig.invertFirstMs} ms (clicked ${fig.invertClickedMs} ms after the paint, timed until the inverted tree is drawn${fig.invertReadyAtClick ? '; it was made before the click' : ''})`);
  console.log(`                     (builds the bottom-up tree: invert ${fig.invertSteps?.invert} ms, flatten ${fig.invertSteps?.flatten} ms, unpack ${fig.invertSteps?.unpack ?? '-'} ms${fig.invertSteps?.builtAhead ? '; built by the worker ahead, while the page drew the first tree' : ''}${fig.invertSteps?.here ? '; inverted on the page from the built first tree' : ''})`);
  console.log(`  call tree table    ${fig.callTreeFirstMs} ms (first showing)`);
  console.log(`  table expand       ${fig.expandMs} ms (a node with ${fig.expandChildren} children)`);
}
