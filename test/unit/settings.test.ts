// The settings table (extension/settings-table.ts) against package.json: the same keys, the same defaults.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { sourceFiles } from './helpers';
import { SETTINGS } from '../../extension/settings-table';

const root = path.resolve(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

function contributed(): Record<string, { default?: unknown }> {
  const c = manifest.contributes.configuration;
  const out: Record<string, { default?: unknown }> = {};
  for (const part of Array.isArray(c) ? c : [c]) Object.assign(out, part.properties);
  return out;
}

test('the table has every contributed setting with the manifest\'s default, and no other', () => {
  const props = contributed();
  const keys = Object.keys(props).map((k) => k.replace(/^heaplens\./, '')).sort();
  assert.deepEqual(Object.keys(SETTINGS).sort(), keys);
  for (const k of keys) assert.deepEqual((SETTINGS as Record<string, unknown>)[k], props[`heaplens.${k}`].default, k);
});

test('no extension source reads a heaplens setting by name, outside extension/settings.ts', () => {
  const bad: string[] = [];
  for (const p of sourceFiles('extension', /\.ts$/)) {
    if (p === 'extension/settings.ts') continue;
    const text = fs.readFileSync(path.join(root, p), 'utf8');
    for (const m of text.matchAll(/getConfiguration\('heaplens'[^)]*\)\s*\.(get|inspect)\b/g)) bad.push(`${p}: ${m[0]}`);
  }
  assert.deepEqual(bad, []);
});
