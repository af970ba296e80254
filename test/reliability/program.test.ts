// "The program keeps working" (docs/reliability.md): hostile class files, many threads, deep recursion,
// virtual threads, and a program at 90% of its -Xmx — same output with and without the agent, -Xverify:all,
// no transform failure, and the profile still exact where the agent can see.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import { before, describe, it } from 'node:test';
import { APP_ASM_JAR, CLI, JDK17, JDKS } from '../e2e/support/env';
import { compileFixture, exec, Exec } from '../e2e/support/heaplens';
import { parseCollapsed } from '../e2e/support/collapsed';
import { agentArg, java, outFile, readProfile } from './support';

async function collapsed(file: string, metric = 'objects'): Promise<Map<string, number>> {
  const r = await exec(process.execPath, [CLI, 'report', file, '--format', 'collapsed', '--metric', metric]);
  assert.equal(r.code, 0, r.stderr);
  return parseCollapsed(r.stdout);
}

/** Sum of the lines whose stack contains `frame` and ends in `type`. */
function sumOf(lines: Map<string, number>, frame: string | RegExp, type: string): number {
  let n = 0;
  const is = (f: string) => (typeof frame === 'string' ? f === frame : frame.test(f));
  for (const [stack, v] of lines) {
    const parts = stack.split(';');
    if (parts[parts.length - 1] === type && parts.slice(0, -1).some(is)) n += v;
  }
  return n;
}

interface Pair { plain: Exec; profiled: Exec; profile: string }

/** The fixture run twice on a JDK: without and with the agent. */
async function pair(jdk: typeof JDK17, name: string, classpath: string[], jvmArgs: string[] = [], agentExtra = ''): Promise<Pair> {
  const profile = outFile(`${name}-jdk${jdk.name}.heaplens`);
  const [plain, profiled] = await Promise.all([
    java(jdk, { jvmArgs, classpath, main: `${name}.Main` }),
    java(jdk, { agent: agentArg(profile, agentExtra), jvmArgs, classpath, main: `${name}.Main` }),
  ]);
  return { plain, profiled, profile };
}

function sameRun(p: Pair, lastLine: string): void {
  assert.equal(p.plain.code, 0, `unprofiled run failed:\n${p.plain.stderr}`);
  assert.equal(p.profiled.code, 0, `profiled run failed:\n${p.profiled.stderr}`);
  assert.ok(p.plain.stdout.includes(lastLine), p.plain.stdout);
  assert.equal(p.profiled.stdout, p.plain.stdout, 'the output with the agent differs from the output without it');
  assert.doesNotMatch(p.profiled.stderr, /VerifyError|ClassFormatError|heaplens: could not/, p.profiled.stderr);
}

if (!fs.existsSync(APP_ASM_JAR)) throw new Error(`the hostile fixture needs ${APP_ASM_JAR}`);

