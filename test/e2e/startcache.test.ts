// The start-up cache (docs/agent-options.md `startCache`): a start that takes the JDK classes' transformed bytes from
// the cache records exactly what a start that transforms them records. Fixture `jdkcharge` allocates inside JDK code
// (boxing, collection growth, string building), so its counts depend on the cached JDK classes.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { describe, it } from 'node:test';
import { JDK17, JDKS, ROOT } from './support/env';
import { compileFixture, FixtureRun, runFixture } from './support/heaplens';
import { isMethodTypeLinking, perSite, RawNode, RawProfile } from './support/profile';

/**
 * Every allocation record and call count of the main thread, with ids replaced by names (ids differ between runs).
 * Left out: what the JDK allocates under java.lang.invoke frames to link a program's first lambdas and string
 * concatenations. Those are one-time costs that depend on which call sites the JVM had linked before, and a cold
 * start runs the agent's own transformer (with its lambdas) before the program, a warm start does not: the program
 * then pays more of the linking itself, as it does without an agent. Likewise what the JDK allocates under
 * ClassLoader.loadClass for the program's classes: the loaders' tables are shared with the classes the agent itself
 * loaded, and which insert grows a table first depends on what the agent loaded before (a clean CI run on JDK 17 saw
 * one HashMap.resize under loadClass after a damaged cache file and none after a cold start).
 */
function counts(p: RawProfile): string[] {
  const method = (id: number | undefined): string => {
    if (id === undefined || id < 0) return '-';
    const m = p.methods.get(id);
    return m ? `${m.class}.${m.name}${m.desc}` : `?${id}`;
  };
  const out: string[] = [];
  // The main thread only: the JVM's own threads (reference handling, cleaners) allocate as the garbage collections fall.
  for (const t of p.threads.filter((x) => x.name === 'main')) {
    const rec = (n: RawNode, at: string): void => {
      const here = n.m === undefined ? `${t.name}` : `${at};${method(n.m)}`;
      if (isMethodTypeLinking(here) || here.includes(';java.lang.ClassLoader.loadClass(')) return;
      out.push(`${here} calls=${n.calls ?? 0} folded=${n.folded ?? 0}`);
      for (const r of n.a ?? []) {
        const s = p.sites.get(r[0]);
        const site = s ? `${method(s.method)}@${s.bci}:${s.kind}` : `?${r[0]}`;
        out.push(`${here} | ${site} ${p.types.get(r[1])?.name} count=${r[2]} elements=${r[3]} bytes=${r[4]} line=${r[5] ?? ''} callee=${method(r[6])}`);
      }
      for (const c of n.c ?? []) rec(c, here);
    };
    rec(t.root, '');
  }
  return out.sort();
}

const stderrOf = (r: FixtureRun): string => r.run.stderr;

const AGENT = process.env.HEAPLENS_AGENT ?? path.join(ROOT, 'dist', 'heaplens-agent.jar');

