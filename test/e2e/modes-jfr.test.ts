// The sampled mode fed by JFR's allocation samples (agent option sampler=jfr, docs/modes.md "sampler=jfr") on real
// JVMs (JDK 17 and 25): no class is instrumented, the program's output is unchanged, the samples carry the
// fixture's frames, and the estimate of the fixture's dominant type falls within the bound stated below; a live
// switch exact → sampled → exact drops and restores the probes and keeps the exact counts.
import * as assert from 'assert/strict';
import { spawn } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { before, describe, it } from 'node:test';
import { ChannelClient } from '../../extension/channel/client';
import { waitForPortFile } from '../../extension/channel/portfile';
import { CLI, JDK17, JDKS, PROFILE_DIR, ROOT } from './support/env';
import { compileFixture, exec } from './support/heaplens';

interface Node { m?: number; a?: [number, number, number, number, number][]; c?: Node[] }
interface Doc {
  meta: { mode: string; sampler?: string; modes?: { mode: string; retransformed?: number }[] };
  types: { id: number; name: string }[];
  methods: { id: number; class: string; name: string; profiled: boolean }[];
  sites: { id: number; method: number; kind: string }[];
  threads: { name: string; root?: Node; sampled?: Node }[];
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

function exactCount(doc: Doc, typeName: string): number {
  const ids = new Set(doc.types.filter((t) => t.name === typeName).map((t) => t.id));
  let n = 0;
  for (const t of doc.threads) walk(t.root, (node) => { for (const [, type, count] of node.a ?? []) if (ids.has(type)) n += count; });
  return n;
}

let classes = '';
let modeswitch = '';
before(async () => {
  [classes, modeswitch] = await Promise.all([compileFixture('jfrsampling', { jdk: JDK17 }), compileFixture('modeswitch', { jdk: JDK17 })]);
});

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

    it('switches between exact and sampled while running: sampled drops the probes, exact counts continue', async () => {
      const out = path.join(PROFILE_DIR, `modes-jfr-switch-jdk${jdk.name}.heaplens`);
      const portFile = path.join(PROFILE_DIR, `modes-jfr-switch-jdk${jdk.name}.port`);
      for (const f of [out, portFile]) fs.rmSync(f, { force: true });
      const token = crypto.randomBytes(24).toString('hex');
      const agent = path.join(ROOT, 'dist', 'heaplens-agent.jar');
      const child = spawn(jdk.java, [`-javaagent:${agent}=out=${out},portFile=${portFile},sampler=jfr`, '-cp', modeswitch, 'modeswitch.Main'],
        { env: { ...process.env, HEAPLENS_TOKEN: token }, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout!.on('data', (d) => { stdout += d; });
      const phaseDone = async (n: number): Promise<void> => {
        for (let i = 0; i < 600 && !stdout.includes(`phase ${n} done`); i++) await new Promise((r) => setTimeout(r, 100));
        assert.ok(stdout.includes(`phase ${n} done`), `phase ${n} did not finish: ${stdout}`);
      };
      const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
      try {
        const port = await waitForPortFile(portFile, { timeoutMs: 60_000 });
        const client = await ChannelClient.connect({ port: port.port, token, client: 'e2e' });
        child.stdin!.write('go\n');
        await phaseDone(1);                                  // 100,000 Markers, exact
        const toSampled = await client.request('mode', { mode: 'sampled' });
        child.stdin!.write('go\n');
        await phaseDone(2);                                  // 50,000 sampled by JFR: the original code runs
        await client.request('mode', { mode: 'exact' });
        child.stdin!.write('go\n');
        await phaseDone(3);                                  // 25,000 exact again
        client.close();
        child.stdin!.end();
        assert.equal(await exited, 0);
        // with sampler=jfr, sampled needs no probes: the switch took every class back to its original bytes
        assert.ok(Number(toSampled.retransformed) > 0, `switch to sampled: ${JSON.stringify(toSampled)}`);
        const doc = JSON.parse(fs.readFileSync(out, 'utf8')) as Doc;
        assert.equal(doc.meta.sampler, 'jfr');
        assert.deepEqual(doc.meta.modes!.map((m) => m.mode), ['exact', 'sampled', 'exact']);
        // the exact tree holds phases 1 and 3 only: nothing of the sampled phase leaked into exact counts
        assert.equal(exactCount(doc, 'modeswitch.Main$Marker'), 125_000);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    });
  });
}
