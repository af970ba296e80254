// The agent's modes on real JVMs (JDK 17 and 25):
// - sites mode counts exactly what exact mode counts, per allocation site;
// - sampled mode's estimates fall within the statistical bound stated below;
// - a live switch over the channel keeps the earlier counts and continues correctly;
// - a program started paused is instrumented by its first switch and counts only what ran after it.
import * as assert from 'assert/strict';
import { ChildProcess, spawn } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { before, describe, it } from 'node:test';
import { ChannelClient, MODE_SWITCH_TIMEOUT_MS } from '../../extension/channel/client';
import { LiveSession } from '../../extension/channel/session';
import { waitForPortFile } from '../../extension/channel/portfile';
import { CLI, JDK17, JDKS, Jdk, PROFILE_DIR, ROOT } from './support/env';
import { compileFixture, exec } from './support/heaplens';
import { perSite } from './support/profile';

interface Rec { site: number; type: number; count: number; elements: number }
interface Node { m?: number; a?: [number, number, number, number, number][]; c?: Node[] }
interface Doc {
  meta: { mode: string; modes?: { mode: string; since: number; retransformed?: number; retransformMillis?: number }[]; sampleBytes?: number };
  types: { id: number; name: string }[];
  methods: { id: number; class: string; name: string }[];
  sites: { id: number; method: number; bci: number }[];
  threads: { name: string; root: Node; sites?: Node; siteTraces?: Node; sampled?: Node }[];
  agent?: { lostTraces?: number; firstLostTrace?: string };
}

function records(node: Node | undefined, out: Rec[] = []): Rec[] {
  const stack = node ? [node] : [];
  while (stack.length) {
    const n = stack.pop()!;
    for (const [site, type, count, elements] of n.a ?? []) out.push({ site, type, count, elements });
    for (const c of n.c ?? []) stack.push(c);
  }
  return out;
}

/**
 * How many arrays java.util.ArrayList.grow allocated under the fixture's phase method (each list's first element:
 * its Object[10]) in the exact mode's call tree; the JDK's own lists elsewhere are left out.
 */
function growsInPhases(doc: Doc): number {
  const phase = new Set(doc.methods.filter((m) => m.class === 'modeswitch.Main' && m.name === 'phase').map((m) => m.id));
  const grow = new Set(doc.methods.filter((m) => m.class === 'java.util.ArrayList' && m.name === 'grow').map((m) => m.id));
  const sites = new Set(doc.sites.filter((s) => grow.has(s.method)).map((s) => s.id));
  let count = 0;
  const stack: [Node, boolean][] = doc.threads.map((t) => [t.root, false]);
  while (stack.length) {
    const [n, inPhase] = stack.pop()!;
    const under = inPhase || (n.m !== undefined && phase.has(n.m));
    if (under) for (const [site, , c] of n.a ?? []) if (sites.has(site)) count += c;
    for (const c of n.c ?? []) stack.push([c, under]);
  }
  return count;
}

function countOf(doc: Doc, tree: 'root' | 'sites' | 'siteTraces' | 'sampled', typeName: string): { count: number; elements: number } {
  const ids = new Set(doc.types.filter((t) => t.name === typeName).map((t) => t.id));
  let count = 0;
  let elements = 0;
  for (const t of doc.threads) {
    for (const r of records(t[tree])) if (ids.has(r.type)) { count += r.count; elements += r.elements; }
  }
  return { count, elements };
}

async function profiled(jdk: Jdk, classes: string, main: string, tag: string, cliArgs: string[]): Promise<Doc> {
  const out = path.join(PROFILE_DIR, `${tag}-jdk${jdk.name}.heaplens`);
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
  fs.rmSync(out, { force: true });
  const r = await exec(process.execPath, [CLI, 'run', '--java', jdk.java, '--out', out, ...cliArgs, '--',
    '-Xverify:all', '-cp', classes, main]);
  assert.equal(r.code, 0, `heaplens run ${tag} on JDK ${jdk.name} failed:\n${r.stderr}`);
  return JSON.parse(fs.readFileSync(out, 'utf8')) as Doc;
}

