// The sampled mode fed by JFR's allocation samples (agent option sampler=jfr, docs/modes.md "sampler=jfr") on real
// JVMs (JDK 17 and 25): no class is instrumented, the program's output is unchanged, the samples carry the
// fixture's frames, and the estimate of the fixture's dominant type falls within the bound stated below.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { before, describe, it } from 'node:test';
import { CLI, JDK17, JDKS, PROFILE_DIR } from './support/env';
import { compileFixture, exec } from './support/heaplens';

interface Node { m?: number; a?: [number, number, number, number, number][]; c?: Node[] }
interface Doc {
  meta: { mode: string; sampler?: string };
  types: { id: number; name: string }[];
  methods: { id: number; class: string; name: string; profiled: boolean }[];
  sites: { id: number; method: number; kind: string }[];
  threads: { name: string; sampled?: Node }[];
  transform: { classesTransformed: number; retransformed: number; methodsProfiled: number; warnings: string[] };
  agent: { jfrSamples?: number };
}

const CELLS = 4_000_000;
const OUTPUT = 'jfrsampling done 7999998000000';

function walk(n: Node | undefined, visit: (n: Node, path: number[]) => void, path: number[] = []): void {
  if (!n) return;
  const p = n.m === undefined ? path : [...path, n.m];
  visit(n, p);
  for (const c of n.c ?? []) walk(c, visit, p);
}

let classes = '';
before(async () => { classes = await compileFixture('jfrsampling', { jdk: JDK17 }); });

for (const jdk of JDKS) {
  describe(`sampled mode with sampler=jfr on JDK ${jdk.name}`, () => {
    it('records JFR allocation samples without instrumenting any class', async () => {
      const plain = await exec(jdk.java, ['-cp', classes, 'jfrsampling.Main']);
      assert.equal(plain.code, 0, plain.stderr);
      assert.equal(plain.stdout.trim(), OUTPUT);

      const out = path.join(PROFILE_DIR, `modes-jfr-jdk${jdk.name}.heaplens`);
      fs.mkdirSync(PROFILE_DIR, { recursive: true });
      fs.rmSync(out, { force: true });
      const r = await exec(process.execPath, [CLI, 'run', '--java', jdk.java, '--out', out, '--mode', 'sampled',
        '--agent-opt', 'sampler=jfr', '--', '-cp', classes, 'jfrsampling.Main']);
      assert.equal(r.code, 0, `heaplens run failed on JDK ${jdk.name}:\n${r.stderr}`);
      assert.ok(r.stdout.includes(OUTPUT), `the program's output is unchanged: ${r.stdout}`);
      const doc = JSON.parse(fs.readFileSync(out, 'utf8')) as Doc;

      assert.equal(doc.meta.mode, 'sampled');
      assert.equal(doc.meta.sampler, 'jfr', `JFR sampling started: ${doc.transform.warnings.join('; ')}`);
      // no probes: nothing transformed at start or since, as in the paused mode
      assert.equal(doc.transform.classesTransformed, 0);
      assert.equal(doc.transform.retransformed, 0);
      assert.equal(doc.transform.methodsProfiled, 0);
      assert.ok((doc.agent.jfrSamples ?? 0) >= 20, `JFR samples: ${doc.agent.jfrSamples}`);

      // The estimate for Cell on the main thread, and the samples' calling traces (the fixture's frames).
      const cell = new Set(doc.types.filter((t) => t.name === 'jfrsampling.Main$Cell').map((t) => t.id));
      const names = new Map(doc.methods.map((m) => [m.id, `${m.class}.${m.name}`]));
      const sites = new Map(doc.sites.map((s) => [s.id, s]));
      let est = 0;
      let underFill = 0;
      for (const t of doc.threads) {
        walk(t.sampled, (n, p) => {
          for (const [site, type, count] of n.a ?? []) {
            if (!cell.has(type)) continue;
            est += count;
            assert.equal(sites.get(site)!.kind, 'jfr');
            if (p.map((m) => names.get(m)).join(' > ') === 'jfrsampling.Main.main > jfrsampling.Main.fill') underFill += count;
          }
        });
      }
      const err = (est - CELLS) / CELLS;
      console.log(`JDK ${jdk.name}: Cell estimate ${est} of ${CELLS} (${(err * 100).toFixed(1)} %), ${doc.agent.jfrSamples} samples`);
      assert.ok(underFill >= 0.95 * est && est > 0, `Cell samples under main > fill: ${underFill} of ${est}`);
      // The bound (docs/modes.md, "sampler=jfr"): JFR's weights sum a thread's allocated bytes between samples, and
      // here almost all of main's bytes after start-up are Cells, so on JDK 17 the estimate is the count up to the
      // bytes before the first and after the last sample (measured -0.1 to -0.8 %; bound ±10 %). On JDK 25 the
      // JVM's own weights miss bytes allocated by compiled code (plain -XX:StartFlightRecording, no agent: 14 % of
      // Cell's bytes; with the agent measured 47-70 %): there the bound is only that nothing is over-counted.
      if (jdk.name === '17') assert.ok(Math.abs(err) <= 0.10, `Cell: estimate ${est} vs ${CELLS}: ${(err * 100).toFixed(1)} % > ±10 %`);
      else assert.ok(est <= 1.10 * CELLS && est >= 0.05 * CELLS, `Cell: estimate ${est} vs ${CELLS} outside [5 %, 110 %]`);
    });
  });
}
