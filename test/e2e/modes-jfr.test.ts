// The sampled mode fed by JFR's TLAB events (agent option sampler=jfr, docs/modes.md "sampler=jfr") on real JVMs
// (JDK 17 and 25): no class is instrumented, the program's output is unchanged, the samples carry the fixture's
// frames, and every type's estimated count and bytes fall within the interval the profile states for them, at a fixed
// false-failure probability; a live switch exact → sampled → exact drops and restores the probes and keeps the exact counts.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { before, describe, it } from 'node:test';
import { CLI, JDK17, JDKS, PROFILE_DIR, ROOT } from './support/env';
import { compileFixture, exec } from './support/heaplens';
import { exactCount, runExactSampledExact, walk } from './support/mode-switch';
import { pathToFileURL } from 'url';
import { chromium, findChromium } from './support/chromium';

interface Node { m?: number; a?: [number, number, number, number, number, number?][]; c?: Node[] }
interface Doc {
  meta: { mode: string; sampler?: string; modes?: { mode: string; retransformed?: number }[] };
  types: { id: number; name: string }[];
  methods: { id: number; class: string; name: string; profiled: boolean; file?: string }[];
  sites: { id: number; method: number; kind: string; line?: number }[];
  threads: { name: string; root?: Node; sampled?: Node }[];
  transform: { classesTransformed: number; retransformed: number; methodsProfiled: number; warnings: string[] };
  agent: { jfrSamples?: number; jfrTlabBytes?: number; jfrTypes?: [number, number, number, number, number, number][] };
}

/**
 * The bound: |estimate − true count| ≤ Z · sd for counts and bytes of the fixture's 7 types, 14 checks per JDK, 28 in
 * all; P(|N(0,1)| > 5.6) = 2.1e-8, so under the estimator's normal approximation a correct agent fails this test with
 * probability below 28 · 2.1e-8 < 1e-6. (The stated sd is the Horvitz-Thompson one for independent inclusions; TLAB
 * sampling is systematic, which keeps the true spread at or below it: agent TlabRenewalTest simulates it.)
 */
const Z = 5.6;
/** Bytes per allocation with compressed class pointers (both JDKs' default; the fixture's comment derives them). */
const SIZES = new Map([['tlabsampling.Main$Small', 16], ['tlabsampling.Main$Wide', 64], ['tlabsampling.Main$Small[]', 32],
  ['tlabsampling.Main$Wide[]', 216], ['long[]', 1616], ['tlabsampling.Main$Mid[]', 12_016], ['tlabsampling.Main$Big[]', 30_016]]);
const DRAWS = '6000000';

/** The fixture's line "tlabsampling counts NAME=N …" → JVM type name → count, named as the profile names types. */
function trueCounts(stdout: string): Map<string, number> {
  const line = stdout.split('\n').find((l) => l.startsWith('tlabsampling counts '));
  assert.ok(line, `the fixture printed its counts: ${stdout}`);
  const profileName = (n: string) => (n === '[J' ? 'long[]' : n.startsWith('[L') ? `${n.slice(2, -1)}[]` : n);
  return new Map(line.split(' ').slice(2).map((kv) => {
    const i = kv.lastIndexOf('=');
    return [profileName(kv.slice(0, i)), Number(kv.slice(i + 1))];
  }));
}

let classes = '';
let modeswitch = '';
before(async () => {
  [classes, modeswitch] = await Promise.all([compileFixture('tlabsampling', { jdk: JDK17 }), compileFixture('modeswitch', { jdk: JDK17 })]);
});

