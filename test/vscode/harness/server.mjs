// Starts code-server (VS Code 1.139.1) on 127.0.0.1 with a fresh profile, per shared/recipes/real-vscode,
// in its own process group so that stopping it also ends the extension hosts.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { cleanNpmEnv } from '../../../scripts/clean-env.mjs';

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Installs a .vsix into the profile the way a user does (`code-server --install-extension`); returns its output. */
export function installVsix(paths, data, extensions, vsix) {
  const base = dirname(data);
  // the server (and the extension host under it) runs in the machine's environment, not npm test's
  const env = cleanNpmEnv(process.env, { set: { XDG_CONFIG_HOME: join(base, 'xdg-config'), XDG_DATA_HOME: join(base, 'xdg-data') } });
  const r = spawnSync(paths.node24, [paths.codeServerEntry, '--user-data-dir', data, '--extensions-dir', extensions,
    '--install-extension', vsix, '--force'], { encoding: 'utf8', timeout: 120000, env });
  const text = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0 || !/was successfully installed/.test(text)) throw new Error(`code-server --install-extension ${vsix} failed (exit ${r.status}): ${text}`);
  const list = spawnSync(paths.node24, [paths.codeServerEntry, '--user-data-dir', data, '--extensions-dir', extensions,
    '--list-extensions', '--show-versions'], { encoding: 'utf8', timeout: 60000, env });
  return `${text.trim()}\n${(list.stdout ?? '').trim()}`;
}

/** Starts code-server; resolves to { port, url, stop(), log, installed }. `vsix`: installed into the fresh profile first. */
export async function startCodeServer(paths, base, { vsix } = {}) {
  rmSync(base, { recursive: true, force: true });
  const data = join(base, 'data');
  mkdirSync(join(data, 'User'), { recursive: true });
  writeFileSync(join(data, 'User', 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off', 'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false, 'update.mode': 'none', 'chat.disableAIFeatures': true,
    'workbench.tips.enabled': false, 'security.workspace.trust.enabled': false, 'debug.openDebug': 'openOnDebugBreak',
    'debug.internalConsoleOptions': 'openOnSessionStart', 'workbench.colorTheme': 'Default Dark Modern',
    'git.openRepositoryInParentFolders': 'never',
  }, null, 2));
  const installed = vsix ? installVsix(paths, data, join(base, 'extensions'), vsix) : undefined;
  if (installed) console.log(`code-server --install-extension: ${installed.replace(/\n/g, ' | ')}`);
  const port = await freePort();
  const config = join(base, 'config.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const log = join(base, 'code-server.log');
  const out = openSync(log, 'w');
  const child = spawn(paths.node24, [paths.codeServerEntry,
    '--config', config, '--user-data-dir', data, '--extensions-dir', join(base, 'extensions'),
    '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
    '--disable-workspace-trust', '--disable-getting-started-override', '--reconnection-grace-time', '10',
    '--vscode-option', 'enable-smoke-test-driver'], {
    detached: true, // own process group (setsid)
    stdio: ['ignore', out, out],
    env: cleanNpmEnv(process.env, { set: { XDG_CONFIG_HOME: join(base, 'xdg-config'), XDG_DATA_HOME: join(base, 'xdg-data') } }),
  });
  const stop = async () => {
    for (const sig of ['SIGTERM', 'SIGKILL']) {
      try { process.kill(-child.pid, sig); } catch { return; }
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  const url = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  for (;;) {
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch { /* not yet */ }
    if (child.exitCode !== null || Date.now() - t0 > 30000) {
      await stop();
      throw new Error(`code-server did not start (see ${log})`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(`code-server ${url} healthy after ${Date.now() - t0} ms (pid ${child.pid})`);
  return { port, url, stop, log, pid: child.pid, installed };
}
