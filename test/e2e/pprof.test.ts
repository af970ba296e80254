// The pprof export read by a real pprof client: the demo program (samples/src, scripts/demo.mjs) profiled on
// JDK 17, exported with `heaplens report --format pprof`, and read by `go tool pprof -top` (Debian's golang-go,
// installed by support/go-pprof.ts when missing). Totals, every type's flat value and every method's cumulative
// value, for both sample types, must equal the profile's own sums.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { before, describe, it } from 'node:test';
import { CLI, JDK17, PROFILE_DIR, ROOT } from './support/env';
import { exec } from './support/heaplens';
import { ensureGo, goPprof } from './support/go-pprof';
import { findChromium } from './support/chromium';
import * as zlib from 'zlib';

interface Node { m?: number; a?: number[][]; c?: Node[] }
interface Doc {
  types: { id: number; name: string }[];
  methods: { id: number; class: string; name: string }[];
  sites: { id: number; method: number }[];
  threads: { root: Node }[];
}

const SAMPLES = path.join(ROOT, 'samples', 'src');
const CLASSES = path.join(ROOT, 'build', 'e2e-pprof', 'classes');
const PROFILE = path.join(PROFILE_DIR, 'pprof-demo.heaplens');
const PPROF = path.join(PROFILE_DIR, 'pprof-demo.pb.gz');

/** pprof -top rows: function name → [flat, cum]; and the total of the header line. */
function parseTop(text: string, unit: string): { total: number; rows: Map<string, [number, number]> } {
  const total = Number((/of (\d+)\S* total/.exec(text) ?? [])[1]);
  const rows = new Map<string, [number, number]>();
  const num = `(\\d+)(?:${unit})?`;   // a zero prints without its unit
  const re = new RegExp(`^\\s*${num}\\s+\\S+%\\s+\\S+%\\s+${num}\\s+\\S+%\\s+(.+)$`);
  for (const line of text.split('\n')) {
    const m = re.exec(line);
    if (m) rows.set(m[3].trim(), [Number(m[1]), Number(m[2])]);
  }
  return { total, rows };
}

/** The profile's own sums: per type (flat of "new TYPE") and per method (records under it or allocated in it, once each). */
function sums(doc: Doc, value: 2 | 4): { total: number; types: Map<string, number>; methods: Map<string, number> } {
  const typeName = new Map(doc.types.map((t) => [t.id, `new ${t.name}`]));
  const methodName = new Map(doc.methods.map((m) => [m.id, `${m.class}.${m.name}`]));
  const siteMethod = new Map(doc.sites.map((s) => [s.id, s.method]));
  const types = new Map<string, number>(), methods = new Map<string, number>();
  let total = 0;
  const add = (map: Map<string, number>, k: string, v: number): void => { map.set(k, (map.get(k) ?? 0) + v); };
  const visit = (n: Node, path: number[]): void => {
    const here = n.m === undefined ? path : [...path, n.m];
    for (const rec of n.a ?? []) {
      const v = rec[value];
      if (rec[2] === 0 && rec[4] === 0) continue;
      total += v;
      add(types, typeName.get(rec[1])!, v);
      const frames = new Set(here.map((m) => methodName.get(m)!));
      frames.add(methodName.get(siteMethod.get(rec[0])!)!);
      for (const f of frames) add(methods, f, v);
    }
    for (const c of n.c ?? []) visit(c, here);
  };
  for (const t of doc.threads) visit(t.root, []);
  return { total, types, methods };
}

