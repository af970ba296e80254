// Reads the webview bundle the build put next to the CLI (dist/webview.js, webview.css, codicons/).
import * as fs from 'fs';
import * as path from 'path';
import { inlineCodicons, ReportAssets } from '../panels/html';

export function readReportAssets(distDir: string): ReportAssets {
  const file = (name: string): string => path.join(distDir, name);
  if (!fs.existsSync(file('webview.js')) || !fs.existsSync(file('webview.css'))) {
    throw new Error(`the webview bundle is missing in ${distDir} (run \`npm run build\`)`);
  }
  let codiconCss = '';
  const css = file('codicons/codicon.css');
  const ttf = file('codicons/codicon.ttf');
  if (fs.existsSync(css) && fs.existsSync(ttf)) codiconCss = inlineCodicons(fs.readFileSync(css, 'utf8'), fs.readFileSync(ttf));
  return { js: fs.readFileSync(file('webview.js'), 'utf8'), css: fs.readFileSync(file('webview.css'), 'utf8'), codiconCss };
}
