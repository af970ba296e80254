// One measured run of one workload under one configuration, with its output check and profile statistics.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { WORK } from './paths.mjs';
import { measure } from './measure.mjs';
import { fileSize, readProfile } from './profile.mjs';

// Each bench invocation has its own set of run directories (runs/jdkN-<pid>/), so two benches running at once
// (two sessions, or `npm test` during a long bench) never delete each other's files.
export function runSet(ctx) {
  const root = join(WORK, 'runs');
  mkdirSync(root, { recursive: true });
  const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; } };
  // Leave the newest finished set for inspection; remove older finished ones.
  const dead = readdirSync(root).map((name) => ({ name, pid: Number(/-(\d+)$/.exec(name)?.[1]) }))
    .filter((s) => !s.pid || !alive(s.pid))
    .map((s) => ({ ...s, mtime: statSync(join(root, s.name)).mtimeMs })).sort((a, b) => b.mtime - a.mtime);
  for (const s of dead.slice(1)) rmSync(join(root, s.name), { recursive: true, force: true });
  return join(root, `jdk${ctx.jdk}-${process.pid}`);
}

export function runDirFor(ctx, wl, cfgName, tag) {
  const dir = join(ctx.runSet, wl.name, `${cfgName}${tag ? '-' + tag : ''}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function javaCommand(ctx, cfgArgs, cmd, extraJvm = []) {
  const cp = cmd.cp.length ? ['-cp', cmd.cp.join(':')] : [];
  return [ctx.java, ...extraJvm, ...cfgArgs, ...(cmd.jvmArgs || []), ...cp, cmd.main, ...cmd.args];
}

// jdk.ObjectAllocationSample events in a recording (`jfr summary` of the JDK under test).
function jfrAllocationSamples(ctx, file) {
  const r = spawnSync(join(ctx.jdkHome, 'bin/jfr'), ['summary', file], { encoding: 'utf8' });
  const m = /^\s*jdk\.ObjectAllocationSample\s+(\d+)/m.exec(r.stdout || '');
  return m ? Number(m[1]) : null;
}

export function hsErrFiles(dir) {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('hs_err_pid')).map((f) => join(dir, f)) : [];
}

export function tail(file, n = 1500) {
  if (!existsSync(file)) return '';
  const s = readFileSync(file, 'utf8');
  return s.length > n ? '…' + s.slice(-n) : s;
}

export function runOnce(ctx, wl, cfg, { round, timeoutMs, tag = `r${round}`, keepProfile = true }) {
  const dir = runDirFor(ctx, wl, cfg.name, tag);
  const profileBase = join(dir, 'profile');
  const cmd = wl.command(ctx.wctx[wl.name], dir);
  const argv = javaCommand(ctx, cfg.jvmArgs({ ...ctx, profile: profileBase }), cmd);
  const m = measure(argv, { dir, cwd: cmd.cwd || dir, timeoutMs });
  const rec = { workload: wl.name, config: cfg.name, round, ...m, command: argv.join(' '), dir };
  if (m.exit !== 0 || m.timedOut) {
    rec.error = `${m.timedOut ? 'timed out' : `exit ${m.exit}`}; stderr: ${tail(join(dir, 'stderr.txt'))}`;
    rec.hsErr = hsErrFiles(cmd.cwd || dir);
    return rec;
  }
  try {
    rec.check = wl.check(ctx.wctx[wl.name], dir);
  } catch (e) {
    rec.error = `output check failed: ${e.message}`;
  }
  if (cfg.profile) {
    const f = profileBase + cfg.ext;
    rec.profileBytes = fileSize(f);
    if (rec.profileBytes == null) rec.profileError = `no profile file ${f}`;
    if (cfg.profile === 'jfr' && rec.profileBytes != null) rec.jfrAllocationSamples = jfrAllocationSamples(ctx, f);
    if (cfg.profile === 'heaplens' && rec.profileBytes != null) {
      try {
        rec.heaplens = readProfile(f);
      } catch (e) {
        rec.profileError = `profile not readable: ${e.message}`;
      }
    }
    if (!keepProfile && rec.profileBytes > 50e6) rmSync(f, { force: true }); // only the last round's big profiles stay
  }
  return rec;
}
