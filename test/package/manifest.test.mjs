// The extension manifest (package.json) as a product: Marketplace fields, icon, engines matching the API
// types the code compiles against, narrow activation, commands, settings and the walkthrough complete.
// After merging another branch's manifest changes: node scripts/manifest/product.mjs
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from '../../scripts/lib.mjs';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const c = pkg.contributes;
const FIX = 'run `node scripts/manifest/product.mjs`';

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file) {
  const b = readFileSync(file);
  assert.equal(b.toString('latin1', 1, 4), 'PNG', `${file} is not a PNG`);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

test('Marketplace fields: name, description, categories, keywords, icon, repository, license', () => {
  assert.match(pkg.displayName, /HeapLens/);
  assert.ok(pkg.description.length > 40);
  for (const cat of ['Debuggers', 'Visualization']) assert.ok(pkg.categories.includes(cat), `categories lack ${cat}`);
  assert.ok(pkg.keywords.length >= 5 && pkg.keywords.length <= 30, 'vsce allows at most 30 keywords');
  assert.ok(pkg.keywords.includes('java') && pkg.keywords.includes('memory'));
  assert.match(pkg.icon, /^media\/.+\.png$/);
  const { width, height } = pngSize(join(root, pkg.icon));
  assert.ok(width >= 128 && height >= 128 && width === height, `icon is ${width}×${height}`);
  assert.match(pkg.repository.url, /^https:\/\//);
  assert.equal(pkg.license, 'MIT');
  assert.ok(existsSync(join(root, 'LICENSE')) && existsSync(join(root, 'CHANGELOG.md')));
  assert.ok(pkg.devDependencies['@vscode/vsce'], '@vscode/vsce is a devDependency');
  assert.equal(pkg.scripts.package, 'node scripts/package.mjs');
});

test('engines.vscode is the version of the API types the code compiles against', () => {
  const engine = pkg.engines.vscode.replace(/^\^/, '');
  assert.equal(pkg.devDependencies['@types/vscode'], engine, `@types/vscode must equal engines.vscode (${FIX})`);
  const installed = JSON.parse(readFileSync(join(root, 'node_modules', '@types', 'vscode', 'package.json'), 'utf8')).version;
  assert.equal(installed, engine, 'node_modules/@types/vscode is not the pinned version (npm ci)');
});

test('activation is narrow: no "*", and (VS Code 1.73 needs it) an onCommand for every command', () => {
  const events = pkg.activationEvents;
  assert.ok(!events.includes('*') && !events.includes('onStartupFinished'), 'activates on start-up');
  for (const cmd of c.commands) assert.ok(events.includes(`onCommand:${cmd.command}`), `no onCommand:${cmd.command} (${FIX})`);
  for (const e of events.filter((x) => x.startsWith('onCommand:'))) {
    assert.ok(c.commands.some((cmd) => `onCommand:${cmd.command}` === e), `${e} names no contributed command (${FIX})`);
  }
  assert.ok(events.includes('onDebugResolve:heaplens'));
  for (const ed of c.customEditors) assert.ok(events.includes(`onCustomEditor:${ed.viewType}`));
});

test('every command has a category; those in menus (other than the palette) have an icon', () => {
  const byId = new Map(c.commands.map((x) => [x.command, x]));
  for (const cmd of c.commands) assert.equal(cmd.category, 'HeapLens', `${cmd.command} has no category`);
  for (const [menu, items] of Object.entries(c.menus ?? {})) {
    if (menu === 'commandPalette') continue;
    for (const item of items) {
      const cmd = byId.get(item.command);
      assert.ok(cmd, `menu ${menu} names ${item.command}, which is not contributed`);
      assert.ok(cmd.icon, `${item.command} appears in ${menu} without an icon`);
    }
  }
});

test('every setting has a description, a default and a scope', () => {
  const sections = Array.isArray(c.configuration) ? c.configuration : [c.configuration];
  let n = 0;
  for (const s of sections) {
    assert.ok(s.title, `configuration section ${s.id} has no title`);
    for (const [key, p] of Object.entries(s.properties)) {
      n++;
      assert.ok(p.description || p.markdownDescription, `${key} has no description`);
      assert.ok('default' in p, `${key} has no default`);
      assert.ok(['application', 'machine', 'machine-overridable', 'window', 'resource', 'language-overridable'].includes(p.scope), `${key} has no scope`);
    }
  }
  assert.ok(n >= 11, `only ${n} settings`);
  const javaHome = sections.flatMap((s) => Object.entries(s.properties)).find(([k]) => k === 'heaplens.javaHome');
  assert.ok(javaHome, 'heaplens.javaHome is not contributed');
  assert.equal(javaHome[1].scope, 'machine-overridable');
});

test('the Getting Started walkthrough: five steps, each with a real picture and a way to complete it', () => {
  const [w] = c.walkthroughs;
  assert.equal(w.id, 'heaplens.gettingStarted');
  assert.deepEqual(w.steps.map((s) => s.id), ['jdk', 'configure', 'flame', 'editor', 'accounts']);
  const commands = new Set(c.commands.map((x) => x.command));
  for (const s of w.steps) {
    const file = join(root, s.media.image);
    assert.ok(existsSync(file), `${s.media.image} is missing (node scripts/walkthrough-media.mjs after npm run test:vscode)`);
    const { width } = pngSize(file);
    assert.ok(width >= 400, `${s.media.image} is ${width} px wide`);
    assert.ok(s.media.altText.length > 20, `step ${s.id} has no alt text`);
    assert.ok(s.completionEvents.length > 0, `step ${s.id} cannot be completed`);
    for (const m of s.description.matchAll(/\(command:([\w.]+)\)/g)) {
      assert.ok(commands.has(m[1]) || /^workbench\./.test(m[1]), `step ${s.id} links to ${m[1]}, which does not exist`);
    }
    assert.ok(!/`/.test(s.description), `step ${s.id}: walkthrough descriptions show backticks literally`);
  }
});

test('the manifest scripts write package.json as it is: no contribution was edited by hand only', () => {
  // run them on a copy (they write the package.json beside their scripts folder), then compare
  const dir = mkdtempSync(join(tmpdir(), 'heaplens-manifest-'));
  try {
    mkdirSync(join(dir, 'scripts', 'manifest'), { recursive: true });
    for (const f of ['lib.mjs', 'clean-env.mjs']) copyFileSync(join(root, 'scripts', f), join(dir, 'scripts', f));
    const scripts = readdirSync(join(root, 'scripts', 'manifest')).filter((f) => f.endsWith('.mjs')).sort();
    assert.deepEqual(scripts, ['editor-contributions.mjs', 'launch-contributions.mjs', 'product.mjs']);
    for (const f of scripts) copyFileSync(join(root, 'scripts', 'manifest', f), join(dir, 'scripts', 'manifest', f));
    const original = readFileSync(join(root, 'package.json'), 'utf8');
    writeFileSync(join(dir, 'package.json'), original);
    for (const f of scripts) {
      const r = spawnSync(process.execPath, [join(dir, 'scripts', 'manifest', f)], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
    }
    assert.equal(readFileSync(join(dir, 'package.json'), 'utf8'), original,
      'package.json differs from what scripts/manifest/*.mjs write: change the script, then run it (editor-contributions, launch-contributions, product)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
