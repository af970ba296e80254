// The command table (extension/commands.ts) against the manifest and the code: one name for each command.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { sourceFiles } from './helpers';
import { COMMANDS } from '../../extension/commands';

const root = path.resolve(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const table = new Set<string>(Object.values(COMMANDS));

test('every command package.json contributes is in the table, and every id in the table is contributed', () => {
  const contributed = new Set<string>(manifest.contributes.commands.map((c: { command: string }) => c.command));
  assert.deepEqual([...contributed].filter((c) => !table.has(c)), []);
  assert.deepEqual([...table].filter((c) => !contributed.has(c)), []);
});

test('every command the manifest refers to (menus, keybindings, walkthrough links) is in the table', () => {
  const text = JSON.stringify(manifest.contributes);
  const used = new Set([...text.matchAll(/(?:"command":"|command:)(heaplens\.\w+)/g)].map((m) => m[1]));
  assert.ok(used.size >= table.size / 2, `the manifest uses ${used.size} commands`);
  assert.deepEqual([...used].filter((c) => !table.has(c)), []);
});

test('no extension source registers or runs a heaplens command by a literal id', () => {
  const bad: string[] = [];
  for (const p of sourceFiles('extension', /\.ts$/)) {
    if (p === 'extension/commands.ts') continue;
    const text = fs.readFileSync(path.join(root, p), 'utf8');
    for (const m of text.matchAll(/(?:registerCommand|executeCommand)\(\s*'(heaplens\.\w+)'/g)) bad.push(`${p}: ${m[1]}`);
  }
  assert.deepEqual(bad, []);
});
