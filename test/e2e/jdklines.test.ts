// Fixture `jdklines`: lines that allocate only through JDK calls are charged to themselves, the line of the
// innermost profiled frame (docs/format.md, the AllocRecord's line and callee). `heaplens report --format lines`
// prints the rows the editor marks. Each measured method runs 1003 times: 3 in warmup(), 1000 in main's run.
// Per call, from the JDK 17 and 25 sources (the same on both; 64-bit, compressed oops: object header 12 bytes,
// array header 16, references 4, 8-byte alignment):
// - line 40 `line.split(",")` on "ab,cde,f" (String.split's one-char fast path): new ArrayList() (24 B; its
//   first add grows it to Object[10]: 16 + 40 = 56 B), three substrings, each a String (24 B) and its byte[]
//   (Arrays.copyOfRange: 2, 3, 1 elements, 24 B each), new String[3] (16 + 12 → 32 B) and list.subList(0, 3)
//   (ArrayList$SubList: 5 fields, 12 + 20 → 32 B) whose toArray fills the String[]: 10 allocations (5 objects,
//   5 arrays of 19 elements), 288 B.
// - line 41 `new Row(parts)`: 1 object of 12 + 4 → 16 B (the only `new` of these lines).
// - line 45 `new StringBuilder(32)`: the StringBuilder (12 + value 4 + coder 1 + maybeLatin1 1 + count 4 → 24 B)
//   and its byte[32] (48 B): 2 allocations, 72 B.
// - line 46 `sb.append(f)` of 2 + 3 + 1 chars fits the 32 bytes: nothing.
// - line 47 `sb.toString().getBytes(UTF_8)`: toString copies the 6 bytes (a String, 24 B, and a byte[6], 24 B);
//   getBytes of Latin-1 text without negative bytes copies them once more (byte[6], 24 B): 3 allocations, 72 B.
// - line 51 `Arrays.stream(fields).filter(…).collect(Collectors.toList())`: Spliterators$ArraySpliterator,
//   ReferencePipeline$Head, the filter's ReferencePipeline$2 and its sink ReferencePipeline$2$1,
//   Collectors$CollectorImpl, ReduceOps$3 and its ReducingSink, and the Object[10] of the result list's first add:
//   8 allocations (the non-capturing lambda and method references allocate nothing). The result ArrayList itself is
//   made by `ArrayList::new` inside a hidden lambda-form class, which no agent can instrument: not counted (known
//   gap, docs/format.md). 328 B on both JDKs (17: 32 + 56 + 64 + 24 + 32 + 32 + 32 + 56; 25: 40 + 56 + 56 + 24
//   + 32 + 32 + 32 + 56: their stream classes differ in fields, not in the sum).
// - line 21 (once) `System.out.println("jdklines total=" + total)`: the concatenation's byte[19] (40 B) and String
//   (24 B), and println's HeapCharBuffer (CharBuffer.wrap in StreamEncoder, 56 B): 3 allocations, 120 B.
import * as assert from 'assert/strict';
import { it } from 'node:test';
import { hotLines } from '../../core/views/by-line';
import { loadProfile } from '../../core/profile/load';
import { CLI } from './support/env';
import { assertCleanRun, describeRuns, Fixture } from './support/fixture';
import { exec, FixtureRun } from './support/heaplens';

const fx = new Fixture({ name: 'jdklines' });
const CALLS = 1003;

const EXPECTED_LINES = [
  'file\tline\tmethod\tallocations\tbytes',
  `jdklines/Main.java\t40\tjdklines.Main.parse\t${10 * CALLS}\t${288 * CALLS}`,
  `jdklines/Main.java\t51\tjdklines.Main.keep\t${8 * CALLS}\t${328 * CALLS}`,
  `jdklines/Main.java\t47\tjdklines.Main.render\t${3 * CALLS}\t${72 * CALLS}`,
  `jdklines/Main.java\t45\tjdklines.Main.render\t${2 * CALLS}\t${72 * CALLS}`,
  `jdklines/Main.java\t41\tjdklines.Main.parse\t${1 * CALLS}\t${16 * CALLS}`,
  'jdklines/Main.java\t21\tjdklines.Main.main\t3\t120',
];

