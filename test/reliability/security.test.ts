// "Nobody else gets in" and "bad input loses nothing" (docs/reliability.md), the parts outside the agent:
// broken profile files through every loader, the webviews' CSP, no launch in Restricted Mode, and file names
// from profiles that cannot widen the workspace search. The channel's own attacks are agent JUnit tests
// (ChannelHostileTest, ChannelServerTest) and test/unit/codec.test.ts (the client's frame fuzz).
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { test } from 'node:test';
import { CLI, ROOT } from '../e2e/support/env';
import { exec } from '../e2e/support/heaplens';
import { loadProfile, parseProfile, ProfileError } from '../../core/profile/load';
import { PROFILE_VERSION } from '../../core/profile/types';
import { panelHtml, reportHtml } from '../../extension/panels/html';
import { bestMatch, sourceName } from '../../extension/panels/source-match';

const SAMPLE = path.join(ROOT, 'test', 'unit', 'data', 'sample.heaplens');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heaplens-security-'));

/** Broken variants of a real profile, each with the message a user must see. */
function brokenFiles(): { name: string; file: string; message: RegExp }[] {
  const text = fs.readFileSync(SAMPLE, 'utf8');
  const doc = JSON.parse(text);
  const write = (name: string, body: string) => { const f = path.join(tmp, name); fs.writeFileSync(f, body); return f; };
  return [
    { name: 'truncated', file: write('truncated.heaplens', text.slice(0, Math.floor(text.length / 2))), message: /truncated or corrupted/ },
    { name: 'corrupted bytes', file: write('corrupt.heaplens', text.slice(0, 200) + '\u0000\u00ff{{' + text.slice(204)), message: /truncated or corrupted/ },
    // one past the newest version this build reads (the sample itself is an older version, which must still load)
    { name: 'future version', file: write('future.heaplens', JSON.stringify({ ...doc, version: PROFILE_VERSION + 1 })), message: new RegExp(`version ${PROFILE_VERSION + 1}`) },
    { name: 'not a profile', file: write('other.heaplens', JSON.stringify({ hello: 'world' })), message: /not a HeapLens profile/ },
    { name: 'empty', file: write('empty.heaplens', ''), message: /truncated or corrupted|empty/ },
  ];
}

test('broken profiles are refused with a clear message by the CLI, the panel loader and the custom editor parser', async () => {
  for (const b of brokenFiles()) {
    const r = await exec(process.execPath, [CLI, 'report', b.file]);
    assert.equal(r.code, 1, `${b.name}: CLI exit code`);
    assert.match(r.stderr, /^heaplens: /, `${b.name}: ${r.stderr}`);
    assert.match(r.stderr, b.message, `${b.name}: ${r.stderr}`);
    assert.equal(r.stdout, '', `${b.name}: no partial report`);
    // the panel (loadProfile) names the file; the custom editor (parseProfile on the document's text) the problem
    assert.throws(() => loadProfile(b.file), (e: Error) => e instanceof ProfileError && b.message.test(e.message) && e.message.includes(path.basename(b.file)));
    assert.throws(() => parseProfile(fs.readFileSync(b.file, 'utf8')), (e: Error) => e instanceof ProfileError && b.message.test(e.message));
  }
  // and the intact file still loads: nothing was lost
  assert.ok(loadProfile(SAMPLE).file.threads.length > 0);
});

test('no launch in Restricted Mode: the manifest declares limited support (the adapter refusal is test/unit/adapter.test.ts)', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.equal(pkg.capabilities?.untrustedWorkspaces?.supported, 'limited');
  assert.match(pkg.capabilities.untrustedWorkspaces.description, /launching is refused/i);
  const provider = fs.readFileSync(path.join(ROOT, 'extension', 'launch', 'provider.ts'), 'utf8');
  assert.match(provider, /if \(!vscode\.workspace\.isTrusted\) \{/);
});

