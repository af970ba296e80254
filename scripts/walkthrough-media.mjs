// Copies the walkthrough pictures the real-VS-Code harness took (build/vscode-screenshots/walkthrough/, by the
// "walkthrough pictures" UI scenario against the installed .vsix) into media/walkthrough/, where the
// walkthrough and README.md use them. Run after `npm run test:vscode` when the UI changed; look at them first.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const NAMES = ['jdk', 'configure', 'flame', 'editor', 'accounts'];
const from = join(root, 'build', 'vscode-screenshots', 'walkthrough');
const to = join(root, 'media', 'walkthrough');
mkdirSync(to, { recursive: true });
const missing = NAMES.filter((n) => !existsSync(join(from, `${n}.png`)));
if (missing.length) {
  console.error(`walkthrough-media: ${missing.join(', ')} missing in ${from}: run npm run test:vscode first`);
  process.exit(1);
}
// pngquant (Debian's package, when installed) makes them ~3× smaller with no visible change: a smaller .vsix
const quant = spawnSync('pngquant', ['--version']).status === 0;
if (!quant) console.log('walkthrough-media: pngquant is not installed (apt-get install pngquant): copying the pictures as they are');
for (const n of NAMES) {
  const src = join(from, `${n}.png`);
  const dst = join(to, `${n}.png`);
  const q = quant && spawnSync('pngquant', ['--quality', '70-95', '--speed', '1', '--force', '--output', dst, src]).status === 0;
  if (!q) copyFileSync(src, dst);
  console.log(`media/walkthrough/${n}.png (${(statSync(join(to, `${n}.png`)).size / 1024).toFixed(0)} KiB)`);
}
