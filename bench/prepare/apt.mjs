// Installs missing Debian packages: `apt-get install -y`, after one `apt-get update` if the first try fails.
import { spawnSync } from 'node:child_process';
import { log } from '../lib/sh.mjs';

let updated = false;

export function isInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

function run(args) {
  log(`apt-get ${args.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  return spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], { encoding: 'utf8', env, stdio: ['ignore', 'ignore', 'pipe'] });
}

export function aptUpdateOnce() {
  if (updated) return;
  updated = true;
  run(['update']);
}

export function ensurePackages(pkgs) {
  const missing = pkgs.filter((p) => !isInstalled(p));
  if (!missing.length) return;
  let r = run(['install', '-y', ...missing]);
  if (r.status !== 0) {
    aptUpdateOnce();
    r = run(['install', '-y', ...missing]);
  }
  if (r.status !== 0) throw new Error(`apt-get install ${missing.join(' ')} failed:\n${r.stderr.slice(-2000)}`);
}