describe('pprof export read by go tool pprof', () => {
  let doc: Doc;
  before(async () => {
    ensureGo();
    fs.rmSync(CLASSES, { recursive: true, force: true });
    fs.mkdirSync(CLASSES, { recursive: true });
    const javac = await exec(JDK17.javac, ['--release', '17', '-g', '-d', CLASSES, path.join(SAMPLES, 'demo', 'WordIndex.java')]);
    assert.equal(javac.code, 0, javac.stderr);
    fs.mkdirSync(PROFILE_DIR, { recursive: true });
    for (const f of [PROFILE, PPROF]) fs.rmSync(f, { force: true });
    const run = await exec(process.execPath, [CLI, 'run', '--java', JDK17.java, '--out', PROFILE, '--', '-cp', CLASSES, 'demo.WordIndex']);
    assert.equal(run.code, 0, run.stderr);
    const exp = await exec(process.execPath, [CLI, 'report', PROFILE, '--format', 'pprof', '--out', PPROF]);
    assert.equal(exp.code, 0, exp.stderr);
    doc = JSON.parse(fs.readFileSync(PROFILE, 'utf8')) as Doc;
  });

  for (const [index, value, unit] of [['allocations', 2, ''], ['bytes', 4, 'B']] as const) {
    it(`-top -sample_index=${index}: the total, every type's flat and every method's cumulative value equal the profile's`, () => {
      const args = ['-top', '-nodefraction=0', '-nodecount=100000', `-sample_index=${index}`, ...(unit ? ['-unit=B'] : []), PPROF];
      const top = parseTop(goPprof(args), unit);
      const want = sums(doc, value);
      assert.ok(want.total > 100_000, `the demo allocates: ${want.total}`);
      assert.equal(top.total, want.total, `${index}: pprof total vs profile`);
      // the first entries of -top (sorted by flat) are the top types, in the profile's order and with its values
      const pprofTypes = [...top.rows].filter(([k]) => k.startsWith('new ')).map(([k, [flat]]) => [k, flat] as const);
      const profileTypes = [...want.types].sort((a, b) => b[1] - a[1]);
      assert.deepEqual(pprofTypes.slice(0, 5).map(([, v]) => v), profileTypes.slice(0, 5).map(([, v]) => v));
      assert.deepEqual(new Map(pprofTypes), new Map(profileTypes.filter(([, v]) => v !== 0)));
      // a function whose samples all hold 0 in this index is not shown by pprof
      for (const [m, v] of want.methods) assert.equal(top.rows.get(m)?.[1] ?? 0, v, `${index}: cum of ${m}`);
      assert.equal(top.rows.size, [...want.types.values(), ...want.methods.values()].filter((v) => v !== 0).length);
      console.log(`pprof ${index}: total ${top.total}, top ${pprofTypes.slice(0, 3).map(([k, v]) => `${k} ${v}`).join(', ')}; ${want.methods.size} methods match`);
    });
  }

  it('the HTML report\'s pprof button downloads the same profile (gzipped in the page by CompressionStream)', async () => {
    const html = path.join(PROFILE_DIR, 'pprof-demo.html');
    const r = await exec(process.execPath, [CLI, 'report', PROFILE, '--format', 'html', '--out', html]);
    assert.equal(r.code, 0, r.stderr);
    const chromiumPath = findChromium();
    assert.ok(chromiumPath, 'Chromium is needed (apt-get install chromium)');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { chromium } = require('playwright-core') as typeof import('playwright-core');
    const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ acceptDownloads: true });
      await page.goto(`file://${html}`);
      const button = page.locator('button', { hasText: 'pprof' });
      await button.first().waitFor({ timeout: 30_000 });
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), button.first().click()]);
      assert.equal(download.suggestedFilename(), 'pprof-demo.pb.gz');
      const saved = path.join(PROFILE_DIR, 'pprof-demo.from-report.pb.gz');
      await download.saveAs(saved);
      const gunzip = (f: string): Buffer => zlib.gunzipSync(fs.readFileSync(f) as unknown as Uint8Array);
      const fromPage = gunzip(saved), fromCli = gunzip(PPROF);
      assert.ok(fromPage.length > 1000 && fromPage.toString('base64') === fromCli.toString('base64'), `the page's export (${fromPage.length} bytes) equals the CLI's (${fromCli.length})`);
    } finally {
      await browser.close();
    }
  });
});
