// Where the heaplens-collector thread's JFR execution samples go: top frames and inclusive shares of named parts.
import { spawnSync } from 'node:child_process';
const [jdk, file] = process.argv.slice(2);
const r = spawnSync(`${jdk}/bin/jfr`, ['print', '--events', 'jdk.ExecutionSample', '--stack-depth', '200', file], { encoding: 'utf8', maxBuffer: 1 << 30 });
const top = new Map(), incl = new Map(); let total = 0;
const parts = [
  ['gzip/deflate', (f) => /Deflater|GZIPOutputStream/.test(f)],
  ['file output (write syscalls, encoder)', (f) => /FileOutputStream\.write|FileChannel|sun\.nio\.cs|StreamEncoder|CharsetEncoder/.test(f)],
  ['Json formatting', (f) => /agent\.collect\.Json\./.test(f)],
  ['RecordRows.of', (f) => /RecordRows\.of/.test(f)],
  ['Tables.bytes', (f) => /Tables\.bytes/.test(f)],
  ['Registry lookups', (f) => /core\.Registry\.(methodById|siteById|typeById)/.test(f)],
  ['CallLines', (f) => /CallLines/.test(f)],
  ['TreeWalker.node (whole tree walk)', (f) => /TreeWalker\.node/.test(f)],
  ['ProfileWriter.write', (f) => /ProfileWriter\.write$/.test(f)],
  ['Collector.cycle', (f) => /Collector\.cycle/.test(f)],
  ['publishObjectSizes', (f) => /publishObjectSizes/.test(f)],
  ['HeapGuard.check', (f) => /HeapGuard\.check/.test(f)],
  ['tables after the trees (types/methods/sites)', (f) => /ProfileWriter\.(writeTypes|writeMethods|writeSites|addCtorTargets)/.test(f)],
  ['TypeSizes', (f) => /TypeSizes/.test(f)],
];
for (const ev of r.stdout.split('jdk.ExecutionSample {').slice(1)) {
  const thread = /sampledThread = "([^"]*)"/.exec(ev)?.[1] ?? '';
  if (!/^heaplens/.test(thread)) continue;
  const frames = [...ev.matchAll(/^\s{4}([\w$.<>]+)\(/gm)].map((m) => m[1]);
  if (!frames.length) continue;
  total++;
  top.set(frames[0], (top.get(frames[0]) ?? 0) + 1);
  for (const [name, test] of parts) if (frames.some(test)) incl.set(name, (incl.get(name) ?? 0) + 1);
}
console.log(`collector samples: ${total}`);
for (const [name] of parts) console.log(`  ${name}: ${incl.get(name) ?? 0} (${(100 * (incl.get(name) ?? 0) / total).toFixed(1)} %)`);
console.log('top frames:');
for (const [f, c] of [...top].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${c}\t${f}`);
