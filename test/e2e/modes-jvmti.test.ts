// The sampled mode fed by HotSpot's heap sampler (agent option sampler=jvmti, docs/modes.md "sampler=jvmti") on real
// JVMs (JDK 17 and 25): the native library loads, no class is instrumented, the program's output is unchanged, the
// samples carry the fixtures' frames, every type's estimated count and bytes fall within the interval the profile
// states for them at a fixed false-failure probability — in a random allocation order (tlabsampling) and in a fixed,
// repeating one like luindex's (heapsampling), where the JFR-fed sampler was biased —, also when the rate budget
// (sampleRate) raises the sampling interval during the run, and a live switch exact → sampled → exact turns the
// sampler on and off and keeps the exact counts.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { before, describe, it } from 'node:test';
import { CLI, JDK17, JDKS, PROFILE_DIR } from './support/env';
import { compileFixture, exec } from './support/heaplens';
import { exactCount, runExactSampledExact, walk } from './support/mode-switch';
import { pathToFileURL } from 'url';
import { chromium, findChromium } from './support/chromium';

interface Node { m?: number; a?: [number, number, number, number, number, number?][]; c?: Node[] }
interface Doc {
  meta: { mode: string; sampler?: string; sampleBytes?: number; sampleBytesMax?: number; sampleRate?: number; modes?: { mode: string; retransformed?: number }[] };
  types: { id: number; name: string }[];
  methods: { id: number; class: string; name: string; profiled: boolean; file?: string }[];
  sites: { id: number; method: number; kind: string; bci: number; line?: number }[];
  threads: { name: string; root?: Node; sampled?: Node }[];
  transform: { classesTransformed: number; retransformed: number; methodsProfiled: number; warnings: string[] };
  agent: { heapSamples?: number; heapSamplesDropped?: number; lostTraces?: number; jfrTypes?: [number, number, number, number, number, number][] };
}

/**
 * The bound: |estimate − truth| ≤ Z · sd, sd the Horvitz-Thompson standard deviation the profile states, for the counts
 * and bytes of tlabsampling's 7 types and heapsampling's 6 (26 checks), of tlabsampling's 7 again with a changing
 * interval (14) and the switch's one type (count): 41 per JDK, 82 in all. P(|N(0,1)| > 5.7) = 1.2e-8, so under the
 * estimator's normal approximation a correct agent fails this test with probability below 82 · 1.2e-8 < 1e-6.
 */
const Z = 5.7;
/** The mean sample interval of these runs. */
const K = 16_384;

interface Fixture { name: string; main: string; arg: string; sizes: Map<string, number>; frames: string }
const FIXTURES: Fixture[] = [
  {
    name: 'tlabsampling', main: 'tlabsampling.Main', arg: '6000000',
    sizes: new Map([['tlabsampling.Main$Small', 16], ['tlabsampling.Main$Wide', 64], ['tlabsampling.Main$Small[]', 32],
      ['tlabsampling.Main$Wide[]', 216], ['long[]', 1616], ['tlabsampling.Main$Mid[]', 12_016], ['tlabsampling.Main$Big[]', 30_016]]),
    frames: 'tlabsampling.Main.main > tlabsampling.Main.allocate > tlabsampling.Main.make',
  },
  {
    name: 'heapsampling', main: 'heapsampling.Main', arg: '200000',
    sizes: new Map([['byte[]', 20_016], ['heapsampling.Main$Small', 16], ['heapsampling.Main$Pair', 32],
      ['heapsampling.Main$Small[]', 32], ['char[]', 216], ['int[]', 4016]]),
    frames: 'heapsampling.Main.main > heapsampling.Main.allocate',
  },
];

/** The fixture's line "NAME counts TYPE=N …" → JVM type name → count, named as the profile names types. */
function trueCounts(fixture: string, stdout: string): Map<string, number> {
  const line = stdout.split('\n').find((l) => l.startsWith(`${fixture} counts `));
  assert.ok(line, `the fixture printed its counts: ${stdout}`);
  const prim: Record<string, string> = { '[J': 'long[]', '[B': 'byte[]', '[C': 'char[]', '[I': 'int[]' };
  const profileName = (n: string) => prim[n] ?? (n.startsWith('[L') ? `${n.slice(2, -1)}[]` : n);
  return new Map(line.split(' ').slice(2).map((kv) => {
    const i = kv.lastIndexOf('=');
    return [profileName(kv.slice(0, i)), Number(kv.slice(i + 1))];
  }));
}

