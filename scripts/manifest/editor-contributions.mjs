// Writes the editor features' contributions into package.json (idempotent; other keys untouched):
// settings (heaplens.codeLens.*, heaplens.hotLines.*, heaplens.editor.*, heaplens.sourcePaths), commands,
// theme colours for the hot lines, and activation on Java files.
// Usage: node scripts/manifest/editor-contributions.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../lib.mjs';

/** A window-scoped setting that takes one of a few values, each listed with its description. */
const choice = (defaultValue, values, description) => ({
  type: 'string', enum: values.map(([v]) => v), default: defaultValue, scope: 'window',
  enumDescriptions: values.map(([, d]) => d), description,
});

const properties = {
  'heaplens.codeLens.enabled': {
    type: 'boolean', default: true, scope: 'window',
    markdownDescription: 'Show allocation counts above Java methods and constructors (`HeapLens: 12,438 allocations · ~1.2 MiB (14%)`: objects and arrays) for the active profile: the live session\'s, or the saved profile opened last. Also: **HeapLens: Toggle Allocation CodeLens**.',
  },
  'heaplens.codeLens.inclusive': choice('lens', [
    ['lens', 'A second lens with the total including callees.'],
    ['tooltip', 'The total including callees only in the lens\'s tooltip.'],
  ], 'Where the inclusive total (callees included) of a method is shown.'),
  'heaplens.codeLens.methodRanges': choice('auto', [
    ['auto', 'The Java language server\'s document symbols when one answers, else HeapLens\'s own Java parser.'],
    ['languageServer', 'Only the Java language server\'s document symbols (no lenses without one).'],
    ['parser', 'Only HeapLens\'s own Java parser (works without any Java extension).'],
  ], 'Where the method ranges for the allocation CodeLens come from.'),
  'heaplens.hotLines.enabled': {
    type: 'boolean', default: true, scope: 'window',
    markdownDescription: 'Mark the top allocation lines of the active profile: a gutter mark scaled by rank, a background (theme colours `heaplens.hotLine*Background`), an after-line text and a hover with the allocated types and calling contexts. Also: **HeapLens: Toggle Hot Allocation Lines**.',
  },
  'heaplens.hotLines.count': {
    type: 'integer', default: 10, minimum: 1, maximum: 100, scope: 'window',
    description: 'How many of the profile\'s allocation lines are marked.',
  },
  'heaplens.hotLines.metric': choice('count', [
    ['count', 'Allocations: objects and arrays (exact counts).'],
    ['bytes', 'Estimated bytes allocated.'],
  ], 'What ranks the hot allocation lines.'),
  'heaplens.hotLines.scope': choice('application', [
    ['application', 'Lines in classes outside the JDK: your code and its libraries.'],
    ['all', 'Every line, JDK sources included (shown when you open them, e.g. through the Java extension).'],
  ], 'Which allocation lines compete for the hot-line marks.'),
  'heaplens.hotLines.afterText': {
    type: 'boolean', default: true, scope: 'window',
    description: 'Show the allocation summary after a hot line (e.g. "▲ 8,000 × HashMap$Node · ~256 KiB").',
  },
  'heaplens.openProfileWhenRunEnds': {
    type: 'boolean', default: true, scope: 'window',
    description: 'When a "Profile Memory" run ends, open its saved profile in the HeapLens editor.',
  },
  'heaplens.editor.liveUpdateInterval': {
    type: 'integer', default: 1000, minimum: 250, scope: 'window',
    description: 'While a profiling session runs, the CodeLens and hot lines follow its live profile at most this often (milliseconds).',
  },
  'heaplens.sourcePaths': {
    type: 'array', items: { type: 'string' }, default: [], scope: 'resource',
    description: 'Extra source roots (folders holding package directories) for mapping profile frames to files; ${workspaceFolder} is expanded. Java extension source roots, Maven/Gradle layouts and a workspace search are used as well.',
  },
};

const commands = [
  { command: 'heaplens.toggleCodeLens', title: 'Toggle Allocation CodeLens', category: 'HeapLens', icon: '$(eye)' },
  { command: 'heaplens.toggleHotLines', title: 'Toggle Hot Allocation Lines', category: 'HeapLens', icon: '$(flame)' },
  { command: 'heaplens.selectEditorProfile', title: 'Choose the Profile Shown in the Editor…', category: 'HeapLens', icon: '$(list-selection)' },
  { command: 'heaplens.focusMethod', title: 'Show Method in the Flame Tree', category: 'HeapLens' },
  { command: 'heaplens.revealFrame', title: 'Open Source of a Frame', category: 'HeapLens' },
];
const palette = [
  { command: 'heaplens.focusMethod', when: 'false' },
  { command: 'heaplens.revealFrame', when: 'false' },
];

const colors = [
  { id: 'heaplens.hotLineHighBackground', description: 'Background of the hottest allocation lines (top ranks).',
    defaults: { dark: '#ff3d0030', light: '#ff3d0020', highContrast: '#ff3d0040', highContrastLight: '#ff3d0020' } },
  { id: 'heaplens.hotLineMediumBackground', description: 'Background of hot allocation lines of middle rank.',
    defaults: { dark: '#ff8c0022', light: '#ff8c0018', highContrast: '#ff8c0033', highContrastLight: '#ff8c0018' } },
  { id: 'heaplens.hotLineLowBackground', description: 'Background of hot allocation lines of the lowest ranks.',
    defaults: { dark: '#ffc10016', light: '#ffc10012', highContrast: '#ffc10026', highContrastLight: '#ffc10012' } },
  { id: 'heaplens.hotLineAnnotationForeground', description: 'Text after a hot allocation line.',
    defaults: { dark: '#d7875fcc', light: '#a0461acc', highContrast: '#ffa07a', highContrastLight: '#8a3a12' } },
  { id: 'heaplens.hotLineRulerForeground', description: 'Hot allocation lines in the overview ruler.',
    defaults: { dark: '#ff6a00aa', light: '#e05a00aa', highContrast: '#ff6a00', highContrastLight: '#e05a00' } },
];

const file = join(root, 'package.json');
const pkg = JSON.parse(readFileSync(file, 'utf8'));
pkg.activationEvents = [...new Set([...(pkg.activationEvents ?? []), 'onLanguage:java', ...commands.map((c) => `onCommand:${c.command}`)])];
pkg.contributes ??= {};
const conf = Array.isArray(pkg.contributes.configuration) ? pkg.contributes.configuration
  : pkg.contributes.configuration ? [pkg.contributes.configuration] : [];
const others = conf.filter((c) => c.id !== 'heaplens.editor');
pkg.contributes.configuration = [...others, { id: 'heaplens.editor', title: 'HeapLens: Editor', order: 20, properties }];
const upsert = (list, items, key) => {
  const mine = new Map(items.map((i) => [i[key], i]));
  const out = (list ?? []).map((e) => mine.get(e[key]) ?? e);
  const have = new Set(out.map((e) => e[key]));
  return [...out, ...items.filter((i) => !have.has(i[key]))];
};
pkg.contributes.commands = upsert(pkg.contributes.commands, commands, 'command');
pkg.contributes.colors = upsert(pkg.contributes.colors, colors, 'id');
pkg.contributes.menus ??= {};
pkg.contributes.menus.commandPalette = upsert(pkg.contributes.menus.commandPalette, palette, 'command');
writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
