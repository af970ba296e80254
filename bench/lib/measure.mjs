// Runs one command under /usr/bin/time -v and measures wall time, CPU time (user+sys), peak RSS, and the CPU time
// the rest of the machine used meanwhile (busy jiffies of /proc/stat minus ours).
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const TICK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

function busyJiffies() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = f;
  return user + nice + system + irq + softirq + (steal || 0);
}

export function parseTimeV(text) {
  const num = (re) => {
    const m = re.exec(text);
    return m ? Number(m[1]) : null;
  };
  return {
    user: num(/User time \(seconds\): ([\d.]+)/),
    sys: num(/System time \(seconds\): ([\d.]+)/),
    maxRssKB: num(/Maximum resident set size \(kbytes\): (\d+)/),
    exit: num(/Exit status: (\d+)/),
  };
}

// cmd: [program, ...args]; files go into dir: stdout.txt, stderr.txt, time.txt.
export function measure(cmd, { dir, cwd = dir, env = process.env, timeoutMs = 30 * 60_000 }) {
  const timeFile = join(dir, 'time.txt');
  const out = openSync(join(dir, 'stdout.txt'), 'w');
  const err = openSync(join(dir, 'stderr.txt'), 'w');
  const before = busyJiffies();
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-v', '-o', timeFile, ...cmd], { cwd, env, stdio: ['ignore', out, err], timeout: timeoutMs });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const after = busyJiffies();
  closeSync(out);
  closeSync(err);
  let t = {};
  try { t = parseTimeV(readFileSync(timeFile, 'utf8')); } catch { /* killed before time wrote it */ }
  const cpu = t.user != null ? t.user + t.sys : null;
  const busy = (after - before) / TICK;
  return {
    exit: r.status ?? (r.signal ? `signal ${r.signal}` : null),
    timedOut: r.error?.code === 'ETIMEDOUT',
    wall,
    cpu,
    user: t.user,
    sys: t.sys,
    rssMB: t.maxRssKB != null ? t.maxRssKB / 1024 : null,
    otherCpu: cpu != null ? Math.max(0, busy - cpu) : null,
  };
}
