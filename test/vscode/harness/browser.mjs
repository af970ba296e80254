// Debian's Chromium driven by playwright-core, and the workbench URL with a test payload.
import { createRequire } from 'node:module';
import { root } from '../../../scripts/lib.mjs';

const require = createRequire(`${root}/`);
const { chromium } = require('playwright-core');

export async function launchBrowser(executablePath) {
  return chromium.launch({
    executablePath, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/**
 * The workbench URL opening `folder`, with optional test entries; the extension is loaded from source
 * (extensionDevelopmentPath), or with `{ installed: true }` only the .vsix installed into the profile runs.
 */
export function workbenchUrl(server, folder, entries = [], { installed = false } = {}) {
  const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload = [...(installed ? [] : [['extensionDevelopmentPath', remote(root)]]), ['skipWelcome', 'true'],
    ...entries.map(([k, v]) => [k, k === 'extensionTestsPath' ? remote(v) : v])];
  return `${server.url}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}
