// Entry point of dist/webview.js: in VS Code it talks to the panel; in the HTML report it reads the
// profile embedded in the page (<script type="application/json" id="heaplens-data">).
import { App } from './app';
import { Host, vscodeHost } from './host';
import { EmbeddedData, reportHost } from './report-host';
import { runBench } from './bench';
import { timed } from './timing';
import { applyForcedTheme } from './views/theme';

const scriptStart = performance.now();

declare global {
  interface Window {
    heaplens?: App;
  }
}

function start(): void {
  const mount = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
  let host: Host | undefined = vscodeHost();
  if (!host) {
    applyForcedTheme();
    const script = document.getElementById('heaplens-data');
    const data = timed('parseJson', () => (script?.textContent ? (JSON.parse(script.textContent) as EmbeddedData) : undefined));
    if (!data) {
      mount.textContent = 'HeapLens: no profile data in this page.';
      return;
    }
    host = reportHost(data);
  }
  const app = new App(host, mount);
  window.heaplens = app;
  host.post({ type: 'ready' });
  // the report has its data already: show it now rather than at the next animation frame
  if (host.kind === 'report') {
    app.applyProfile();
    if (/[#&]bench=1\b/.test(location.hash)) runBench(app, scriptStart);
  }
}

start();
