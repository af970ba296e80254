// Accuracy of the profile's byte estimates: under -Xint (no escape analysis), HotSpot's per-thread allocated-bytes
// counters (AllocMeter, run without the agent) against the sum of `bytes` over all records of the profile written
// by the same program under heaplens-exact. AllocMeter's own threads are left out on both sides.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileHarness } from '../prepare/harness.mjs';
import { measure } from './measure.mjs';
import { readProfile } from './profile.mjs';
import { javaCommand, runDirFor, tail, hsErrFiles } from './runone.mjs';

function readMeter(file) {
  if (!existsSync(file)) return null;
  const m = { perThread: [] };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const f = line.split('\t');
    if (f[0] === 'thread') m.perThread.push({ name: f[1], bytes: Number(f[2]) });
    else if (f.length === 2) m[f[0]] = Number(f[1]);
  }
  return m;
}

function perThreadTable(meter, profile) {
  if (!meter || !profile) return null;
  const rows = new Map();
  for (const t of meter.perThread) rows.set(t.name, { name: t.name, hotspot: (rows.get(t.name)?.hotspot ?? 0) + t.bytes, profile: 0 });
  for (const t of profile.perThread) {
    const r = rows.get(t.name) ?? { name: t.name, hotspot: 0, profile: 0 };
    r.profile += t.bytes;
    rows.set(t.name, r);
  }
  return [...rows.values()].filter((r) => r.hotspot || r.profile);
}

export function measureAccuracy(ctx, wl, heaplensCfg, { timeoutMs }) {
  const meterCp = compileHarness(ctx, 'AllocMeter');
  const wctx = ctx.wctx[wl.name];
  const runs = {};
  for (const cfg of [{ name: 'plain', jvmArgs: () => [] }, heaplensCfg]) {
    const dir = runDirFor(ctx, wl, cfg.name, 'xint');
    const profile = join(dir, 'profile');
    const cmd = wl.command(wctx, dir, { accuracy: true });
    const wrapped = { ...cmd, cp: [meterCp, ...cmd.cp], main: 'AllocMeter', args: [cmd.main, ...cmd.args] };
    const argv = javaCommand(ctx, cfg.jvmArgs({ ...ctx, profile }), wrapped, ['-Xint', `-Dallocmeter.out=${join(dir, 'meter.txt')}`]);
    const m = measure(argv, { dir, cwd: cmd.cwd || dir, timeoutMs });
    const r = { wall: m.wall, exit: m.exit, command: argv.join(' ') };
    if (m.exit !== 0) {
      r.error = `${m.timedOut ? 'timed out' : `exit ${m.exit}`}: ${tail(join(dir, 'stderr.txt'))}`;
      r.hsErr = hsErrFiles(cmd.cwd || dir);
    } else {
      try { r.check = wl.check(wctx, dir); } catch (e) { r.error = `output check failed: ${e.message}`; }
      r.meter = readMeter(join(dir, 'meter.txt'));
      if (cfg.profile === 'heaplens') {
        try {
          r.profile = readProfile(profile + '.heaplens', {
            threadFilter: (t) => !String(t.name).startsWith('allocmeter-'), skipMainRootRecords: true,
          });
        } catch (e) { r.error = `profile: ${e.message}`; }
      }
    }
    runs[cfg.name] = r;
  }
  const truth = runs.plain.meter?.total;
  const est = runs[heaplensCfg.name].profile?.bytes;
  const agentMeter = runs[heaplensCfg.name].meter?.total;
  const outputsEqual = runs.plain.check && runs[heaplensCfg.name].check
    ? runs.plain.check.digest === runs[heaplensCfg.name].check.digest : null;
  return {
    workload: wl.name,
    config: heaplensCfg.name,
    hotspotBytes: truth ?? null,
    profileBytes: est ?? null,
    errorPct: truth && est != null ? ((est - truth) / truth) * 100 : null,
    // What the app's threads allocated with the agent attached, by HotSpot's count: the agent's own allocations in
    // application threads show up as the difference to hotspotBytes.
    hotspotBytesWithAgent: agentMeter ?? null,
    objects: runs[heaplensCfg.name].profile?.objects ?? null,
    threadsDied: runs.plain.meter?.died ?? null,
    // per thread name: HotSpot (plain run) against the profile, to see where a difference comes from
    perThread: perThreadTable(runs.plain.meter, runs[heaplensCfg.name].profile),
    outputsEqual,
    wall: { plain: runs.plain.wall, [heaplensCfg.name]: runs[heaplensCfg.name].wall },
    errors: Object.fromEntries(Object.entries(runs).filter(([, r]) => r.error).map(([k, r]) => [k, r.error])),
    runs,
  };
}
