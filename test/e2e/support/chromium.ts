// Headless Chromium (Debian's /usr/bin/chromium, or $HEAPLENS_CHROMIUM) with the network shut off:
// pages are loaded from file:// and every host resolves to nothing, through a proxy that does not exist.
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export function findChromium(): string | undefined {
  const candidates = [process.env.HEAPLENS_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((c): c is string => !!c && fs.existsSync(c));
}

export const OFFLINE_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP * ~NOTFOUND', '--proxy-server=127.0.0.1:9',
];

/** Runs Chromium on a URL with extra flags (e.g. --dump-dom, --screenshot=…); resolves to its stdout. */
export function chromium(url: string, extra: readonly string[], timeoutMs = 60_000): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const bin = findChromium();
  if (!bin) throw new Error('no Chromium found (apt-get install chromium, or set HEAPLENS_CHROMIUM)');
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-chromium-'));
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [...OFFLINE_FLAGS, `--user-data-dir=${profileDir}`, ...extra, url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      fs.rmSync(profileDir, { recursive: true, force: true });
      resolve({ stdout, stderr, code });
    });
  });
}
