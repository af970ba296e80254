// The environment for an npm (or node) process we start ourselves from inside an npm script.
// `npm test` exports its own configuration to the scripts it runs as npm_config_* variables (user agent with
// node/v20, allow-scripts, nodedir, …), and a child npm takes every npm_config_* variable as configuration:
// the child then reports the outer Node in its user agent (which code-server's postinstall reads) and ignores
// the package.json it is given. So a nested install starts from the machine's environment, not npm's.
import { realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Variables npm adds for a script it runs (case-insensitive: npm reads NPM_CONFIG_* too). */
const NPM_ADDED = /^(npm_.*|INIT_CWD|NODE)$/i;
/** PATH entries npm prepends for a script: the package's node_modules/.bin and its own node-gyp shim. */
const NPM_PATH_ENTRY = /([\\/]node_modules[\\/]\.bin$|[\\/]node-gyp-bin$)/;

/**
 * `env` without npm's script variables, with `prependPath` folders first on PATH and `set` applied last
 * (so a caller can still choose, say, npm_config_nodedir for the child on purpose).
 */
export function cleanNpmEnv(env = process.env, { prependPath = [], set = {} } = {}) {
  const out = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || NPM_ADDED.test(k) || k.toUpperCase() === 'PATH') continue;
    out[k] = v;
  }
  const pathKey = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
  const inherited = (env[pathKey] ?? '').split(delimiter).filter((p) => p && !NPM_PATH_ENTRY.test(p));
  out.PATH = [...prependPath, ...inherited].join(delimiter);
  return { ...out, ...set };
}

/** The npm CLI script behind `npm` on PATH, so that a chosen `node` binary can run it (`node npm-cli.js …`). */
export function npmCliScript(env = process.env) {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || NPM_PATH_ENTRY.test(dir)) continue;
    try {
      const real = realpathSync(join(dir, 'npm'));
      if (/npm-cli\.js$/.test(real)) return real;
      // a shell wrapper (nvm, some distributions): its package folder is next to it
      return realpathSync(join(real, '..', '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'));
    } catch { /* not in this folder */ }
  }
  throw new Error('npm was not found on PATH');
}
