import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { inlineCodicons, panelHtml, reportHtml, scriptJson } from '../../extension/panels/html';
import { bestMatch, expectedPath } from '../../extension/panels/source-match';
import { hashState, restoreState } from '../../webview/state';
import { isHostMessage, isWebviewMessage } from '../../core/protocol/webview-protocol';

test('open source: the file under the package path wins, then the shortest path', () => {
  const frame = { class: 'com.acme.Parser$Inner', method: 'parse', desc: '()V', file: 'Parser.java', line: 42 };
  assert.equal(expectedPath(frame), 'com/acme/Parser.java');
  assert.equal(expectedPath({ class: 'Main', method: 'main', desc: '' }), 'Main.java');
  assert.equal(expectedPath({ class: 'a.b.Outer$1', method: 'run', desc: '' }), 'a/b/Outer.java', 'no file: the top-level class');
  const files = ['/w/old/Parser.java', '/w/src/main/java/com/acme/Parser.java', '/w/other/com/acme/x/Parser.java', '/w/t/com/acme/Parser.java'];
  assert.equal(bestMatch(files, frame), '/w/t/com/acme/Parser.java');
  assert.equal(bestMatch(['/w/z/Parser.java', '/w/Parser.java'], frame), '/w/Parser.java', 'no package match: shortest');
  assert.equal(bestMatch([], frame), undefined);
});

test('report HTML: strict CSP with a nonce, data that cannot close its script element, inlined font', () => {
  const html = reportHtml({ js: 'var s = "</script>";', css: 'body{}', codiconCss: '' }, { title: 'a<b>.heaplens', profile: { x: '</script><script>alert(1)</script>' } });
  const nonce = /'nonce-([A-Za-z0-9]+)'/.exec(html)![1];
  assert.match(html, new RegExp(`default-src 'none'; img-src data:; font-src data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'`));
  assert.equal((html.match(/<\/script>/g) ?? []).length, 2, 'only the two script elements close');
  assert.match(html, /<title>HeapLens — a&lt;b&gt;\.heaplens<\/title>/);
  assert.equal(JSON.parse(scriptJson({ a: '</script>\u2028' })).a, '</script>\u2028');
  const css = inlineCodicons('@font-face{src:url("./codicon.ttf?abc") format("truetype")}', Buffer.from('FONT'));
  assert.equal(css, '@font-face{src:url("data:font/ttf;base64,Rk9OVA==") format("truetype")}');
});

test('panel HTML: assets from the webview, scripts only with the nonce', () => {
  const html = panelHtml({ script: 'vscode-resource:/dist/webview.js', style: 'vscode-resource:/dist/webview.css', codicons: 'vscode-resource:/c.css', cspSource: 'vscode-webview:', title: 'T' });
  const nonce = /'nonce-([A-Za-z0-9]+)'/.exec(html)![1];
  assert.match(html, /default-src 'none'; img-src vscode-webview: data:; font-src vscode-webview:; style-src vscode-webview: 'nonce-/);
  assert.match(html, new RegExp(`<script nonce="${nonce}" src="vscode-resource:/dist/webview.js"></script>`));
  // the page fetches a saved profile's bytes from the webview's own resources, and nothing else
  assert.match(html, /; connect-src vscode-webview:"/);
  assert.ok(isWebviewMessage({ type: 'fetchFailed', message: 'HTTP 408' }));
  assert.ok(!isWebviewMessage({ type: 'fetchFailed' }), 'a fetchFailed says why');
  assert.notEqual(panelHtml({ script: '', style: '', codicons: '', cspSource: '', title: '' }).match(/nonce-(\w+)/)![1], nonce, 'a new nonce each time');
  assert.doesNotMatch(html, /heaplens-profile/, 'no file, nothing to fetch');
});

test('panel HTML of a saved file: names the file for the page\'s script to fetch first, and starts nothing itself', () => {
  const url = 'https://file+.vscode-resource.vscode-cdn.net/ws/a"><script>x</script>.heaplens';
  const html = panelHtml({ script: 'vscode-resource:/dist/webview.js', style: 'vscode-resource:/dist/webview.css', codicons: 'vscode-resource:/c.css', cspSource: 'vscode-webview:', title: 'T', profileUrl: url });
  assert.match(html, /<meta name="heaplens-profile" content="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ws\/a&quot;&gt;&lt;script&gt;x&lt;\/script&gt;\.heaplens">/);
  assert.equal((html.match(/<script\b/g) ?? []).length, 1, 'the bundle only');
});

test('state: restored from older or foreign data, deep links', () => {
  const s = restoreState({ view: 'sites', metric: 'bytes', zoom: [1, 2], selected: 'x', thread: 2.5, extra: 1 });
  assert.equal(s.view, 'sites');
  assert.equal(s.metric, 'bytes');
  assert.deepEqual(s.zoom, [1, 2]);
  assert.equal(s.selected, null, 'ill-typed: default');
  assert.equal(s.thread, -1);
  assert.deepEqual(hashState('#view=arrays&metric=calls&q=Main.down&recursion=1&theme=dark'), {
    view: 'arrays', metric: 'calls', query: 'Main.down', collapseRecursion: true,
  });
  assert.deepEqual(hashState('#view=nope'), { view: 'flame' });
});

test('messages are recognised by type on both sides', () => {
  assert.equal(isWebviewMessage({ type: 'navigate', frame: {} }), true);
  assert.equal(isWebviewMessage({ type: 'profile' }), false, 'the webview never sends data');
  assert.equal(isHostMessage({ type: 'profile', profile: {} }), true);
  assert.equal(isHostMessage({ type: 'export' }), false);
  assert.equal(isHostMessage(null), false);
});
