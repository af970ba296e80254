// Renders media/icon.svg to media/icon.png (256×256) with headless Chromium (the harness's, CHROMIUM or
// /usr/bin/chromium). Run it after changing the SVG: node scripts/render-icon.mjs
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const require = createRequire(`${root}/`);
const { chromium } = require('playwright-core');
const svg = readFileSync(join(root, 'media', 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await (await browser.newContext({ viewport: { width: 256, height: 256 }, deviceScaleFactor: 1 })).newPage();
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: join(root, 'media', 'icon.png'), omitBackground: true });
  console.log('media/icon.png written');
} finally {
  await browser.close();
}
