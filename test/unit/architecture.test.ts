// The map is checked: docs/architecture.md names only paths that exist and every top-level folder, and the
// layer rules it states hold in the source (imports scanned as text, so a broken rule fails here, not in review).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { sourceFiles } from './helpers';

const root = path.resolve(__dirname, '..', '..', '..');
const doc = fs.readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
const JAVA = 'agent/src/main/java/io/heaplens';

/** Backticked repository paths in the doc; `agent/…/runtime` and `agent/…/x` are short for the Java package folders. */
function namedPaths(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/`([^`\s]+)`/g)) {
    let p = m[1].replace(/^agent\/…\/runtime/, `${JAVA}/runtime`).replace(/^agent\/…\//, `${JAVA}/agent/`);
    if (!/^(agent|core|extension|webview|test|bench|docs|scripts|media|schemas|samples|bin)\//.test(p)) continue;
    p = p.replace(/\/$/, '');
    out.add(p);
  }
  for (const m of text.matchAll(/\]\(([\w.-]+\.md)\)/g)) out.add(`docs/${m[1]}`);
  return [...out];
}

/** The module specifiers a TypeScript file imports (static imports, `import type`, re-exports). */
function imports(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm)].map((m) => m[1]);
}

/** An import resolved to a path relative to the root ('vscode' and packages stay as they are). */
function resolved(file: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  return path.relative(root, path.resolve(root, path.dirname(file), spec)).split(path.sep).join('/');
}

/** The rule violations of `files`: an import for which `bad` returns a reason. */
function violations(files: string[], bad: (target: string) => string | undefined): string[] {
  const out: string[] = [];
  for (const f of files) {
    for (const spec of imports(f)) {
      const why = bad(resolved(f, spec));
      if (why) out.push(`${f} imports ${spec}: ${why}`);
    }
  }
  return out;
}

test('every path docs/architecture.md names exists', () => {
  const paths = namedPaths(doc);
  assert.ok(paths.length > 40, `the doc names ${paths.length} paths`);
  const missing = paths.filter((p) => !fs.existsSync(path.join(root, p)));
  assert.deepEqual(missing, []);
});

test('docs/architecture.md names every top-level folder of the repository', () => {
  const skip = new Set(['node_modules', 'out', 'dist', 'build', '.git', '.ci', '.cache', '.heaplens', '.vscode-test']);
  const folders = fs.readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !skip.has(e.name) && !e.name.startsWith('.'))
    .map((e) => e.name);
  const unnamed = folders.filter((f) => !new RegExp('`' + f + '/').test(doc));
  assert.deepEqual(unnamed, []);
});

test('core imports neither the extension nor the webview, and never vscode', () => {
  const files = sourceFiles('core', /\.ts$/);
  assert.ok(files.length > 40, `core has ${files.length} files`);
  assert.deepEqual(violations(files, (t) => {
    if (t === 'vscode') return 'core runs in the CLI and in the webview too';
    if (t.startsWith('extension/')) return 'core is the bottom layer: the extension imports it, not the other way';
    if (t.startsWith('webview/')) return 'core must not depend on the UI';
    return undefined;
  }), []);
});

test('heap, channel, project and cli never import vscode', () => {
  const files = ['extension/heap', 'extension/channel', 'extension/project', 'extension/cli'].flatMap((d) => sourceFiles(d, /\.ts$/));
  assert.ok(files.length > 40);
  assert.deepEqual(violations(files, (t) => (t === 'vscode' ? 'the CLI and the tests share this code' : undefined)), []);
});

test('the webview imports no extension code (only core), and never vscode', () => {
  const files = sourceFiles('webview', /\.ts$/);
  assert.ok(files.length > 20);
  assert.deepEqual(violations(files, (t) => {
    if (t === 'vscode') return 'the webview runs in a browser frame';
    if (t.startsWith('extension/')) return 'the webview shares only core/ with the extension';
    return undefined;
  }), []);
});

test('the agent runtime never imports the agent (the bootstrap loader cannot see it)', () => {
  const files = sourceFiles(`${JAVA}/runtime`, /\.java$/);
  assert.ok(files.length > 5);
  const bad: string[] = [];
  for (const f of files) {
    const text = fs.readFileSync(path.join(root, f), 'utf8');
    for (const m of text.matchAll(/^import\s+(?:static\s+)?(io\.heaplens\.agent\.[\w.]+);/gm)) bad.push(`${f}: ${m[1]}`);
    if (/\bio\.heaplens\.agent\.\w/.test(text.replace(/^import .*$/gm, '').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, ''))) bad.push(`${f}: uses io.heaplens.agent by its full name`);
  }
  assert.deepEqual(bad, []);
});

/** The io.heaplens.* names a Java file uses (imports and full names outside comments and string literals). */
function javaNames(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8')
    .replace(/"(?:[^"\\\n]|\\.)*"/g, '""')
    .replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
  return [...text.matchAll(/\bio\.heaplens\.[\w.]*[\w]/g)].map((m) => m[0]);
}

test('the agent\'s core imports nothing of the agent outside itself (every other package reads it)', () => {
  const files = sourceFiles(`${JAVA}/agent/core`, /\.java$/);
  assert.ok(files.length >= 5);
  const bad = files.flatMap((f) => javaNames(f)
    .filter((n) => n.startsWith('io.heaplens.agent.') && !n.startsWith('io.heaplens.agent.core'))
    .map((n) => `${f}: ${n}`));
  assert.deepEqual(bad, []);
});

test('the agent\'s boot package names the rest only as strings (it runs before the recorder is on the boot class path)', () => {
  const files = sourceFiles(`${JAVA}/agent/boot`, /\.java$/);
  assert.ok(files.length >= 1);
  const bad = files.flatMap((f) => javaNames(f).filter((n) => !n.startsWith('io.heaplens.agent.boot')).map((n) => `${f}: ${n}`));
  assert.deepEqual(bad, []);
});

test('nothing outside webview/ imports webview/ (the bundle is a leaf; tests may)', () => {
  const files = ['core', 'extension', 'scripts'].flatMap((d) => sourceFiles(d, /\.(ts|mjs)$/));
  assert.deepEqual(violations(files, (t) => (t.startsWith('webview/') ? 'the extension talks to the webview by messages only' : undefined)), []);
});
