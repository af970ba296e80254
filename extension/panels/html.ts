// HTML pages that host the webview bundle: the VS Code panel's (assets by URI, strict CSP with a nonce)
// and the CLI's self-contained report (bundle, styles, icon font and profile data inlined; no network).
// No `vscode` import: the CLI uses it too.
import { randomBytes } from 'crypto';
import { deepJson } from '../../core/protocol/deep-json';
import { splitTrees } from '../../core/profile/tree-split';
import { ProfileFile } from '../../core/profile/types';
import { EmbeddedFirstTree } from './first-tree';

export function nonce(): string {
  return randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '');
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** JSON safe inside <script type="application/json">: no "<" can close the element. */
export function scriptJson(v: unknown): string {
  return deepJson(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function base64(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
}

/** JavaScript safe inside <script>: a literal "</script" would end the element. */
function scriptText(js: string): string {
  return js.replace(/<\/(script)/gi, '<\\/$1');
}

/** The page both hosts share: the CSP, then `head` and `body` (each ending in a newline) around the app's element. */
function page(csp: string, head: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
${head}</head>
<body>
<div id="app"></div>
${body}</body>
</html>
`;
}

export interface PanelAssets {
  /** webview URIs (asWebviewUri) as strings */
  script: string;
  style: string;
  codicons: string;
  /** the webview's cspSource */
  cspSource: string;
  title: string;
  /** a saved file's webview URI, fetched by the page (controller.ts showFile): its script starts the fetch at once */
  profileUrl?: string;
}


export function panelHtml(a: PanelAssets): string {
  const n = nonce();
  const csp = [
    "default-src 'none'", `img-src ${a.cspSource} data:`, `font-src ${a.cspSource}`,
    `style-src ${a.cspSource} 'nonce-${n}'`, `script-src 'nonce-${n}'`, 'worker-src blob:',
    // the page's load worker fetches a saved profile's bytes (a webview URI of the file: controller.ts showFile)
    `connect-src ${a.cspSource}`,
  ].join('; ');
  // the file the page fetches, named here so that its script starts the fetch before the host's first message (which
  // names it again); not fetched by the HTML itself: VS Code then loads the bundle only after the file (Round 14)
  const profile = a.profileUrl ? `<meta name="heaplens-profile" content="${escapeHtml(a.profileUrl)}">\n` : '';
  return page(csp, `${profile}<link rel="stylesheet" href="${escapeHtml(a.codicons)}" nonce="${n}">
<link rel="stylesheet" href="${escapeHtml(a.style)}" nonce="${n}">
<title>${escapeHtml(a.title)}</title>
`, `<script nonce="${n}" src="${escapeHtml(a.script)}"></script>
`);
}

export interface ReportAssets {
  js: string;
  css: string;
  /** codicon.css with its font inlined as a data: URL, or '' */
  codiconCss: string;
}

export interface ReportData {
  title: string;
  profile: unknown;
  baseline?: { title: string; profile: unknown };
  /** the mode's data the page shows first (modes.ts TreeKind) */
  tree?: string;
  /** the first tree, built here (first-tree.ts): the page paints it without parsing the call trees */
  firstTree?: EmbeddedFirstTree;
}

/** The codicon stylesheet with `url("./codicon.ttf?…")` replaced by the font itself. */
export function inlineCodicons(css: string, ttf: Buffer): string {
  return css.replace(/url\((["']?)\.\/codicon\.ttf[^)"']*\1\)/, `url("data:font/ttf;base64,${ttf.toString('base64')}")`);
}

export function reportHtml(assets: ReportAssets, data: ReportData): string {
  const n = nonce();
  // worker-src blob: the load worker (webview/load/) runs from a Blob URL of the bundle's embedded worker source
  const csp = ["default-src 'none'", "img-src data:", "font-src data:", `style-src 'nonce-${n}'`, `script-src 'nonce-${n}'`, 'worker-src blob:'].join('; ');
  const { firstTree, ...embedded } = data;
  const attrs = `data-title="${escapeHtml(data.title)}"${data.tree ? ` data-tree="${escapeHtml(data.tree)}"` : ''}`;
  const parts = firstTree ? splitData(embedded, firstTree, attrs)
    : { before: `<script type="application/json" id="heaplens-data" ${attrs}>${scriptJson(embedded)}</script>\n`, after: '' };
  return page(csp, `<meta name="generator" content="HeapLens">
<title>HeapLens — ${escapeHtml(data.title)}</title>
${assets.codiconCss ? `<style nonce="${n}">${assets.codiconCss}</style>\n` : ''}<style nonce="${n}">${assets.css}</style>
`, `${parts.before}<script nonce="${n}">${scriptText(assets.js)}</script>
${parts.after}`);
}

/**
 * With a first tree: before the page script, what the first paint reads (the profile without its call trees in
 * #heaplens-data, the first tree's columns in base64); after it, what is read once the page is parsed (the call trees in
 * #heaplens-trees, the tree's records): the browser runs the script, which paints, before it has read those.
 */
function splitData(data: Omit<ReportData, 'firstTree'>, first: EmbeddedFirstTree, attrs: string): { before: string; after: string } {
  const { light, trees } = splitTrees(data.profile as ProfileFile);
  const kinds = ` data-kind="${escapeHtml(first.kind)}" data-kinds="${escapeHtml(first.kinds.join(' '))}" data-default-kind="${escapeHtml(first.defaultKind)}"`;
  return {
    before: `<script type="application/json" id="heaplens-data" ${attrs}>${scriptJson({ ...data, profile: light })}</script>
${inParts('application/octet-stream', 'heaplens-first-tree', base64(first.columns), kinds)}`,
    after: `${inParts('application/json', 'heaplens-trees', scriptJson(trees))}${inParts('application/octet-stream', 'heaplens-first-records', base64(first.records))}`,
  };
}

/** Characters of one part (a multiple of 4: each part of base64 text decodes alone). */
export const PART_CHARS = 1 << 20;

/**
 * A long text as script elements of PART_CHARS each (`#ID` the first, `.ID-part` the others, in order): the browser's
 * parser can pause between elements, not inside one, so a million-node report is not parsed in tasks of a third of a
 * second. The page joins them (webview/main.ts). The text holds no "<" (scriptJson, base64): any cut is safe.
 */
function inParts(type: string, id: string, text: string, attrs = ''): string {
  let out = `<script type="${type}" id="${id}"${attrs}>${text.slice(0, PART_CHARS)}</script>\n`;
  for (let at = PART_CHARS; at < text.length; at += PART_CHARS) out += `<script type="${type}" class="${id}-part">${text.slice(at, at + PART_CHARS)}</script>\n`;
  return out;
}