for (const jdk of JDKS) {
  describe(`hostile class files on JDK ${jdk.name}`, () => {
    let p: Pair;
    before(async () => {
      const dir = await compileFixture('hostile', { jdk: JDK17, classpath: [APP_ASM_JAR] });
      p = await pair(jdk, 'hostile', [dir, APP_ASM_JAR]);
    });

    it('runs with identical output with and without the agent, -Xverify:all, no transform failure', () => {
      sameRun(p, 'hostile done');
      const t = readProfile(p.profile).transform;
      assert.deepEqual(t.failures, []);
      assert.ok(p.plain.stdout.includes('big 21841/8'), p.plain.stdout);
    });

    it('a method near the 64 KB limit is left as is (warning), its small sibling is profiled', async () => {
      const t = readProfile(p.profile).transform;
      assert.ok(t.warnings.some((w: string) => w.startsWith('biggen.Big.big()I: too large to instrument')), JSON.stringify(t.warnings));
      const arrays = await collapsed(p.profile, 'arrays');
      assert.equal(sumOf(arrays, 'biggen.Big.small', 'java.lang.Object[]'), 4);
      const objects = await collapsed(p.profile);
      assert.equal([...objects.keys()].filter((k) => k.includes('biggen.Big.big')).length, 0, 'big() has no probes');
    });

    it('a version 48 class with JSR/RET is instrumented and counted', async () => {
      assert.equal(sumOf(await collapsed(p.profile), 'oldgen.Jsr.run', 'java.lang.StringBuilder'), 5);
    });

    it('Proxy, lambda and three loaders of one class (child-first, from bytes, application) are counted', async () => {
      const o = await collapsed(p.profile);
      assert.equal(sumOf(o, /^hostile\.\$Proxy\d+\.make$/, 'hostile.Token'), 7);
      assert.equal(sumOf(o, 'hostile.Main.lambda', 'hostile.Token'), 8);
      assert.equal(sumOf(o, 'hostile.Plugin.work', 'hostile.Token'), 9);
    });

    it('a hidden class runs unharmed; its own code is not seen (the JVM gives hidden classes to no transformer)', async () => {
      assert.ok(p.profiled.stdout.includes('hidden 6 true'));
      const o = await collapsed(p.profile);
      assert.equal([...o.keys()].filter((k) => k.includes('HiddenSupplier.get')).length, 0);
    });
  });

  describe(`scale on JDK ${jdk.name}: 1000 threads, recursion 10,000 deep, virtual threads`, () => {
    let p: Pair;
    before(async () => {
      const dir = await compileFixture('scale', { jdk: JDK17 });
      p = await pair(jdk, 'scale', [dir]);
    });

    it('same output with and without the agent', () => sameRun(p, 'scale done'));

    it('every allocation of 1000 threads is counted, one call tree per thread', async () => {
      const o = await collapsed(p.profile);
      assert.equal(sumOf(o, 'scale.Main$Worker.run', 'scale.Main$Cell'), 3000);
      const prof = readProfile(p.profile);
      const workers = prof.threads.filter((t: { name: string }) => /^worker-\d+$/.test(t.name));
      assert.equal(workers.length, 1000);
    });

    it('recursion 10,000 deep: all 10,000 Cell counted, the tree folds at maxDepth 4096', async () => {
      const o = await collapsed(p.profile);
      assert.equal(sumOf(o, 'scale.Main$Deep.down', 'scale.Main$Cell'), 10_000);
      let deepest = 0;
      for (const k of o.keys()) if (k.includes('Deep.down')) deepest = Math.max(deepest, k.split(';').length - 1);
      assert.ok(deepest <= 4097 && deepest >= 4090, `deepest stack ${deepest}`);
    });

    it(jdk.name === '25' ? '500 virtual threads: 1000 Cell counted' : 'no virtual threads before JDK 21', async () => {
      const o = await collapsed(p.profile);
      const n = sumOf(o, 'scale.Main$VirtualJob.run', 'scale.Main$Cell');
      assert.equal(n, jdk.name === '25' ? 1000 : 0);
    });
  });

  describe(`a program at 90% of -Xmx128m on JDK ${jdk.name}`, () => {
    let p: Pair;
    before(async () => {
      const dir = await compileFixture('nearxmx', { jdk: JDK17 });
      p = await pair(jdk, 'nearxmx', [dir], ['-Xmx128m']);
    });

    it('finishes with the same output: the agent does not push it over its heap limit', () => sameRun(p, 'nearxmx done made=524288'));

    it("the agent's memory is bounded and reported", () => {
      const prof = readProfile(p.profile);
      const a = prof.agent;
      assert.equal(prof.meta.final, true);
      assert.equal(a.heapMax > 100 << 20 && a.heapMax <= 128 << 20, true, `heapMax ${a.heapMax}`);
      assert.ok(a.maxNodes <= a.heapMax / 32 / 200, `node budget ${a.maxNodes} is more than 1/32 of the heap`);
      assert.ok(a.treeBytes > 0 && a.treeBytes <= a.heapMax / 16, `tree bytes ${a.treeBytes}`);
      assert.ok(a.nodes <= a.maxNodes + 8, `nodes ${a.nodes} > budget ${a.maxNodes}`);
      // the heap guard's GC notifications are the agent's work: the JVM thread delivering them is not listed
      assert.deepEqual(prof.threads.map((t: { name: string }) => t.name).filter((n: string) => /Notification Thread/.test(n)), []);
    });
  });

  describe(`sampling while classes load on JDK ${jdk.name}`, () => {
    let p: Pair;
    before(async () => {
      const dir = await compileFixture('loadsample', { jdk: JDK17 });
      // the probe sampler's stack walk is what can load classes (HotSpot's sampler takes traces in native code)
      p = await pair(jdk, 'loadsample', [dir], [], 'mode=sampled,sampleBytes=1024,sampler=probes');
    });

    // Before the fix, JDK 25 failed here with "LinkageError: loader 'app' attempted duplicate class definition":
    // a stack walked during the definition of Lazy0 resolved make0's descriptor, which loaded Lazy0 again.
    it('the program runs as without the agent: no class is defined twice', () => sameRun(p, 'loadsample done 8'));

    it('the samples taken while the classes loaded are in the profile, charged to the loading methods', () => {
      const prof = readProfile(p.profile);
      assert.equal(prof.meta.final, true);
      const main = prof.threads.find((t: { name: string }) => t.name === 'main');
      const methods = new Map(prof.methods.map((m: { id: number; class: string; name: string }) => [m.id, `${m.class}.${m.name}`]));
      const seen = new Set<string>();
      const stack = [main.sampled];
      while (stack.length) {
        const n = stack.pop();
        if (!n) continue;
        if (n.m !== undefined) seen.add(methods.get(n.m) as string);
        stack.push(...(n.c ?? []));
      }
      // every makeN allocated at least a Lazy and its long[8] (> 1 KiB over all eight): at least one is sampled
      assert.ok([...seen].some((m) => /^loadsample\.Main\.make\d$/.test(m)), `sampled frames: ${[...seen].join(', ')}`);
    });
  });
}
