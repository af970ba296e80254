// The JFR → profile mapping (extension/jfr/to-profile.ts) on a hand-written reader output: type names, the
// estimator (objects = weight ÷ size, arrays one per sample), paths of application frames with JDK sites charged
// to the innermost application frame, old-object samples in the traces tree, CPU trees, labels and warnings.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { JfrEvents, parseJfrEvents } from '../../extension/jfr/events';
import { guessSourceFile, jfrToProfile, jvmVersionOf, typeName } from '../../extension/jfr/to-profile';
import { treeLabel, withTree } from '../../core/profile/modes';
import { cpuLabel } from '../../core/views/cpu-flame';
import { validateProfile } from '../../core/profile/parse';
import { MctNode } from '../../core/profile/types';
import { eachEqual } from './helpers';

function events(): JfrEvents {
  return {
    format: 'heaplens-jfr-events', version: 1, start: 1_700_000_000_000, end: 1_700_000_004_000, executionPeriodMillis: 10,
    layout: { objectHeader: 12, arrayHeader: 16, reference: 4, alignment: 8 },
    jvm: { jvmName: 'OpenJDK 64-Bit Server VM', jvmVersion: 'OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1) for linux-amd64 JRE', javaArguments: 'com.acme.Main x', jvmArguments: '-Xmx1g -XX:StartFlightRecording', pid: '77', 'java.home': '/jdk' },
    events: { 'jdk.ObjectAllocationSample': 9, 'jdk.ExecutionSample': 5, 'jdk.OldObjectSample': 2, 'jdk.GCPhasePause': 3 },
    frames: [
      ['com.acme.Main', 'main', '([Ljava/lang/String;)V', 10, 4, false],          // 0
      ['com.acme.Parser$Inner', 'parse', '(I)V', 42, 7, false],                    // 1
      ['java.util.Arrays', 'copyOf', '([BI)[B', 3537, 1, true],                     // 2
      ['com.acme.Parser$Inner', 'parse', '(I)V', 40, 2, false],                    // 3: same method, earlier line
      ['java.lang.Thread', 'run', '()V', 829, 0, true],                             // 4
    ],
    stacks: [
      [0, 1, 0],         // 0: parse:42 ← main
      [0, 2, 1, 0],      // 1: Arrays.copyOf ← parse ← main
      [1, 3],            // 2: parse:40, truncated
      [0, 4],            // 3: JDK only
    ],
    threads: [[1, 'main'], [-5, 'GC Thread#0'], [22, 'worker']],
    classes: [['java.lang.String', 24, 'fields'], ['[B', -1, ''], ['[[Ljava.lang.Object;', -1, ''], ['com.acme.Unknown', -1, ''], ['com.acme.Fn$$Lambda/0x0000000801001234', 16, 'tlab']],
    alloc: [
      [0, 0, 0, 0, 3, 2400],      // 3 samples of String, 2400 bytes at parse:42 ← main → 100 objects
      [0, 0, 1, 1, 2, 2032],      // 2 byte[] samples in Arrays.copyOf called by parse: elements (2032 − 32) ÷ 1
      [0, 2, 2, 3, 1, 500],       // unknown size: count = samples, a warning
      [0, 2, 3, 2, 1, 64],        // no application frame: on the worker's root
      [0, 0, -1, 0, 1, 99],       // no stack: left out with a warning
      [1, 0, 0, 0, 4, 999_999],   // a TLAB event: ignored when the recording has samples
    ],
    cpu: [[0, 0, 3], [0, 1, 2]],
    old: [[0, 1, 1, 2, 300]],
    firstSamples: [2, 5_000_000],
  } as JfrEvents;
}

const find = (n: MctNode | undefined, m: number): MctNode | undefined => n?.c?.find((k) => k.m === m);