for (const jdk of JDKS) {
  describe(`start-up cache on JDK ${jdk.name}`, () => {
    it('a cold start, a warm start and a start over a damaged cache file record the same counts', async () => {
      const classes = await compileFixture('jdkcharge', { jdk: JDK17, release: 17 });
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `heaplens-startcache-${jdk.name}-`));
      try {
        const run = (tag: string): Promise<FixtureRun> => runFixture({
          jdk, classpath: [classes], mainClass: 'jdkcharge.Main', tag: `startcache-${tag}`,
          runArgs: ['--agent-opt', `startCache=${dir}`, '--agent-opt', 'verbose=true'],
        });
        const cold = await run('cold');
        assert.match(stderrOf(cold), /start-up cache written/, cold.run.stderr);
        const files = fs.readdirSync(dir).filter((f) => f.endsWith('.bin'));
        assert.equal(files.length, 1, `one cache file in ${dir}: ${files.join(', ')}`);
        // The directive that keeps the agent's code out of C2 is added from a file the agent names itself (not
        // Files.createTempFile, which sets up SecureRandom and the security providers for the program).
        assert.match(stderrOf(cold), /agent code kept out of C2: 1 compiler directives added/, cold.run.stderr);
        const coldCounts = counts(cold.profile);
        assert.ok(coldCounts.some((l) => l.includes('jdkcharge.Main.boxing') && l.includes('java.lang.Integer count=1000')),
          'the cold run charges the 1000 boxed Integers');

        const warm = await run('warm');
        const used = /start-up cache used \((\d+) classes from it, (\d+) transformed\)/.exec(stderrOf(warm));
        assert.ok(used, `the warm start says it used the cache:\n${warm.run.stderr}`);
        assert.ok(Number(used[1]) > 300, `most JDK classes come from the cache: ${used[0]}`);
        assert.deepEqual(counts(warm.profile), coldCounts, 'warm and cold starts record the same counts');
        assert.match(stderrOf(warm), /\d+ unchanged classes not retransformed/, 'the warm start leaves out the classes that keep their bytes');
        assert.match(stderrOf(warm), /agent code kept out of C2: 1 compiler directives added/, warm.run.stderr);

        // The first warm start adds the classes it had to transform (the cache read's own, or rebuilt differently
        // by the JVM) to the file; the next one reads that file and records the same counts. (How many classes it
        // still transforms is not asserted: under -Xverify:all, as here, the JVM rebuilds some classes differently at
        // every start.)
        assert.match(stderrOf(warm), /the classes it lacked added to it/, 'the first warm start adds what it lacked');
        const warm2 = await run('warm2');
        assert.match(stderrOf(warm2), /start-up cache used \(\d+ classes from it/, `the second warm start uses the cache:\n${warm2.run.stderr}`);
        assert.deepEqual(counts(warm2.profile), coldCounts, 'the second warm start records the same counts');

        // A damaged file (one flipped byte in the middle) is ignored: the start transforms and writes a sound file again.
        const file = path.join(dir, files[0]);
        const bytes = new Uint8Array(fs.readFileSync(file));
        bytes[bytes.length >> 1] ^= 0xff;
        fs.writeFileSync(file, bytes);
        const damaged = await run('damaged');
        assert.match(stderrOf(damaged), /start-up cache .* ignored \(java.io.IOException: checksum mismatch\)/, damaged.run.stderr);
        assert.match(stderrOf(damaged), /start-up cache written/);
        assert.deepEqual(counts(damaged.profile), coldCounts, 'a start over a damaged file records the same counts');

        // A file that is not a cache file at all (here: empty) is ignored the same way.
        fs.writeFileSync(file, new Uint8Array(0));
        const empty = await run('empty');
        assert.match(stderrOf(empty), /start-up cache .* ignored/, empty.run.stderr);
        assert.deepEqual(counts(empty.profile), coldCounts, 'a start over an empty file records the same counts');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('sites mode: a warm start takes the JDK classes from the cache and counts the same per site', async () => {
      const classes = await compileFixture('jdkcharge', { jdk: JDK17, release: 17 });
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `heaplens-startcache-sites-${jdk.name}-`));
      try {
        const run = (tag: string): Promise<FixtureRun> => runFixture({
          jdk, classpath: [classes], mainClass: 'jdkcharge.Main', tag: `startcache-sites-${tag}`,
          runArgs: ['--mode', 'sites', '--agent-opt', `startCache=${dir}`, '--agent-opt', 'verbose=true'],
        });
        const cold = await run('cold');
        assert.match(stderrOf(cold), /start-up cache written/, cold.run.stderr);
        // JDK allocations are charged to the fixture's call site that caused them, so these totals hold what the
        // cached JDK classes' probes counted
        const coldSites = perSite(cold.profile.json, 'sites', 'jdkcharge');
        // warmup() and run() each box 1000 Integers inside Integer.valueOf, charged to boxing's call site
        assert.deepEqual(coldSites.get('jdkcharge.Main.boxing@14 java.lang.Integer'), [2000, 0], [...coldSites].join('\n'));
        const warm = await run('warm');
        const used = /start-up cache used \((\d+) classes from it/.exec(stderrOf(warm));
        assert.ok(used && Number(used[1]) > 300, `the warm sites start uses the cache:\n${warm.run.stderr}`);
        assert.deepEqual(perSite(warm.profile.json, 'sites', 'jdkcharge'), coldSites, 'warm and cold sites starts count the same per site');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('the agent given as -agentlib:instrument=JAR=OPTIONS: a second run with another profile path starts warm', async () => {
      const classes = await compileFixture('jdkcharge', { jdk: JDK17, release: 17 });
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `heaplens-startcache-agentlib-${jdk.name}-`));
      try {
        const run = (name: string): string => {
          const out = path.join(dir, `${name}.heaplens`);
          const r = spawnSync(jdk.java, [`-agentlib:instrument=${AGENT}=out=${out},startCache=${dir},verbose=true`, '-cp', classes, 'jdkcharge.Main'],
            { encoding: 'utf8', timeout: 120_000 });
          assert.equal(r.status, 0, r.stderr);
          assert.ok(fs.statSync(out).size > 0, `${out} written`);
          return r.stderr;
        };
        assert.match(run('first'), /start-up cache written/);
        const second = run('second');
        const used = /start-up cache used \((\d+) classes from it/.exec(second);
        assert.ok(used && Number(used[1]) > 300, `the second start takes the JDK classes from the cache:\n${second}`);
        assert.equal(fs.readdirSync(dir).filter((f) => f.endsWith('.bin')).length, 1, 'one cache file for both profile paths');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