for (const jdk of JDKS) {
  describe(`sampled mode with sampler=jfr on JDK ${jdk.name}`, () => {
    it('estimates every type\'s count and bytes within its stated interval, without instrumenting any class', async () => {
      const plain = await exec(jdk.java, ['-cp', classes, 'tlabsampling.Main', DRAWS]);
      assert.equal(plain.code, 0, plain.stderr);
      const truth = trueCounts(plain.stdout);
      assert.equal(truth.size, 7);

      const out = path.join(PROFILE_DIR, `modes-jfr-jdk${jdk.name}.heaplens`);
      fs.mkdirSync(PROFILE_DIR, { recursive: true });
      fs.rmSync(out, { force: true });
      const r = await exec(process.execPath, [CLI, 'run', '--java', jdk.java, '--out', out, '--mode', 'sampled',
        '--agent-opt', 'sampler=jfr', '--', '-cp', classes, 'tlabsampling.Main', DRAWS]);
      assert.equal(r.code, 0, `heaplens run failed on JDK ${jdk.name}:\n${r.stderr}`);
      assert.deepEqual(trueCounts(r.stdout), truth, 'the program allocates the same under the agent (fixed seed)');
      const doc = JSON.parse(fs.readFileSync(out, 'utf8')) as Doc;

      assert.equal(doc.meta.mode, 'sampled');
      assert.equal(doc.meta.sampler, 'jfr', `JFR sampling started: ${doc.transform.warnings.join('; ')}`);
      // the TLAB flags `heaplens run` passes are in effect (no warning), T = 16 KiB less the JVM's end reserve
      assert.deepEqual(doc.transform.warnings, []);
      assert.ok((doc.agent.jfrTlabBytes ?? 0) > 15_000 && doc.agent.jfrTlabBytes! <= 16_384, `T = ${doc.agent.jfrTlabBytes}`);
      // no probes: nothing transformed at start or since, as in the paused mode
      assert.equal(doc.transform.classesTransformed, 0);
      assert.equal(doc.transform.retransformed, 0);
      assert.equal(doc.transform.methodsProfiled, 0);

      const typeName = new Map(doc.types.map((t) => [t.id, t.name]));
      const names = new Map(doc.methods.map((m) => [m.id, `${m.class}.${m.name}`]));
      const sites = new Map(doc.sites.map((s) => [s.id, s]));
      // the sampled trees: per type the recorded count, and how much of it sits under main > allocate > make
      const inTrees = new Map<string, number>();
      const underMake = new Map<string, number>();
      for (const t of doc.threads) {
        walk(t.sampled, (n, p) => {
          for (const [site, type, count, , , line] of n.a ?? []) {
            const name = typeName.get(type)!;
            assert.equal(sites.get(site)!.kind, 'jfr');
            inTrees.set(name, (inTrees.get(name) ?? 0) + count);
            if (p.map((m) => names.get(m)).join(' > ') === 'tlabsampling.Main.main > tlabsampling.Main.allocate > tlabsampling.Main.make') {
              underMake.set(name, (underMake.get(name) ?? 0) + count);
              // make allocated itself, so its site's own line applies and the record has none (docs/format.md)
              assert.equal(line, undefined, `${name}: line ${line}, site line ${sites.get(site)!.line}`);
            }
          }
        });
      }
      // no class was transformed, so the source file is the JFR import's guess: the hot lines need it
      const own = doc.methods.filter((m) => m.class.startsWith('tlabsampling.'));
      assert.deepEqual(own.map((m) => `${m.name} ${m.file}`).sort(), ['<clinit> Main.java', 'allocate Main.java', 'main Main.java', 'make Main.java']);
      const intervals = new Map((doc.agent.jfrTypes ?? []).map(([id, seen, count, countSd, bytes, bytesSd]) => [typeName.get(id)!, { seen, count, countSd, bytes, bytesSd }]));
      const lines: string[] = [];
      for (const [name, n] of truth) {
        const e = intervals.get(name);
        assert.ok(e, `${name}: no estimate in agent.jfrTypes`);
        // the interval's count is what the trees hold, all of it at the fixture's allocation frame
        assert.equal(inTrees.get(name), e.count, `${name}: trees ${inTrees.get(name)} vs jfrTypes ${e.count}`);
        assert.ok((underMake.get(name) ?? 0) >= 0.99 * e.count, `${name}: ${underMake.get(name)} of ${e.count} under main > allocate > make`);
        const size = SIZES.get(name)!;
        lines.push(`${name} ${e.count} ± ${e.countSd} (true ${n}, ${((e.count - n) / n * 100).toFixed(2)} %, ${e.seen} seen)`);
        assert.ok(Math.abs(e.count - n) <= Z * e.countSd + 1, `${name}: count ${e.count} vs ${n}: more than ${Z} sd (${e.countSd}) apart`);
        assert.ok(Math.abs(e.bytes - n * size) <= Z * e.bytesSd + 1, `${name}: bytes ${e.bytes} vs ${n * size}: more than ${Z} sd (${e.bytesSd}) apart`);
        if (size > 16_384) assert.equal(e.count, n, `${name}: larger than a TLAB, every one is seen`);
        else assert.ok(e.countSd > 0 && e.countSd < 0.04 * n, `${name}: sd ${e.countSd} of ${n}: the interval says something`);
      }
      console.log(`JDK ${jdk.name}: ${doc.agent.jfrSamples} samples, T = ${doc.agent.jfrTlabBytes} B\n  ${lines.join('\n  ')}`);

      // the intervals reach the user: the text report's type table and the views' data line (HTML report, Chromium)
      const text = await exec(process.execPath, [CLI, 'report', out]);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^\s*tlabsampling\.Main\$Big\[\]\s+1,707\s+exact\s/m, text.stdout);
      assert.match(text.stdout, /^\s*tlabsampling\.Main\$Small\s+[\d,]+\s+± \d\.\d %\s/m, text.stdout);
      if (findChromium()) {
        const html = path.join(PROFILE_DIR, `modes-jfr-jdk${jdk.name}.html`);
        const h = await exec(process.execPath, [CLI, 'report', out, '--format', 'html', '-o', html]);
        assert.equal(h.code, 0, h.stderr);
        const page = (await chromium(pathToFileURL(html).href, ['--dump-dom', '--window-size=1400,900'])).stdout;
        assert.match(page, /<summary>Estimate intervals \(95 %\) of the \d+ largest of \d+ types<\/summary>/, 'the data line offers the intervals');
        assert.match(page, /<li>tlabsampling\.Main\$Big\[\]: 1,707 exact, [^<]+ exact<\/li>/);
        assert.match(page, /<li>tlabsampling\.Main\$Small: [\d,]+ ± \d\.\d %, [^<]+ ± \d\.\d %<\/li>/);
      }
    });

    it('switches between exact and sampled while running: sampled drops the probes, exact counts continue', async () => {
      // with sampler=jfr, sampled needs no probes: the switch took every class back to its original bytes
      const { toSampled, profile } = await runExactSampledExact(jdk.java, `modes-jfr-switch-jdk${jdk.name}`, 'sampler=jfr', modeswitch);
      assert.ok(Number(toSampled.retransformed) > 0, `switch to sampled: ${JSON.stringify(toSampled)}`);
      const doc = JSON.parse(profile) as Doc;
      assert.equal(doc.meta.sampler, 'jfr');
      assert.deepEqual(doc.meta.modes!.map((m) => m.mode), ['exact', 'sampled', 'exact']);
      // the exact tree holds phases 1 and 3 only: nothing of the sampled phase leaked into exact counts
      assert.equal(exactCount(doc, 'modeswitch.Main$Marker'), 125_000);
    });
  });
}

