// The environment of nested installs (scripts/clean-env.mjs): npm test's own configuration must not reach
// a child npm (the fresh-machine failure: code-server's postinstall read node/v20 from the inherited user agent).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanNpmEnv } from '../clean-env.mjs';

const underNpmTest = {
  HOME: '/root',
  PATH: '/work/h/node_modules/.bin:/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin:/usr/local/bin:/usr/bin',
  npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
  npm_config_allow_scripts: '',
  npm_config_nodedir: '/usr',
  NPM_CONFIG_CACHE: '/root/.npm',
  npm_lifecycle_event: 'test',
  npm_lifecycle_script: 'node scripts/test.mjs',
  npm_package_name: 'heaplens',
  npm_package_json: '/work/h/package.json',
  npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
  npm_node_execpath: '/usr/bin/node',
  NODE: '/usr/bin/node',
  INIT_CWD: '/work/h',
  HEAPLENS_VSCODE_CACHE: '/tmp/cache',
};

test('an inherited npm_config_user_agent with node/v20 does not reach the child', () => {
  const env = cleanNpmEnv(underNpmTest, { prependPath: ['/tmp/cache/node24/bin'] });
  assert.equal(env.npm_config_user_agent, undefined);
  assert.ok(!Object.values(env).some((v) => /node\/v20/.test(v)), 'no value names node/v20');
});

test('every npm script variable is dropped, in either case; the rest of the machine environment stays', () => {
  const env = cleanNpmEnv(underNpmTest);
  assert.deepEqual(Object.keys(env).sort(), ['HEAPLENS_VSCODE_CACHE', 'HOME', 'PATH']);
  assert.equal(env.HOME, '/root');
  assert.equal(env.HEAPLENS_VSCODE_CACHE, '/tmp/cache');
});

test('Node 24 comes first on PATH; npm\'s .bin and node-gyp shim folders are gone', () => {
  const env = cleanNpmEnv(underNpmTest, { prependPath: ['/tmp/cache/node24/bin'] });
  assert.deepEqual(env.PATH.split(':'), ['/tmp/cache/node24/bin', '/usr/local/bin', '/usr/bin']);
});

test('a variable the caller sets on purpose is kept (set wins over the cleaning)', () => {
  const env = cleanNpmEnv(underNpmTest, { set: { npm_config_nodedir: '/tmp/cache/node24' } });
  assert.equal(env.npm_config_nodedir, '/tmp/cache/node24');
});
