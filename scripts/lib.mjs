// Helpers shared by the build, test and demo scripts.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanNpmEnv } from './clean-env.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs a command in the repo root with inherited output; returns its exit status. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (r.error) {
    console.error(`${cmd}: ${r.error.message}`);
    return 127;
  }
  return r.status ?? 128;
}

/** Runs a command and exits the script when it fails. */
export function must(cmd, args, what, opts = {}) {
  const status = run(cmd, args, opts);
  if (status !== 0) {
    console.error(`${what} failed (exit ${status})`);
    process.exit(status || 1);
  }
}

/** Installs npm dependencies when node_modules is missing or package-lock.json changed since the last install. */
export function ensureDeps() {
  const lock = join(root, 'package-lock.json');
  const stamp = join(root, 'node_modules', '.heaplens-deps');
  const hash = createHash('sha256')
    .update(readFileSync(join(root, 'package.json')))
    .update(existsSync(lock) ? readFileSync(lock) : '')
    .digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return;
  console.log('installing npm dependencies …');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // in the machine's environment: an outer `npm test`'s configuration must not become this install's
  must(npm, existsSync(lock) ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'], 'npm install',
    { env: cleanNpmEnv(process.env) });
  writeFileSync(stamp, hash);
}

/** Whether a command is on the PATH. */
export function onPath(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/**
 * gcc for the agent's native heap sampler (agent/src/main/c): Debian's `gcc` when it is missing and apt-get can run
 * (as root); idempotent. Returns whether gcc is there now.
 */
export function ensureGcc() {
  if (onPath('gcc')) return true;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !onPath('apt-get')) return false;
  console.log('build: installing gcc (apt-get install gcc) for the native heap sampler …');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], { stdio: 'ignore', env }).status === 0;
  if (!apt(['install', '-y', '-qq', 'gcc'])) apt(['update', '-qq']) && apt(['install', '-y', '-qq', 'gcc']);
  return onPath('gcc');
}

/**
 * `withFirstSection` of core/profile/first-section.ts (the writers' first section, docs/format.md "first") for the
 * scripts that write profiles: the TypeScript bundled on the fly by esbuild, as the build bundles it.
 */
export async function firstSectionWriter() {
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    entryPoints: [join(root, 'core/profile/first-section.ts')], bundle: true, write: false, format: 'esm', platform: 'node', logLevel: 'warning',
  });
  const url = `data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`;
  return (await import(url)).withFirstSection;
}
