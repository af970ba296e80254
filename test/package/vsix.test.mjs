// The .vsix as shipped: packaged from the current dist/ with @vscode/vsce, then its entries listed. It must
// hold exactly what the installed extension runs and shows, and nothing else: no sources, tests, fixtures,
// node_modules (the esbuild bundles need none: checked), source maps or build caches.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { root } from '../../scripts/lib.mjs';
import { listZip, packageVsix, readZipEntry } from '../../scripts/vsix.mjs';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const built = packageVsix();
const entries = listZip(built.file);
const names = entries.map((e) => e.name);
console.log(`${built.file}: ${(built.bytes / 1024).toFixed(0)} KiB, ${names.length} files, vsce ${(built.ms / 1000).toFixed(1)} s`);

/** Everything allowed in the package (paths inside the .vsix). */
const ALLOWED = [
  /^extension\.vsixmanifest$/, /^\[Content_Types\]\.xml$/,
  /^extension\/package\.json$/, /^extension\/readme\.md$/, /^extension\/changelog\.md$/, /^extension\/LICENSE\.txt$/,
  /^extension\/dist\/(extension|outline-worker|heap-worker|webview)\.js$/, /^extension\/dist\/webview\.css$/,
  /^extension\/dist\/codicons\/codicon\.(css|ttf)$/, /^extension\/dist\/heaplens-agent\.jar$/,
  /^extension\/dist\/libheaplens-sampler-linux-(x64|arm64)\.so$/,
  /^extension\/media\/icon\.png$/, /^extension\/media\/heat-[1-5]\.svg$/, /^extension\/media\/walkthrough\/[a-z-]+\.png$/,
  /^extension\/schemas\/heaplens-budget\.schema\.json$/,
];

/** What must never be inside, each with the reason given when it is. */
const FORBIDDEN = [
  [/\.tsx?$/, 'TypeScript sources'],
  [/\.java$|\.class$/, 'Java sources or classes (the agent ships as its jar)'],
  [/(^|\/)node_modules\//, 'node_modules (the bundles need none)'],
  [/(^|\/)(test|tests|fixtures|bench|samples|out|build|target|agent|webview|scripts|\.cache)\//, 'tests, fixtures, bench, samples or build output'],
  [/^extension\/(extension|core)\//, 'the extension sources (extension/, core/)'],
  [/\.map$/, 'source maps'],
  [/\.(heaplens|vsix|log|tap|tmp)$/, 'profiles, packages, logs or temporary files'],
  [/(^|\/)\.(git|vscode|github)(\/|$)|(^|\/)\.[^/]+$/, 'dot files'],
  [/^extension\/dist\/cli\.js$/, 'the CLI bundle (not used by the extension)'],
];

test('the .vsix holds only allowed files, none of the forbidden kinds', () => {
  for (const n of names) {
    for (const [re, why] of FORBIDDEN) assert.ok(!re.test(n), `${n} is in the .vsix: ${why} must stay out (.vscodeignore)`);
    assert.ok(ALLOWED.some((re) => re.test(n)), `${n} is in the .vsix but not on the allowed list (test/package/vsix.test.mjs)`);
  }
});

test('the .vsix holds what the installed extension loads', () => {
  const need = [
    'extension/package.json', 'extension/readme.md', 'extension/changelog.md', 'extension/LICENSE.txt',
    `extension/${pkg.main.replace(/^\.\//, '')}`, 'extension/dist/outline-worker.js', 'extension/dist/heap-worker.js', 'extension/dist/webview.js',
    'extension/dist/webview.css', 'extension/dist/codicons/codicon.css', 'extension/dist/codicons/codicon.ttf',
    'extension/dist/heaplens-agent.jar', `extension/${pkg.icon}`,
    ...[1, 2, 3, 4, 5].map((i) => `extension/media/heat-${i}.svg`),
    ...pkg.contributes.jsonValidation.map((j) => `extension/${j.url.replace(/^\.\//, '')}`),
    ...pkg.contributes.walkthroughs.flatMap((w) => w.steps.map((s) => `extension/${s.media.image}`)),
  ];
  for (const n of need) assert.ok(names.includes(n), `${n} is missing from the .vsix`);
  const agent = entries.find((e) => e.name === 'extension/dist/heaplens-agent.jar');
  assert.ok(agent.size > 100_000, `the agent jar is ${agent.size} bytes`);
  // the native heap sampler (sampler=jvmti) for the machine that built the package, next to the jar where the agent looks
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  if (process.platform === 'linux') {
    const lib = entries.find((e) => e.name === `extension/dist/libheaplens-sampler-linux-${arch}.so`);
    assert.ok(lib && lib.size > 4_000, `extension/dist/libheaplens-sampler-linux-${arch}.so is missing from the .vsix (or ${lib?.size} bytes)`);
  }
});

test('the bundles need no node_modules: every require() is vscode or a Node built-in', () => {
  const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
  for (const bundle of ['extension/dist/extension.js', 'extension/dist/outline-worker.js', 'extension/dist/heap-worker.js']) {
    const text = readZipEntry(built.file, bundle).toString('utf8');
    // A `require("…")` right after a quote or backtick is text, not a call: ajv keeps such strings for the standalone
    // code it can generate ('require("ajv/dist/runtime/equal").default'), and uses the bundled module at run time.
    const required = new Set([...text.matchAll(/(?<![`'"])\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]));
    assert.ok(required.size > 0, `${bundle}: no require() found (not a CommonJS bundle?)`);
    const external = [...required].filter((m) => m !== 'vscode' && !builtins.has(m));
    assert.deepEqual(external, [], `${bundle} requires ${external.join(', ')}: bundle it or ship it`);
  }
});

test('the manifest inside is the repository\'s, and the package stays small', () => {
  const inside = JSON.parse(readZipEntry(built.file, 'extension/package.json').toString('utf8'));
  assert.equal(inside.name, pkg.name);
  assert.equal(inside.version, pkg.version);
  assert.deepEqual(inside.contributes.walkthroughs, pkg.contributes.walkthroughs);
  assert.ok(built.file.endsWith(`${pkg.name}-${pkg.version}.vsix`));
  // ~0.7 MiB of code and jar plus the walkthrough pictures; a source map or node_modules would pass 3 MiB
  assert.ok(built.bytes < 3 * 1024 * 1024, `the .vsix is ${(built.bytes / 1024 / 1024).toFixed(2)} MiB`);
  assert.ok(existsSync(built.file));
});