async function report(run: FixtureRun, ...args: string[]): Promise<string> {
  const r = await exec(process.execPath, [CLI, 'report', run.profileFile, ...args]);
  assert.equal(r.code, 0, `heaplens report ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

describeRuns(fx, 'jdklines', (run) => {
  it('runs cleanly', () => assertCleanRun(run(), 'jdklines', 'jdklines total=8000'));

  it('report --format lines: the split() line is hottest, every line with its JDK work, exact', async () => {
    assert.deepEqual((await report(run(), '--format', 'lines')).trimEnd().split('\n'), EXPECTED_LINES);
  });

  it('report --format lines --metric bytes --top 2: ranked by bytes, two rows', async () => {
    assert.deepEqual((await report(run(), '--format', 'lines', '--metric', 'bytes', '--top', '2')).trimEnd().split('\n'),
      [EXPECTED_LINES[0], EXPECTED_LINES[2], EXPECTED_LINES[1]]);
  });

  it('the file keeps the JDK sites, with the line and the method the call invoked', () => {
    const p = run().profile;
    const seen = new Map<string, number>();
    p.walk((node) => {
      if (node.m === undefined || p.frame(node) !== 'jdklines.Main.parse') return;
      for (const r of node.a ?? []) {
        const site = p.sites.get(r[0])!;
        const holder = p.methods.get(site.method)!;
        const where = r.length > 5 ? `line ${r[5]} inside ${p.methods.get(r[6])!.class}.${p.methods.get(r[6])!.name}` : `own line ${site.line}`;
        const key = `${where}: ${holder.class}.${holder.name} ${p.types.get(r[1])!.name}`;
        seen.set(key, (seen.get(key) ?? 0) + r[2]);
      }
    });
    const inSplit = (holderAndType: string): string => `line 40 inside java.lang.String.split: ${holderAndType}`;
    assert.deepEqual([...seen].sort(), [
      [inSplit('java.lang.String.split java.lang.String[]'), CALLS],
      [inSplit('java.lang.String.split java.util.ArrayList'), CALLS],
      [inSplit('java.lang.StringLatin1.newString java.lang.String'), 3 * CALLS],
      [inSplit('java.util.ArrayList.grow java.lang.Object[]'), CALLS],
      [inSplit('java.util.ArrayList.subList java.util.ArrayList$SubList'), CALLS],
      [inSplit('java.util.Arrays.copyOfRange byte[]'), 3 * CALLS],
      ['own line 41: jdklines.Main.parse jdklines.Main$Row', CALLS],
    ]);
  });

  it('one level down in the hover model: inside String.split, by type; toString and getBytes apart', () => {
    const lines = hotLines(loadProfile(run().profileFile), { scope: 'application', metric: 'count', limit: 10 });
    const names = (p: ReturnType<typeof loadProfile>, l: (typeof lines)[number]): string[] =>
      l.inside.map((i) => `${p.methods.get(i.method)!.class}.${p.methods.get(i.method)!.name}: `
        + i.types.map((t) => `${t.type.name} ${t.count}`).join(', '));
    const p = loadProfile(run().profileFile);
    assert.deepEqual([lines[0].source, lines[0].line, lines[0].count], ['jdklines/Main.java', 40, 10 * CALLS]);
    assert.deepEqual(names(p, lines[0]), [
      `java.lang.String.split: byte[] ${3 * CALLS}, java.lang.String ${3 * CALLS}, java.lang.Object[] ${CALLS}, `
        + `java.lang.String[] ${CALLS}, java.util.ArrayList$SubList ${CALLS}, java.util.ArrayList ${CALLS}`,
    ]);
    const render = lines.find((l) => l.line === 47)!;
    assert.deepEqual(names(p, render), [
      `java.lang.StringBuilder.toString: byte[] ${CALLS}, java.lang.String ${CALLS}`,
      `java.lang.String.getBytes: byte[] ${CALLS}`,
    ]);
  });
});