test('names: JFR class names, source files, JVM version', () => {
  eachEqual(typeName, [
    ['[B', 'byte[]'],
    ['[[Ljava.lang.Object;', 'java.lang.Object[][]'],
    ['java.util.HashMap$Node', 'java.util.HashMap$Node'],
    ['com.acme.Fn$$Lambda/0x0000000801001234', 'com.acme.Fn$$Lambda'],
    ['org.h2.table.Plan$$Lambda$108+0x00007f6b18127b60.1732238286', 'org.h2.table.Plan$$Lambda'],
    ['com.acme.Fn$$Lambda$7/0x0000000801001234', 'com.acme.Fn$$Lambda'],
    ['org.h2.mvstore.tx.TransactionMap$$Lambda.0x00000000430a0000', 'org.h2.mvstore.tx.TransactionMap$$Lambda'],
  ]);
  assert.equal(guessSourceFile('com.acme.Parser$Inner'), 'Parser.java');
  assert.equal(jvmVersionOf(events().jvm.jvmVersion), '17.0.15+6-Debian-1deb12u1');
});

test('allocation samples: the sampled tree with the JFR estimator, JDK sites charged to the application frame', () => {
  const file = jfrToProfile(events(), '/rec/app.jfr');
  const p = validateProfile(JSON.parse(JSON.stringify(file)));
  const method = (cls: string, name: string): number => [...p.methods.values()].find((m) => m.class === cls && m.name === name)!.id;
  const type = (name: string): number => [...p.types.values()].find((t) => t.name === name)!.id;
  const main = method('com.acme.Main', 'main'), parse = method('com.acme.Parser$Inner', 'parse'), copyOf = method('java.util.Arrays', 'copyOf');
  assert.equal(p.methods.get(parse)!.line, 40, 'the earliest line seen');
  assert.equal(p.methods.get(parse)!.file, 'Parser.java');
  assert.equal(p.methods.get(copyOf)!.profiled, false);

  const mainThread = p.threads.find((t) => t.name === 'main')!;
  const parseNode = find(find(mainThread.sampled, main), parse)!;
  const recs = parseNode.a!.map(([site, t, count, elements, bytes, line, callee]) => {
    const s = p.sites.get(site)!;
    const call = line === undefined ? '' : ` for line ${line} calling ${p.methods.get(callee!)!.name}`;
    return `${p.types.get(t)!.name} @${p.methods.get(s.method)!.name}:${s.line} ${s.kind} ${count}/${elements}/${bytes}${call}`;
  });
  // parse allocated the String itself (no call line); the byte[] was made inside Arrays.copyOf, called on parse's line 42
  assert.deepEqual(recs, ['java.lang.String @parse:42 jfr 100/0/2400', 'byte[] @copyOf:3537 jfr 2/2000/2032 for line 42 calling copyOf']);

  const worker = p.threads.find((t) => t.name === 'worker')!;
  // truncated stack: the path starts at its first frame; unknown size: the count is the sample count
  assert.deepEqual(find(worker.sampled, parse)!.a!.map((r) => [p.types.get(r[1])!.name, r[2], r[4]]), [['com.acme.Unknown', 1, 500]]);
  assert.deepEqual(worker.sampled!.a!.map((r) => [p.types.get(r[1])!.name, r[2], r[3], r[4]]), [['java.lang.Object[][]', 1, 12, 64]]);
  assert.equal(p.types.get(type('java.lang.Object[][]'))!.elementCode, 'R');

  assert.equal(file.meta.mode, 'sampled');
  assert.equal(file.meta.sampler, 'jfr');
  assert.equal(file.meta.command, 'com.acme.Main x');
  assert.deepEqual(file.meta.jvmArgs, ['-Xmx1g', '-XX:StartFlightRecording']);
  assert.equal(file.meta.jvm.version, '17.0.15+6-Debian-1deb12u1');
  assert.deepEqual(file.meta.imported!.events, { 'jdk.ObjectAllocationSample': 9, 'jdk.ExecutionSample': 5, 'jdk.OldObjectSample': 2 });
  assert.match(treeLabel('sampled', withTree(p, 'sampled')), /^ESTIMATES from a JFR recording's allocation samples \(bytes = the samples' weight/);
  const w = file.transform.warnings.join('\n');
  assert.match(w, /1 allocation sample\(s\) had no stack trace/);
  assert.match(w, /1 allocation sample\(s\) had stacks deeper than JFR's stack depth/);
  assert.match(w, /1 class\(es\) could not be sized .*com\.acme\.Unknown/);
  assert.match(w, /2 first sample\(s\) of threads left out/);
});

test('the samples used and the spread of their weights (for the interval of docs/jfr.md)', () => {
  const ev = events();
  ev.alloc = [[0, 0, 0, 0, 1, 1024, 1], [0, 0, 0, 0, 1, 3072, 9]];       // weights 1 and 3 KiB: mean 2, σ 1
  const info = jfrToProfile(ev, 'x.jfr').meta.imported!;
  assert.equal(info.samples, 2);
  assert.ok(Math.abs(info.weightCv! - 0.5) < 1e-9, String(info.weightCv));
  assert.equal(jfrToProfile(events(), 'x.jfr').meta.imported!.weightCv, undefined, 'rows without squares: no spread');
});

test('TLAB events stand in when the recording has no allocation samples', () => {
  const ev = events();
  ev.alloc = ev.alloc.filter((r) => r[0] !== 0);
  const p = validateProfile(JSON.parse(JSON.stringify(jfrToProfile(ev, 'x.jfr'))));
  const recs = p.threads.flatMap((t) => t.sampled ? [t.sampled] : []).flatMap(function all(n: MctNode): number[][] { return [...(n.a ?? []), ...(n.c ?? []).flatMap(all)]; });
  assert.deepEqual(recs.map((r) => [r[2], r[4]]), [[Math.round(999_999 / 24), 999_999]]);
  assert.match(p.file.meta.imported!.estimator, /TLAB/);
});

test('old-object samples: the traces tree counts samples; execution samples: CPU trees per thread', () => {
  const p = validateProfile(JSON.parse(JSON.stringify(jfrToProfile(events(), 'x.jfr'))));
  const main = p.threads.find((t) => t.name === 'main')!;
  const old = main.siteTraces!;
  const all = (n: MctNode): number[][] => [...(n.a ?? []), ...(n.c ?? []).flatMap(all)];
  // 2 live byte[] of 300 elements in all: 2 × 16 header + 300 bytes, aligned per array
  assert.deepEqual(all(old).map((r) => [p.types.get(r[1])!.name, r[2], r[3], r[4]]), [['byte[]', 2, 300, 2 * 168]]);
  assert.match(treeLabel('traces', withTree(p, 'traces')), /old-object samples/);
  const tp = p.file.threadsProfile!;
  assert.equal(tp.source, 'jfr');
  assert.match(cpuLabel(tp.intervalMillis, tp.source), /^JFR execution samples, one every 10 ms/);
  assert.equal(tp.intervalMillis, 10);
  assert.equal(tp.samples, 5);
  const t = tp.threads[0];
  assert.equal(t.name, 'main');
  assert.equal(t.cpuNanos, 5 * 10e6);
  const mainNode = t.cpu.c![0];
  assert.equal(mainNode.f, 'com.acme.Main.main');
  assert.deepEqual(mainNode.c!.map((c) => [c.f, c.s, c.c?.map((g) => [g.f, g.s])]), [['com.acme.Parser$Inner.parse', 3, [['java.util.Arrays.copyOf', 2]]]]);
});

test('the reader output is checked before it is mapped', () => {
  assert.throws(() => parseJfrEvents('{'), /not JSON/);
  assert.throws(() => parseJfrEvents('{"format":"other"}'), /unknown format/);
  assert.throws(() => parseJfrEvents('{"format":"heaplens-jfr-events","version":1,"frames":[]}'), /no "stacks" table/);
});
