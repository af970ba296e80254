// Debian packages an e2e test needs (Debian's `gradle`, `junit5` for the JUnit console launcher): installed with
// apt-get when missing, as the real-VS-Code harness installs Chromium (root on these machines). A failed install
// fails the test with apt's own words; nothing is skipped.
import { spawnSync } from 'child_process';

function installed(pkg: string): boolean {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

export function ensureDebianPackages(pkgs: readonly string[]): void {
  const want = pkgs.filter((p) => !installed(p));
  if (want.length === 0) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...want]]) {
    const r = spawnSync('apt-get', args, { env, encoding: 'utf8', timeout: 900_000 });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${r.status}): ${(r.stderr || r.error?.message || '').slice(-800)}`);
  }
}