const compiled = new Map<string, string>();
before(async () => {
  for (const f of [...FIXTURES.map((x) => x.name), 'modeswitch']) compiled.set(f, await compileFixture(f, { jdk: JDK17 }));
});

for (const jdk of JDKS) {
  describe(`sampled mode with sampler=jvmti on JDK ${jdk.name}`, () => {
    for (const fx of FIXTURES) {
      it(`${fx.name}: every type's count and bytes within its stated interval, with its calling trace, no class instrumented`, async () => {
        const classes = compiled.get(fx.name)!;
        const plain = await exec(jdk.java, ['-cp', classes, fx.main, fx.arg]);
        assert.equal(plain.code, 0, plain.stderr);
        const truth = trueCounts(fx.name, plain.stdout);
        assert.equal(truth.size, fx.sizes.size);

        const out = path.join(PROFILE_DIR, `modes-jvmti-${fx.name}-jdk${jdk.name}.heaplens`);
        fs.mkdirSync(PROFILE_DIR, { recursive: true });
        fs.rmSync(out, { force: true });
        // K = 16 KiB (a quarter of the default): four times the samples, so the intervals are narrow enough to test;
        // fixed (no rate budget), as the test below lets it change
        const r = await exec(process.execPath, [CLI, 'run', '--java', jdk.java, '--out', out, '--mode', 'sampled',
          '--agent-opt', 'sampler=jvmti', '--agent-opt', `sampleBytes=${K}`, '--agent-opt', 'sampleRate=0',
          '--', '-cp', classes, fx.main, fx.arg]);
        assert.equal(r.code, 0, `heaplens run failed on JDK ${jdk.name}:\n${r.stderr}`);
        assert.deepEqual(trueCounts(fx.name, r.stdout), truth, 'the program allocates the same under the agent');
        // JDK 24+ warns on the program's stderr when native code loads without native access: the agent prevents it
        assert.doesNotMatch(r.stderr, /WARNING: (A restricted method|A native method)/, r.stderr);
        const doc = JSON.parse(fs.readFileSync(out, 'utf8')) as Doc;

        assert.equal(doc.meta.mode, 'sampled');
        assert.equal(doc.meta.sampler, 'jvmti', `the heap sampler loaded: ${doc.transform.warnings.join('; ')}`);
        assert.equal(doc.meta.sampleBytes, K);
        assert.equal(doc.meta.sampleBytesMax, K, 'no rate budget: K stayed');
        assert.deepEqual(doc.transform.warnings, []);
        // no probes: nothing transformed at start or since, as in the paused mode
        assert.equal(doc.transform.classesTransformed, 0);
        assert.equal(doc.transform.retransformed, 0);
        assert.equal(doc.transform.methodsProfiled, 0);
        assert.ok((doc.agent.heapSamples ?? 0) > 1000, `samples: ${doc.agent.heapSamples}`);

        const typeName = new Map(doc.types.map((t) => [t.id, t.name]));
        const names = new Map(doc.methods.map((m) => [m.id, `${m.class}.${m.name}`]));
        const sites = new Map(doc.sites.map((s) => [s.id, s]));
        // the sampled trees: per type the recorded count and how much of it sits under the fixture's allocating frames
        const inTrees = new Map<string, number>();
        const underFrames = new Map<string, number>();
        for (const t of doc.threads) {
          walk(t.sampled, (n, p) => {
            for (const [site, type, count] of n.a ?? []) {
              const name = typeName.get(type)!;
              assert.equal(sites.get(site)!.kind, 'jvmti');
              inTrees.set(name, (inTrees.get(name) ?? 0) + count);
              if (p.map((m) => names.get(m)).join(' > ') === fx.frames) underFrames.set(name, (underFrames.get(name) ?? 0) + count);
            }
          });
        }
        const intervals = new Map((doc.agent.jfrTypes ?? []).map(([id, seen, count, countSd, bytes, bytesSd]) => [typeName.get(id)!, { seen, count, countSd, bytes, bytesSd }]));
        const lines: string[] = [];
        for (const [name, n] of truth) {
          const e = intervals.get(name);
          assert.ok(e, `${name}: no estimate in agent.jfrTypes`);
          assert.equal(inTrees.get(name), e.count, `${name}: trees ${inTrees.get(name)} vs the stated ${e.count}`);
          assert.ok((underFrames.get(name) ?? 0) >= 0.99 * e.count, `${name}: ${underFrames.get(name)} of ${e.count} under ${fx.frames}`);
          const size = fx.sizes.get(name)!;
          const zc = (e.count - n) / e.countSd, zb = (e.bytes - n * size) / e.bytesSd;
          lines.push(`${name} ${e.count} ± ${e.countSd} (true ${n}, ${((e.count - n) / n * 100).toFixed(2)} %, z ${zc.toFixed(2)}; bytes z ${zb.toFixed(2)}; ${e.seen} samples)`);
          assert.ok(e.countSd > 0 && e.countSd < 0.2 * n, `${name}: sd ${e.countSd} of ${n}: the interval says something`);
          assert.ok(Math.abs(e.count - n) <= Z * e.countSd + 1, `${name}: count ${e.count} vs ${n}: more than ${Z} sd (${e.countSd}) apart`);
          assert.ok(Math.abs(e.bytes - n * size) <= Z * e.bytesSd + 1, `${name}: bytes ${e.bytes} vs ${n * size}: more than ${Z} sd (${e.bytesSd}) apart`);
        }
        console.log(`JDK ${jdk.name} ${fx.name}: ${doc.agent.heapSamples} samples (${doc.agent.heapSamplesDropped} dropped)\n  ${lines.join('\n  ')}`);
        // each site is the allocating frame at its bytecode index, in the fixture's own code
        const own = [...sites.values()].filter((s) => names.get(s.method)?.startsWith(`${fx.name}.`));
        assert.ok(own.length >= truth.size && own.every((s) => s.bci >= 0), JSON.stringify(own));

        const text = await exec(process.execPath, [CLI, 'report', out]);
        assert.equal(text.code, 0, text.stderr);
        assert.match(text.stdout, /HotSpot's heap sampling/, text.stdout);
        assert.match(text.stdout, /^\s*\S+\s+[\d,]+\s+± \d+(\.\d)? %\s/m, text.stdout);
        // and the views' data line: the label and the intervals (HTML report, Chromium)
        if (fx.name === 'heapsampling' && findChromium()) {
          const html = path.join(PROFILE_DIR, `modes-jvmti-${fx.name}-jdk${jdk.name}.html`);
          const h = await exec(process.execPath, [CLI, 'report', out, '--format', 'html', '-o', html]);
          assert.equal(h.code, 0, h.stderr);
          const page = (await chromium(pathToFileURL(html).href, ['--dump-dom', '--window-size=1400,900'])).stdout;
          assert.match(page, /HotSpot's heap sampling, each sample weighted by 1 \/ its chance of being taken/);
          assert.match(page, /<summary>Estimate intervals \(95 %\) of the \d+ largest of \d+ types<\/summary>/);
          assert.match(page, /<li>byte\[\]: [\d,.]+[^<]* ± \d+(\.\d)? %, [^<]+ ± \d+(\.\d)? %<\/li>/);
        }
      });
    }

    it('a low rate budget raises K during the run, and every type\'s count and bytes stay within their stated intervals', async () => {
      // tlabsampling for ~4 GB: at K = 16 KiB some 20,000 samples a second against a budget of 200, so the agent
      // raises K (2× a step, 4 steps a second) up to 16 × 16 KiB while the samples taken at each K keep their own weight
      const fx = FIXTURES[0], classes = compiled.get(fx.name)!, draws = '60000000';
      const plain = await exec(jdk.java, ['-cp', classes, fx.main, draws]);
      assert.equal(plain.code, 0, plain.stderr);
      const truth = trueCounts(fx.name, plain.stdout);
      const out = path.join(PROFILE_DIR, `modes-jvmti-rate-jdk${jdk.name}.heaplens`);
      fs.mkdirSync(PROFILE_DIR, { recursive: true });
      fs.rmSync(out, { force: true });
      const r = await exec(process.execPath, [CLI, 'run', '--java', jdk.java, '--out', out, '--mode', 'sampled',
        '--agent-opt', `sampleBytes=${K}`, '--agent-opt', 'sampleRate=200', '--', '-cp', classes, fx.main, draws]);
      assert.equal(r.code, 0, `heaplens run failed on JDK ${jdk.name}:\n${r.stderr}`);
      assert.deepEqual(trueCounts(fx.name, r.stdout), truth, 'the program allocates the same under the agent');
      const doc = JSON.parse(fs.readFileSync(out, 'utf8')) as Doc;
      assert.equal(doc.meta.sampler, 'jvmti', doc.transform.warnings.join('; '));
      assert.equal(doc.meta.sampleBytes, K, 'the configured interval');
      assert.equal(doc.meta.sampleRate, 200);
      assert.ok((doc.meta.sampleBytesMax ?? 0) >= 4 * K && (doc.meta.sampleBytesMax ?? 0) <= 16 * K,
        `K rose at least twice and stayed within 16 × the configured one: ${doc.meta.sampleBytesMax}`);
      const typeName = new Map(doc.types.map((t) => [t.id, t.name]));
      const intervals = new Map((doc.agent.jfrTypes ?? []).map(([id, seen, count, countSd, bytes, bytesSd]) => [typeName.get(id)!, { seen, count, countSd, bytes, bytesSd }]));
      const lines: string[] = [];
      for (const [name, n] of truth) {
        const e = intervals.get(name);
        assert.ok(e, `${name}: no estimate in agent.jfrTypes`);
        const size = fx.sizes.get(name)!;
        lines.push(`${name} ${e.count} ± ${e.countSd} (true ${n}, ${((e.count - n) / n * 100).toFixed(2)} %, z ${((e.count - n) / e.countSd).toFixed(2)}; `
          + `bytes z ${((e.bytes - n * size) / e.bytesSd).toFixed(2)}; ${e.seen} samples)`);
        assert.ok(e.countSd > 0 && e.countSd < 0.2 * n, `${name}: sd ${e.countSd} of ${n}: the interval says something`);
        assert.ok(Math.abs(e.count - n) <= Z * e.countSd + 1, `${name}: count ${e.count} vs ${n}: more than ${Z} sd (${e.countSd}) apart`);
        assert.ok(Math.abs(e.bytes - n * size) <= Z * e.bytesSd + 1, `${name}: bytes ${e.bytes} vs ${n * size}: more than ${Z} sd (${e.bytesSd}) apart`);
      }
      console.log(`JDK ${jdk.name} rate budget 200/s: K ${K} → up to ${doc.meta.sampleBytesMax}, ${doc.agent.heapSamples} samples\n  ${lines.join('\n  ')}`);
      const text = await exec(process.execPath, [CLI, 'report', out]);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /a sample every 16 KiB allocated on average, raised up to every \d+ KiB while the program allocated fast/, text.stdout);
    });

    it('switches exact → sampled → exact while running: the heap sampler runs only in sampled, exact counts continue', async () => {
      // no sampler option: HotSpot's heap sampler is the default; sampled needs no probes (the classes' original bytes)
      const { toSampled, profile } = await runExactSampledExact(jdk.java, `modes-jvmti-switch-jdk${jdk.name}`, `sampleBytes=${K}`, compiled.get('modeswitch')!);
      assert.ok(Number(toSampled.retransformed) > 0, `switch to sampled: ${JSON.stringify(toSampled)}`);
      const doc = JSON.parse(profile) as Doc;
      assert.equal(doc.meta.sampler, 'jvmti', doc.transform.warnings.join('; '));
      assert.deepEqual(doc.meta.modes!.map((m) => m.mode), ['exact', 'sampled', 'exact']);
      // the exact tree holds phases 1 and 3 only: nothing of the sampled phase leaked into exact counts
      assert.equal(exactCount(doc, 'modeswitch.Main$Marker'), 125_000);
      // and the sampled tree phase 2 only (16 B each): within its stated interval of 50,000
      const marker = doc.types.find((t) => t.name === 'modeswitch.Main$Marker')!;
      const e = (doc.agent.jfrTypes ?? []).find(([id]) => id === marker.id);
      assert.ok(e, 'Markers were sampled in the sampled phase');
      const [, seen, count, countSd] = e;
      console.log(`JDK ${jdk.name} switch: Marker ${count} ± ${countSd} of 50,000 (${seen} samples)`);
      assert.ok(seen > 5 && Math.abs(count - 50_000) <= Z * countSd + 1, `Marker ${count} ± ${countSd} vs 50,000`);
    });
  });
}