/** Every `webview.html = …` in the extension goes through panelHtml, so checking panelHtml checks every webview. */
test('every webview gets its HTML from panelHtml', () => {
  const assignments: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts')) for (const m of fs.readFileSync(p, 'utf8').matchAll(/\.html\s*=\s*([A-Za-z_]+)/g)) assignments.push(`${path.relative(ROOT, p)}: ${m[1]}`);
    }
  };
  walk(path.join(ROOT, 'extension'));
  assert.ok(assignments.length > 0);
  for (const a of assignments) assert.match(a, /: panelHtml$/, a);
});

function assertStrictCsp(html: string, what: string): void {
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  assert.ok(csp, `${what}: no CSP`);
  const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v] as const));
  assert.deepEqual(directives.get('default-src'), ["'none'"], what);
  const scripts = directives.get('script-src') ?? [];
  assert.equal(scripts.length, 1, `${what}: script-src ${scripts.join(' ')}`);
  const nonce = /^'nonce-([A-Za-z0-9]{16,})'$/.exec(scripts[0])?.[1];
  assert.ok(nonce, `${what}: script-src must be a nonce only`);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:|\*/, `${what}: ${csp}`);
  // every executable script element carries the nonce; data blocks are type=application/json
  for (const m of html.matchAll(/<script\b([^>]*)>/g)) {
    const attrs = m[1];
    assert.ok(attrs.includes(`nonce="${nonce}"`) || /type="application\/json"/.test(attrs), `${what}: script without the nonce: ${m[0]}`);
  }
  assert.doesNotMatch(html.replace(/<script type="application\/json"[^>]*>[\s\S]*?<\/script>/g, ''), /(src|href)="https?:/, `${what}: remote resource`);
}

test('webview and report HTML: strict CSP, scripts only with the nonce, no eval, no remote resources — also for a hostile profile', () => {
  assertStrictCsp(panelHtml({ script: 'vscode-webview://x/webview.js', style: 'vscode-webview://x/webview.css', codicons: 'vscode-webview://x/codicon.css', cspSource: 'vscode-webview://x', title: 'a"><script>alert(1)</script>' }), 'panel');
  const hostile = JSON.parse(fs.readFileSync(SAMPLE, 'utf8'));
  hostile.methods[0].class = '</script><script>alert(1)</script>';
  hostile.meta.command = '<img src=https://evil.example/x onerror=alert(1)>';
  const js = fs.readFileSync(path.join(ROOT, 'dist', 'webview.js'), 'utf8');
  const html = reportHtml({ js, css: 'body{}', codiconCss: '' }, { title: '<b>t</b>', profile: hostile });
  assertStrictCsp(html, 'report');
  assert.equal((html.match(/<script\b/g) ?? []).length, 2, 'the data block and the bundle, nothing injected');
  // the bundle itself uses no eval or Function constructor, so the CSP never needs 'unsafe-eval'
  assert.doesNotMatch(js, /\beval\(|new Function\(/);
});

test('file names from a profile cannot widen the workspace search or reach outside it', () => {
  const frame = (file: string | undefined, cls = 'com.acme.Parser') => ({ class: cls, method: 'm', desc: '()V', file });
  assert.equal(sourceName(frame('Parser.java')), 'Parser.java');
  for (const bad of ['../../../etc/passwd', '/etc/passwd', '..\\..\\x.java', '**', '*.java', '{a,b}.java', '[ab].java', '..', '.']) {
    assert.equal(sourceName(frame(bad)), 'Parser.java', `SourceFile ${JSON.stringify(bad)}`);
  }
  assert.equal(sourceName(frame(undefined, 'com.acme.*')), 'Unknown.java');
  // candidates only ever come from the workspace search; the best match is one of them
  const cands = ['/ws/src/com/acme/Parser.java', '/ws/other/Parser.java'];
  assert.equal(bestMatch(cands, frame('Parser.java')), '/ws/src/com/acme/Parser.java');
});