describe('sampled mode with sampler=jfr marks the lines that asked the JDK for memory', () => {
  it('the demo program\'s hot lines: word.toString() (57) first, counts.merge (71) among the top three', async () => {
    const dir = path.join(PROFILE_DIR, 'modes-jfr-lines');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const javac = await exec(JDK17.javac, ['--release', '17', '-g', '-d', dir, path.join(ROOT, 'samples', 'src', 'demo', 'WordIndex.java')]);
    assert.equal(javac.code, 0, javac.stderr);
    const out = path.join(dir, 'demo.heaplens');
    const r = await exec(process.execPath, [CLI, 'run', '--java', JDK17.java, '--out', out, '--mode', 'sampled',
      '--agent-opt', 'sampler=jfr', '--', '-cp', dir, 'demo.WordIndex']);
    assert.equal(r.code, 0, r.stderr);
    // no class is transformed, so the JDK frames (StringBuilder.toString, HashMap.merge) are in each event's stack and
    // the line of the innermost application frame is the record's line
    const lines = await exec(process.execPath, [CLI, 'report', out, '--format', 'lines']);
    assert.equal(lines.code, 0, lines.stderr);
    const rows = lines.stdout.trim().split('\n').slice(1).map((l) => l.split('\t'));
    assert.ok(rows.length >= 3 && rows.every((c) => c[0] === 'demo/WordIndex.java'), lines.stdout);
    assert.deepEqual([rows[0][1], rows[0][2]], ['57', 'demo.WordIndex.tokenize'], lines.stdout);
    assert.ok(rows.slice(0, 3).some((c) => c[1] === '71' && c[2] === 'demo.WordIndex.count'), lines.stdout);
  });
});
