// "The profile survives" (docs/reliability.md): System.exit, an uncaught exception, OutOfMemoryError, SIGTERM,
// SIGKILL, readers during writes (atomic replace), and a live channel cut mid-run.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as net from 'net';
import { before, describe, it } from 'node:test';
import { JDK17, JDKS } from '../e2e/support/env';
import { compileFixture } from '../e2e/support/heaplens';
import { agentArg, exited, java, outFile, readProfile, sleep, startUntil } from './support';

let classes: string;
const MARK = 'faults.Main$Mark';

/** Mark objects counted in a profile (the fixture makes 100 per marks() call). */
function marks(file: string): number {
  const p = readProfile(file);
  const markType = p.types.find((t: { name: string }) => t.name === MARK);
  if (!markType) return 0;
  let n = 0;
  const stack = p.threads.map((t: { root: unknown }) => t.root);
  while (stack.length) {
    const node = stack.pop();
    for (const r of node.a ?? []) if (r[1] === markType.id) n += r[2];
    for (const c of node.c ?? []) stack.push(c);
  }
  return n;
}

before(async () => { classes = await compileFixture('faults', { jdk: JDK17 }); });

for (const jdk of JDKS) {
  describe(`the profile survives the end of the JVM on JDK ${jdk.name}`, () => {
    // oomheld: the heap stays full to the end (a static list holds it): before the memory reserve and the system
    // shutdown hook (docs/reliability.md) only the first periodic profile was on disk, without the marks
    for (const [how, code] of [['exit', 3], ['throw', 1], ['oom', 1], ['oomheld', 1]] as const) {
      it(`${how}: exit code ${code}, the final profile is written and complete`, async () => {
        const out = outFile(`faults-${how}-jdk${jdk.name}.heaplens`);
        const r = await java(jdk, { agent: agentArg(out), jvmArgs: ['-Xmx64m'], classpath: [classes], main: 'faults.Main', args: [how] });
        assert.equal(r.code, code, r.stderr);
        // the agent's default uncaught-exception handler reports as the JDK does (for oomheld, the JDK alone can't)
        if (how !== 'exit') assert.match(r.stderr, /^Exception in thread "main" java\.lang\.(IllegalStateException|OutOfMemoryError)/m);
        const p = readProfile(out);
        assert.equal(p.meta.final, true, 'the shutdown write happened');
        assert.equal(marks(out), 100);
        assert.equal(fs.existsSync(out + '.tmp'), false, 'no half-written file left beside it');
      });
    }

    it('SIGTERM: the final profile is written', async () => {
      const out = outFile(`faults-term-jdk${jdk.name}.heaplens`);
      const { child } = await startUntil(jdk, [agentArg(out), '-Xverify:all', '-cp', classes, 'faults.Main', 'run'], 'running');
      await sleep(1500);
      child.kill('SIGTERM');
      const e = await exited(child);
      assert.equal(e.code ?? 128 + 15, 143);
      assert.equal(readProfile(out).meta.final, true);
      assert.ok(marks(out) >= 100);
    });

    it('SIGKILL: the file is there, parses, and is at most about one write interval old; readers never see half a file', async () => {
      const out = outFile(`faults-kill-jdk${jdk.name}.heaplens`);
      const { child } = await startUntil(jdk, [agentArg(out), '-Xverify:all', '-cp', classes, 'faults.Main', 'run'], 'running');
      // readers during ~3 s of writes every second: every read must parse (atomic replace)
      let reads = 0;
      const sequences = new Set<number>();
      const until = Date.now() + 3000;
      while (Date.now() < until) {
        const p = readProfile(out);     // throws on a torn file
        sequences.add(p.meta.sequence);
        reads++;
        await sleep(20);
      }
      assert.ok(sequences.size >= 2, `the file was rewritten while read (${sequences.size} sequences in ${reads} reads)`);
      const killedAt = Date.now();
      child.kill('SIGKILL');
      await exited(child);
      const age = killedAt - fs.statSync(out).mtimeMs;
      const p = readProfile(out);
      assert.equal(p.meta.final, false);
      assert.ok(marks(out) >= 100);
      // interval=1000 ms plus the write itself; 1.5 s leaves room for a loaded 2-core machine
      assert.ok(age <= 1500, `the profile was ${Math.round(age)} ms old when the JVM was killed`);
    });
  });

  describe(`the live channel is cut mid-run on JDK ${jdk.name}`, () => {
    it('the JVM carries on, the file keeps being written, a new client gets in afterwards', async () => {
      const out = outFile(`faults-cut-jdk${jdk.name}.heaplens`);
      const portFile = outFile(`faults-cut-jdk${jdk.name}.port`);
      const token = 'reliability-' + Math.random().toString(36).slice(2);
      const { child } = await startUntil(jdk, [agentArg(out, `portFile=${portFile}`), '-Xverify:all', '-cp', classes, 'faults.Main', 'run'],
        'running', { ...process.env, HEAPLENS_TOKEN: token });
      try {
        const port = JSON.parse(fs.readFileSync(portFile, 'utf8')).port as number;
        for (let round = 0; round < 2; round++) {
          const s = net.connect(port, '127.0.0.1');
          const got = await new Promise<string>((resolve, reject) => {
            let buf = Buffer.alloc(0);
            s.on('data', (d) => {
              buf = Buffer.concat([buf, d] as unknown as Uint8Array[]);
              if (buf.length >= 4 && buf.length >= 4 + buf.readUInt32BE(0)) resolve(buf.subarray(4, 4 + buf.readUInt32BE(0)).toString('utf8'));
            });
            s.on('error', reject);
            const body = Buffer.from(JSON.stringify({ type: 'hello', token, protocol: 1 }));
            const len = Buffer.alloc(4);
            len.writeUInt32BE(body.length);
            s.write(Buffer.concat([len, body] as unknown as Uint8Array[]) as unknown as Uint8Array);
          });
          assert.equal(JSON.parse(got).type, 'welcome');
          s.resetAndDestroy();            // cut: an RST, as when the extension host is killed
          const before = readProfile(out).meta.sequence;
          await sleep(2200);
          assert.equal(child.exitCode, null, 'the JVM is still running');
          assert.ok(readProfile(out).meta.sequence > before, 'the profile file is still being written');
        }
      } finally {
        child.kill('SIGTERM');
        await exited(child);
      }
      assert.equal(readProfile(out).meta.final, true);
    });
  });
}
