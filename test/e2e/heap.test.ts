// Fixture `staticmap`: heap dumps taken by the agent (at exit, and on request from `heaplens heapdump` while the
// program runs), read by `heaplens heap`: the histogram row of the leaked class and its paths from GC roots
// through the static field, HashMap.table and an array index.
import * as assert from 'assert/strict';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { before, describe, it } from 'node:test';
import { CLI, JDKS, PROFILE_DIR, ROOT } from './support/env';
import { compileFixture, exec } from './support/heaplens';
import { JDK17 } from './support/env';
import { startRun } from './support/spawn-run';

const PATH_RE = /^[a-z-]+:\S.* -> staticmap\.Main\.CACHE -> java\.util\.HashMap\.table -> java\.util\.HashMap\$Node\[\d+\] -> (java\.util\.HashMap\$Node\.next -> )*java\.util\.HashMap\$Node\.value -> staticmap\.Leaked$/;

function execEnv(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 }, (e, stdout, stderr) => {
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, stdout, stderr });
    });
  });
}

let classes: string;
before(async () => {
  classes = await compileFixture('staticmap', { jdk: JDK17, release: 17 });
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
});

for (const jdk of JDKS) {
  describe(`heap dumps on JDK ${jdk.name}`, () => {
    it('--heap-dump-at-exit: the histogram row of staticmap.Leaked and its paths from GC roots', async () => {
      const dump = path.join(PROFILE_DIR, `staticmap-exit-jdk${jdk.name}.hprof`);
      fs.rmSync(dump, { force: true });
      const run = await exec(process.execPath, [CLI, 'run', '--java', jdk.java, '--out', path.join(PROFILE_DIR, `staticmap-jdk${jdk.name}.heaplens`),
        '--heap-dump-at-exit', dump, '--', '-cp', classes, 'staticmap.Main']);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /staticmap: 200 leaked/);
      assert.match(run.stderr, /heap dump written to/);
      const hist = await exec(process.execPath, [CLI, 'heap', dump, '--histogram']);
      assert.equal(hist.code, 0, hist.stderr);
      const lines = hist.stdout.trimEnd().split('\n');
      assert.equal(lines[0], 'class\tobjects\tshallow_bytes\tretained_bytes');
      // 200 × (Leaked 24 bytes + its byte[1000] 1016 bytes), every Leaked alone keeping its payload alive
      assert.ok(lines.includes('staticmap.Leaked\t200\t4800\t208000'), lines.filter((l) => l.includes('Leaked')).join('\n'));
      const paths = await exec(process.execPath, [CLI, 'heap', dump, '--paths', 'staticmap.Leaked', '--max', '3']);
      assert.equal(paths.code, 0, paths.stderr);
      const got = paths.stdout.trimEnd().split('\n');
      assert.equal(got.length, 3);
      for (const l of got) assert.match(l, PATH_RE);
    });

    it('heaplens heapdump: a dump of the running program on request', async () => {
      const dump = path.join(PROFILE_DIR, `staticmap-live-jdk${jdk.name}.hprof`);
      fs.rmSync(dump, { force: true });
      const run = startRun(['--java', jdk.java, '--out', path.join(PROFILE_DIR, `staticmap-wait-jdk${jdk.name}.heaplens`), '--', '-cp', classes, 'staticmap.Main', 'wait']);
      try {
        await run.waitFor('staticmap: ready');
        const r = await execEnv(['heapdump', dump], run.env);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, /heap dump of process \d+ written to/);
        const again = await execEnv(['heapdump', dump], run.env);
        assert.equal(again.code, 1, 'an existing file is never replaced');
        assert.match(again.stderr, /exists already/);
      } finally {
        run.child.stdin!.end('\n');
      }
      assert.equal(await run.exit, 0, run.stderr());
      const paths = await exec(process.execPath, [CLI, 'heap', dump, '--paths', 'Leaked', '--max', '2']);
      assert.equal(paths.code, 0, paths.stderr);
      for (const l of paths.stdout.trimEnd().split('\n')) assert.match(l, PATH_RE);
      const none = await execEnv(['heapdump', dump + '.x.hprof'], run.env);
      assert.equal(none.code, 2);
      assert.match(none.stderr, /no running heaplens session/);
    });
  });
}
