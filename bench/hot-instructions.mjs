#!/usr/bin/env node
// Where inside one compiled method the CPU goes: runs a bench workload once under the agent with `perf record`, has
// HotSpot print that method's C2 code (-XX:CompileCommand=print; without the hsdis library HotSpot prints the code's
// bytes, which objdump disassembles) and its JIT symbols (-XX:+DumpPerfMapAtExit), and prints each instruction with its
// share of the method's samples. Found that the entry probe's time was G1's write-barrier fence (docs/benchmark.md
// "Round 20"). A diagnosis tool: needs `perf` (Debian: linux-perf) and `objdump` (binutils), and perf_event_paranoid ≤ 2.
//
//   node bench/hot-instructions.mjs --workload rhino [--method io.heaplens.runtime.ThreadState::enterCurrent]
//     [--agent path/to/heaplens-agent.jar] [--jdk 17|25] [--agent-opts mode=exact,…]
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { byName } from './workloads/index.mjs';
import { makeContext } from './lib/context.mjs';
import { parseArgs } from './lib/args.mjs';
import { WORK } from './lib/paths.mjs';
import { javaCommand } from './lib/runone.mjs';

const argv = process.argv.slice(2);
const flag = (name, dflt) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : dflt; };
if (argv.includes('--help')) {
  console.log('usage: node bench/hot-instructions.mjs --workload NAME [--method Class::method] [--agent JAR] [--jdk 17|25] [--agent-opts k=v,…]');
  process.exit(0);
}
const workload = byName(flag('--workload', 'rhino'));
const method = flag('--method', 'io.heaplens.runtime.ThreadState::enterCurrent');
const ctx = makeContext(parseArgs(['--jdk', flag('--jdk', '17')]));
const agent = resolve(flag('--agent', ctx.agentJar));
const agentOpts = flag('--agent-opts', '');

const wctx = { dir: join(WORK, workload.name), java: ctx.java, jdk: ctx.jdk, jdkHome: ctx.jdkHome, state: {} };
mkdirSync(wctx.dir, { recursive: true });
workload.prepare(wctx);
const dir = join(WORK, 'hot-instructions', workload.name);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const cmd = workload.command(wctx, dir);
const opts = [`out=${join(dir, 'run.heaplens')}`, ...agentOpts.split(',').filter(Boolean)].join(',');
const java = javaCommand(ctx, [`-javaagent:${agent}=${opts}`, '-XX:+UnlockDiagnosticVMOptions', '-XX:+DumpPerfMapAtExit',
  `-XX:CompileCommand=print,${method}`], cmd);
const perfData = join(dir, 'perf.data');
const run = spawnSync('perf', ['record', '-F', '999', '-o', perfData, '--', ...java],
  { cwd: cmd.cwd ?? dir, encoding: 'utf8', maxBuffer: 1 << 30 });
if (run.error || run.status !== 0) {
  console.error(`perf record failed (${run.error?.message ?? `exit ${run.status}`}): ${(run.stderr || '').slice(-400)}`);
  process.exit(1);
}
writeFileSync(join(dir, 'print.txt'), run.stdout);

// The JIT's symbols: /tmp/perf-<pid>.map of the java process perf recorded.
const script = spawnSync('perf', ['script', '-i', perfData, '-F', 'pid,ip,sym'], { encoding: 'utf8', maxBuffer: 1 << 30 }).stdout;
const [, javaPid] = /^\s*(\d+)\s/m.exec(script) ?? [];
const mapFile = `/tmp/perf-${javaPid}.map`;
if (!existsSync(mapFile)) { console.error(`no ${mapFile}: the JVM did not write its perf map`); process.exit(1); }
const [cls, name] = method.split('::');
const ranges = readFileSync(mapFile, 'utf8').split('\n').map((l) => l.split(' '))
  .filter((f) => f.length >= 3 && f.slice(2).join(' ').includes(`${cls}.${name}(`))
  .map((f) => ({ start: parseInt(f[0], 16), size: parseInt(f[1], 16) }));

const ips = new Map();
let all = 0;
for (const line of script.split('\n')) {
  const m = /^\s*\d+\s+([0-9a-f]+)/.exec(line);
  if (!m) continue;
  all++;
  const ip = parseInt(m[1], 16);
  if (ranges.some((r) => ip >= r.start && ip < r.start + r.size)) ips.set(ip, (ips.get(ip) ?? 0) + 1);
}
const inMethod = [...ips.values()].reduce((a, b) => a + b, 0);

// The printed C2 code whose address range holds the most samples: its bytes, disassembled.
const printed = run.stdout.split(/^Compiled method \(c2\)/m).slice(1).map((block) => {
  const [, from, to] = /main code\s+\[0x([0-9a-f]+),0x([0-9a-f]+)\]/.exec(block) ?? [];
  const bytes = [];
  let base = null;
  for (const l of block.split('\n')) {
    const m = /^\s*0x([0-9a-f]+): ([0-9a-f| ]+)$/.exec(l);
    if (!m) continue;
    const at = parseInt(m[1], 16), hex = m[2].replace(/[| ]/g, '');
    if (!hex) continue;
    if (base === null) base = at;
    if (at - base > bytes.length) bytes.push(...new Array(at - base - bytes.length).fill(0x90));
    else if (at - base < bytes.length) continue;
    for (let i = 0; i < hex.length; i += 2) bytes.push(parseInt(hex.slice(i, i + 2), 16));
  }
  const lo = parseInt(from, 16), hi = parseInt(to, 16);
  const hits = [...ips].filter(([ip]) => ip >= lo && ip < hi).reduce((a, [, n]) => a + n, 0);
  return { base, bytes, hits };
}).sort((a, b) => b.hits - a.hits)[0];
if (!printed || printed.base === null) { console.error(`HotSpot printed no C2 code for ${method}`); process.exit(1); }
const bin = join(dir, 'code.bin');
writeFileSync(bin, Buffer.from(printed.bytes));
const dis = spawnSync('objdump', ['-D', '-b', 'binary', '-m', 'i386:x86-64', `--adjust-vma=0x${printed.base.toString(16)}`, bin],
  { encoding: 'utf8' }).stdout;

console.log(`${workload.name}: ${all} samples, ${inMethod} (${(100 * inMethod / all).toFixed(1)} %) in ${method}; ` +
  `shares below are of the method's samples (a stall shows on the instruction after the one that waits)`);
for (const line of dis.split('\n')) {
  const m = /^\s*([0-9a-f]+):\t/.exec(line);
  if (!m) continue;
  const n = ips.get(parseInt(m[1], 16)) ?? 0;
  console.log(`${n ? (100 * n / Math.max(1, printed.hits)).toFixed(1).padStart(5) + ' %' : '       '}  ${line.trim()}`);
}
