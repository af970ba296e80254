// A real pprof client for the export tests: `go tool pprof` from Debian's golang-go, installed here when missing
// (idempotent: apt-get update + install only when `go` is not found), as test/vscode/harness/install.mjs does for
// chromium. Go gets its own GOCACHE/HOME in a temp folder and no network (GOPROXY=off, GOTOOLCHAIN=local).
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const GO_CANDIDATES = ['/usr/bin/go', '/usr/lib/go/bin/go'];

function findGo(): string | undefined {
  return GO_CANDIDATES.find((g) => fs.existsSync(g));
}

function aptInstalled(pkg: string): boolean {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

/** The go binary; installs Debian's golang-go when it is missing (needs root, as the test machine's setup has). */
export function ensureGo(): string {
  const found = findGo();
  if (found) return found;
  if (aptInstalled('golang-go')) throw new Error('golang-go is installed but no go binary is at ' + GO_CANDIDATES.join(' or '));
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'golang-go']]) {
    const r = spawnSync('apt-get', args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${r.status}): ${(r.stderr || r.error?.message || '').trim().split('\n').slice(-3).join(' ')}`);
  }
  const go = findGo();
  if (!go) throw new Error('golang-go installed but no go binary at ' + GO_CANDIDATES.join(' or '));
  return go;
}

/** Runs `go tool pprof ARGS` offline with a private GOCACHE/HOME; returns stdout (throws with stderr on failure). */
export function goPprof(args: readonly string[]): string {
  const go = ensureGo();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-go-'));
  try {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH, HOME: home, GOCACHE: path.join(home, 'cache'), GOPATH: path.join(home, 'gopath'),
      GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '', GOTELEMETRY: 'off', PPROF_TMPDIR: home, NO_PROXY: '*',
    };
    return execFileSync(go, ['tool', 'pprof', ...args], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}