let loops = '';
let sampling = '';
let modeswitch = '';
before(async () => {
  [loops, sampling, modeswitch] = await Promise.all([
    compileFixture('loops', { jdk: JDK17 }),
    compileFixture('sampling', { jdk: JDK17 }),
    compileFixture('modeswitch', { jdk: JDK17 }),
  ]);
});

/**
 * The modeswitch fixture with the agent and its channel (`opts`: more agent options): `phase(n)` lets the program run
 * its phase n (one line on its stdin) and waits until it says that phase is done.
 */
function startModeswitch(jdk: Jdk, tag: string, opts: string): {
  child: ChildProcess; out: string; portFile: string; token: string; phase: (n: number) => Promise<void>; ended: () => Promise<void>;
} {
  const out = path.join(PROFILE_DIR, `modes-${tag}-jdk${jdk.name}.heaplens`);
  const portFile = path.join(PROFILE_DIR, `modes-${tag}-jdk${jdk.name}.port`);
  for (const f of [out, portFile]) fs.rmSync(f, { force: true });
  const token = crypto.randomBytes(24).toString('hex');
  const agent = path.join(ROOT, 'dist', 'heaplens-agent.jar');
  const child: ChildProcess = spawn(jdk.java, [`-javaagent:${agent}=out=${out},portFile=${portFile}${opts}`,
    '-cp', modeswitch, 'modeswitch.Main'], { env: { ...process.env, HEAPLENS_TOKEN: token }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  const waiters: Array<() => void> = [];
  child.stdout!.on('data', (d) => { stdout += d; waiters.splice(0).forEach((w) => w()); });
  const phase = (n: number): Promise<void> => new Promise((resolve, reject) => {
    child.stdin!.write('go\n');
    const deadline = setTimeout(() => reject(new Error(`phase ${n} did not finish; stdout: ${stdout}`)), 60_000);
    const check = (): void => {
      if (stdout.includes(`phase ${n} done`)) { clearTimeout(deadline); resolve(); } else waiters.push(check);
    };
    check();
  });
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  const ended = async (): Promise<void> => {     // the program's last phase: its stdin closed, it exits cleanly
    child.stdin!.end();
    assert.equal(await exited, 0);
  };
  return { child, out, portFile, token, phase, ended };
}

/** The profile the fixture wrote at its exit: its timeline is `modes`, and each switch re-instrumented the loaded classes. */
function switchedProfile(out: string, modes: string[]): Doc {
  const doc = JSON.parse(fs.readFileSync(out, 'utf8')) as Doc;
  assert.deepEqual(doc.meta.modes!.map((m) => m.mode), modes);
  for (const m of doc.meta.modes!.slice(1)) {
    assert.ok((m.retransformed ?? 0) > 0, `the switch to ${m.mode} re-instrumented the loaded classes: ${JSON.stringify(m)}`);
  }
  return doc;
}

for (const jdk of JDKS) {
  describe(`modes on JDK ${jdk.name}`, () => {
    it('sites mode counts exactly what exact mode counts, per allocation site', async () => {
      const [exact, sites] = await Promise.all([
        profiled(jdk, loops, 'loops.Main', 'modes-loops-exact', ['--mode', 'exact']),
        profiled(jdk, loops, 'loops.Main', 'modes-loops-sites', ['--mode', 'sites']),
      ]);
      assert.equal(sites.meta.mode, 'sites');
      const e = perSite(exact, 'root', 'loops');
      const s = perSite(sites, 'sites', 'loops');
      assert.ok(e.size >= 3, `exact mode saw the fixture's sites: ${[...e.keys()].join(', ')}`);
      assert.deepEqual(new Map([...s].sort()), new Map([...e].sort()));
      // no call tree in sites mode, but traces for each site: the 1st, 2nd, 4th, ... allocation of a site
      assert.equal(records(sites.threads.find((t) => t.name === 'main')!.root).length, 0);
      const traced = countOf(sites, 'siteTraces', 'loops.Point');
      assert.ok(traced.count >= 1 && traced.count <= 11, `Point traces sampled: ${traced.count}`);
    });

    it('sampled mode (probe sampler) estimates fall within 4 standard deviations of the exact counts', async () => {
      const K = 16 * 1024;
      // the probes' own model below; HotSpot's heap sampler (the default) has its e2e test in modes-jvmti.test.ts
      const doc = await profiled(jdk, sampling, 'sampling.Main', 'modes-sampling',
        ['--mode', 'sampled', '--agent-opt', `sampleBytes=${K}`, '--agent-opt', 'sampler=probes']);
      assert.equal(doc.meta.sampleBytes, K);
      assert.equal((doc.meta as { sampler?: string }).sampler, 'probes');
      // Sample points fall on the allocated bytes as a Poisson process of mean spacing K; an allocation holding
      // n points stands for n·K bytes (docs/modes.md). For a type that receives B_T bytes, n_T ~ Poisson(B_T / K)
      // points land on it, so its estimate's relative standard deviation is sqrt(1 / E[n_T]) = sqrt(K / B_T).
      const pairBytes = 32; // 12-byte header, the longs 8-aligned from offset 16: 32 (compressed class pointers)
      const arrayBytes = 120; // 16-byte array header + 100, aligned to 8
      for (const [type, exact, bytes] of [['sampling.Main$Pair', 1_000_000, pairBytes], ['byte[]', 1_000_000, arrayBytes]] as const) {
        const est = countOf(doc, 'sampled', type).count;
        const nT = (exact * bytes) / K;
        const sigma = Math.sqrt(1 / nT);
        const err = Math.abs(est - exact) / exact;
        assert.ok(err <= 4 * sigma, `${type}: estimate ${est} vs exact ${exact}: error ${(err * 100).toFixed(2)}% > 4σ = ${(400 * sigma).toFixed(2)}%`);
      }
      // the samples' calling traces are made of the fixture's frames, as exact mode's call tree would be
      const frames = new Set<string>();
      const names = new Map(doc.methods.map((m) => [m.id, `${m.class}.${m.name}`]));
      for (const t of doc.threads) {
        const stack = t.sampled ? [t.sampled] : [];
        while (stack.length) { const n = stack.pop()!; if (n.m !== undefined) frames.add(names.get(n.m)!); stack.push(...(n.c ?? [])); }
      }
      assert.ok(frames.has('sampling.Main.main') && frames.has('sampling.Main.churn'), `sampled frames: ${[...frames].join(', ')}`);
      // ~9,300 samples here; a walk can fail now and then (a sample taken while the JVM loads a class the walker
      // needs: ClassCircularityError), and such a sample still counts, at the root. Before the JDK 25 fix all failed.
      assert.ok((doc.agent?.lostTraces ?? 0) <= 10, `${doc.agent?.lostTraces} stack walks failed: ${doc.agent?.firstLostTrace}`);
      const elements = countOf(doc, 'sampled', 'byte[]').elements;
      assert.ok(Math.abs(elements - 100_000_000) / 100_000_000 <= 4 * Math.sqrt(1 / ((1_000_000 * arrayBytes) / K)));
    });

    it('a live switch over the channel keeps the earlier counts and continues correctly', async () => {
      const { child, out, token, portFile, phase, ended } = startModeswitch(jdk, 'switch', '');
      try {
        const port = await waitForPortFile(portFile, { timeoutMs: 60_000 });
        const client = await ChannelClient.connect({ port: port.port, token, client: 'e2e' });
        const live = new LiveSession(client);     // what the panel shows while the program runs
        const liveCount = (tree: 'root' | 'sites'): number => countOf(live.profile.toProfile().file as unknown as Doc, tree, 'modeswitch.Main$Marker').count;
        const liveReaches = (tree: 'root' | 'sites', n: number): Promise<void> => new Promise((resolve, reject) => {
          const deadline = setTimeout(() => reject(new Error(`live ${tree} Markers stayed at ${liveCount(tree)}, expected ${n}`)), 20_000);
          const check = (): void => {
            if (liveCount(tree) !== n) return;
            clearTimeout(deadline);
            live.off('update', check);
            resolve();
          };
          live.on('update', check);
          check();
        });
        await phase(1);                       // 100,000 Markers in exact mode
        await liveReaches('root', 100_000);
        await client.request('mode', { mode: 'sites' }, MODE_SWITCH_TIMEOUT_MS);
        await phase(2);                       // 50,000 in sites mode
        await liveReaches('sites', 50_000);       // the live view has the sites mode's tree too, not only the MCT
        assert.equal(live.profile.toProfile().file.meta.mode, 'sites');
        await client.request('mode', { mode: 'exact' }, MODE_SWITCH_TIMEOUT_MS);
        await phase(3);                       // 25,000 in exact mode again
        const paused = await client.request('mode', { mode: 'paused' }, MODE_SWITCH_TIMEOUT_MS);
        await phase(4);                       // 40,000 while paused: original code, nothing recorded
        await client.request('mode', { mode: 'exact' }, MODE_SWITCH_TIMEOUT_MS);
        await phase(5);                       // 30,000 in exact mode after the pause
        // every switch here changed the instrumentation level (tree → allocations → tree → none → tree)
        assert.ok(Number(paused.retransformed) > 0 && Number(paused.retransformMillis) >= 0, `pause retransformed: ${JSON.stringify(paused)}`);
        // the live timeline says which part came from which mode, with each switch's retransformation
        const liveModes = live.profile.toProfile().file.meta.modes!;
        assert.deepEqual(liveModes.map((m) => m.mode), ['exact', 'sites', 'exact', 'paused', 'exact']);
        assert.equal(liveModes[3].retransformed, Number(paused.retransformed));
        client.close();
        await ended();
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      const doc = switchedProfile(out, ['exact', 'sites', 'exact', 'paused', 'exact']);
      assert.equal(countOf(doc, 'root', 'modeswitch.Main$Marker').count, 100_000 + 25_000 + 30_000);
      assert.equal(countOf(doc, 'sites', 'modeswitch.Main$Marker').count, 50_000);
      // A JDK class loaded before the agent (java.util.ArrayList): a warm start redefines it with the start-up cache's
      // instrumented bytes, and each switch must start again from its original bytes (docs/benchmark.md, "Start-up,
      // Round 7"). Instrumented twice over, it would count its arrays twice.
      assert.equal(growsInPhases(doc), 1_000 + 250 + 300);
      // the same instruction keeps one site across the re-instrumentations
      const markerSites = new Set(doc.threads.flatMap((t) => [...records(t.root), ...records(t.sites)])
        .filter((r) => doc.types.find((x) => x.id === r.type)?.name === 'modeswitch.Main$Marker').map((r) => r.site));
      assert.equal(markerSites.size, 1, `Marker sites: ${[...markerSites].join(', ')}`);
    });

    it('a program started paused switches to exact and sites over the channel and counts only what ran after', async () => {
      // A paused start leaves the transformer out (no class passes through it); the first switch installs it and
      // retransforms every class loaded meanwhile, Marker included (loaded in phase 1, while paused).
      const { child, out, token, portFile, phase, ended } = startModeswitch(jdk, 'fromPaused', ',mode=paused');
      try {
        const port = await waitForPortFile(portFile, { timeoutMs: 60_000 });
        const client = await ChannelClient.connect({ port: port.port, token, client: 'e2e' });
        await phase(1);                           // 100,000 Markers while paused: nothing recorded
        const toExact = await client.request('mode', { mode: 'exact' }, MODE_SWITCH_TIMEOUT_MS);
        await phase(2);                           // 50,000 in exact mode
        await client.request('mode', { mode: 'sites' }, MODE_SWITCH_TIMEOUT_MS);
        await phase(3);                           // 25,000 in sites mode
        await client.request('mode', { mode: 'paused' }, MODE_SWITCH_TIMEOUT_MS);
        await phase(4);                           // 40,000 paused again
        await client.request('mode', { mode: 'exact' }, MODE_SWITCH_TIMEOUT_MS);
        await phase(5);                           // 30,000 in exact mode
        assert.ok(Number(toExact.retransformed) > 0, `the first switch instrumented the loaded classes: ${JSON.stringify(toExact)}`);
        client.close();
        await ended();
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      const doc = switchedProfile(out, ['paused', 'exact', 'sites', 'paused', 'exact']);
      assert.equal(countOf(doc, 'root', 'modeswitch.Main$Marker').count, 50_000 + 30_000);
      assert.equal(countOf(doc, 'sites', 'modeswitch.Main$Marker').count, 25_000);
    });
  });
}
