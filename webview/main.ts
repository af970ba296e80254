// Entry point of dist/webview.js: in VS Code it talks to the panel; in the HTML report it reads the
// profile embedded in the page (<script type="application/json" id="heaplens-data">).
import { App } from './app';
import { Host, vscodeHost } from './host';
import { EmbeddedData, reportHost } from './report-host';
import { runBench, watchLongTasks } from './bench';
import { TreeKind } from '../core/profile/modes';
import { mark, timed } from './timing';
import { applyForcedTheme } from './views/theme';
import { BuiltTree } from '../core/protocol/webview-protocol';
import { fromBase64Parts } from './load/built-tree';
import { nextTask } from './tasks';
import { ProfileLoads } from './load/apply-profile';
import { prefetch } from './load/fetch-profile';

const scriptStart = performance.now();
mark('script');
// a saved file in the .heaplens editor: its bytes are fetched first, while the page is built and asks its host
const early = document.querySelector('meta[name="heaplens-profile"]')?.getAttribute('content');
if (early) prefetch(early);
if (/[#&]bench=1\b/.test(location.hash)) watchLongTasks();

declare global {
  interface Window {
    heaplens?: App;
  }
}

async function start(): Promise<void> {
  const mount = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
  let host: Host | undefined = vscodeHost();
  if (!host) {
    applyForcedTheme();
    const script = document.getElementById('heaplens-data');
    const text = timed('readText', () => script?.textContent);
    if (!script || !text) {
      mount.textContent = 'HeapLens: no profile data in this page.';
      return;
    }
    // the title and first tree are attributes (heaplens report writes them): the text is parsed by the load worker
    let title = script.getAttribute('data-title');
    let tree = script.getAttribute('data-tree') as TreeKind | null;
    if (title === null) {
      const data = JSON.parse(text) as EmbeddedData;
      title = data.title;
      tree = data.tree ?? null;
    }
    host = reportHost({ title, tree: tree ?? undefined, text, built: builtTree() });
  }
  const app = new App(host, mount);
  window.heaplens = app;
  mark('app');
  // a large first tree's base64 (27 MB for a million nodes) is read in a task after this one, which built the page
  if (host.kind === 'report' && largeFirstTree()) await nextTask();
  host.post({ type: 'ready' });
  mark('ready');
  // the report has its data already: show it now rather than at the next animation frame
  if (host.kind === 'report') {
    const shown = app.loads.applyProfile();
    if (/[#&]bench=1\b/.test(location.hash)) void shown.then(() => runBench(app, scriptStart));
  }
}

/**
 * The first tree `heaplens report` built (extension/panels/first-tree.ts), with the call trees apart; none in older
 * reports. The trees and records come after this script in the page: read on first use, once the page is parsed
 * (apply-profile.ts and embedded-trees.ts wait for that).
 */
function builtTree(): BuiltTree | undefined {
  const cols = document.getElementById('heaplens-first-tree');
  if (!cols) return undefined;
  let records: Uint8Array | undefined;
  let trees: string | undefined;
  let columns: Uint8Array | undefined;
  return {
    kind: cols.getAttribute('data-kind') as TreeKind,
    kinds: (cols.getAttribute('data-kinds') ?? '').split(' ').filter(Boolean) as TreeKind[],
    defaultKind: cols.getAttribute('data-default-kind') as TreeKind,
    get columns() {
      return (columns ??= timed('readTree', () => fromBase64Parts(partsOf('heaplens-first-tree'))));
    },
    get records() {
      return (records ??= fromBase64Parts(partsOf('heaplens-first-records')));
    },
    get trees() {
      return (trees ??= partsOf('heaplens-trees').join(''));
    },
  };
}

/** Whether the first tree's columns are the size App decodes in slices (ProfileLoads.SPLIT_FROM; in parts of 1 MiB of base64, html.ts). */
function largeFirstTree(): boolean {
  return document.getElementsByClassName('heaplens-first-tree-part').length + 1 >= Math.floor(ProfileLoads.SPLIT_FROM * 4 / 3 / 2 ** 20);
}

/** The text of element `#id` and of its parts (`.id-part`, in page order: a long text is written in parts, html.ts). */
function partsOf(id: string): string[] {
  const first = document.getElementById(id);
  return first ? [first, ...document.getElementsByClassName(`${id}-part`)].map((e) => e.textContent ?? '') : [''];
}

void start();
