// Small process helpers (synchronous: the harness runs one thing at a time on purpose).
import { spawnSync } from 'node:child_process';

export function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 << 20, ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0 && !opts.allowFail) {
    const err = new Error(`${cmd} ${args.join(' ')} exited ${r.status}\n${(r.stderr || '').slice(-2000)}`);
    err.result = r;
    throw err;
  }
  return r;
}

export function which(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim() || null;
}

export function log(...a) {
  process.stderr.write(`[bench] ${a.join(' ')}\n`);
}
