// Writes the `heaplens` debug type's contributions into package.json (idempotent; other keys untouched).
// Usage: node scripts/manifest/launch-contributions.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../lib.mjs';

const str = (description, extra = {}) => ({ type: 'string', description, ...extra });
const strList = (description) => ({ type: 'array', items: { type: 'string' }, description });
const common = {
  include: { type: ['array', 'string'], items: { type: 'string' }, description: 'Package patterns that get call-tree probes (com.acme matches that package, com.acme.* also its sub-packages). Default: everything outside the JDK.' },
  exclude: { type: ['array', 'string'], items: { type: 'string' }, description: 'Package patterns that get no call-tree probes even when included.' },
  mode: str('Profiling mode (switchable while the program runs: "HeapLens: Switch Profiling Mode"). Costs measured by the benchmark: docs/modes.md.', {
    enum: ['exact', 'sites', 'sampled', 'paused', 'accounts', 'lifetime'], default: 'exact',
    enumDescriptions: [
      'Per-thread method call trees with every allocation counted exactly (the most detail, the highest overhead).',
      'Every allocation counted exactly per allocation site and thread, no call tree; calling traces for a sample of each site\'s allocations.',
      'Low overhead, for everyday use: HotSpot\'s heap sampler picks an allocation every ~64 KiB on average (randomised), with its calling trace; no class is instrumented; counts are ESTIMATES, each type\'s with its interval.',
      'Nothing recorded and no probes at all (the classes run their original code) until you switch to another mode.',
      'Memory accounts only (no call trees): allocations and live objects per account and class; needs "accounts"; chosen at launch.',
      'Object lifetimes (launch only; cannot be switched or paused): lag, drag and void space of a sample of objects (docs/lifetimes.md).',
    ],
  }),
  sampler: str('Where the sampled mode\'s samples come from (docs/modes.md).', {
    enum: ['jvmti', 'probes', 'jfr'], default: 'jvmti',
    enumDescriptions: [
      'HotSpot\'s own heap sampler (JEP 331) through the agent\'s native library: no bytecode probes, each allocation sampled at random with a chance set by its size, so per-type estimates are unbiased with stated intervals. Falls back to probes where the library cannot load.',
      'The agent\'s allocation probes: every allocation holds a chance of a sample by its bytes; unbiased estimates per type, but the instrumented code costs CPU.',
      'HotSpot\'s JFR TLAB events: no bytecode probes; per-type estimates biased where the allocation order follows TLAB boundaries.',
    ],
  }),
  threads: { type: 'boolean', default: false, description: 'Also sample CPU per thread (only threads that used CPU), record monitor contention and detect deadlocks (a notification names the threads and locks). See docs/threads.md.' },
  accounts: {
    type: ['array', 'string'], items: { type: 'string' },
    description: 'Memory accounts (docs/accounts.md): package patterns, a.b for that package only, a.b.* with its sub-packages. Allocations are charged to the innermost accounted method on the stack. Without "mode", the accounts mode is used.',
  },
  liveness: str('Accounts mode: how live objects are tracked (weak references, refunded when the GC reclaims them): auto tracks every object for the first 100,000, then one in 32.', {
    enum: ['auto', 'sampled', 'exact', 'off'], default: 'auto',
    enumDescriptions: ['Every object for the first 100,000, then one in 32 on average, scaled up.', 'One object in 32 on average, scaled up (labelled "sampled").', 'Every object (costly).', 'Allocations only.'],
  }),
  snapshotInterval: { type: 'number', default: 5000, description: 'Accounts: milliseconds between periodic snapshots (0: only on request and at shutdown).' },
  sampleEvery: { type: 'integer', minimum: 1, default: 1, description: 'Lifetime mode: track every Nth object (1: every object, for small programs; larger programs: 50 or more).' },
  profile: str('Where to save the profile: a .heaplens file or a folder. Default: the workspace\'s .heaplens folder.'),
  javaHome: str('A JDK (17 or newer) to run: its bin/java and bin/jcmd are used. Default: the heaplens.javaHome setting, the Java extension\'s project JDK, JAVA_HOME, or java on PATH.'),
};
// only a launch sets the stack size or compiles the project first
const { profile, javaHome, ...modeOptions } = common;
const launch = {
  required: [],
  properties: {
    mainClass: str('The class with the main method (com.acme.Main), a .jar file, or ${file} to run the current single-file program. With the Java extension installed it is found for you when left out.'),
    jar: str('A jar to run with java -jar (it must name its Main-Class).'),
    projectName: str('The Java project of the main class (used with the Java extension).'),
    classPaths: strList('Class path entries (folders and jars). With the Java extension, "$Auto" (or leaving it out) uses the project\'s class path.'),
    modulePaths: strList('Module path entries.'),
    vmArgs: { type: ['array', 'string'], items: { type: 'string' }, description: 'Extra JVM options, e.g. "-Xmx1g".' },
    args: { type: ['array', 'string'], items: { type: 'string' }, description: 'Arguments passed to the program.' },
    cwd: str('Working directory of the program.', { default: '${workspaceFolder}' }),
    env: { type: 'object', additionalProperties: { type: ['string', 'null'] }, description: 'Environment variables added to the program\'s (null removes one).' },
    envFile: str('A file of KEY=VALUE lines added to the environment.'),
    heapDumpAtExit: str('Write a heap dump (live objects, .hprof) to this file when the program ends; "Why is it still alive?" on a leak suspect then shows the paths from GC roots in it (docs/heap.md).'),
    javaExec: str('The java executable to run (overrides javaHome).'),
    console: str('Where the program\'s output goes.', {
      enum: ['internalConsole', 'integratedTerminal', 'externalTerminal'], default: 'internalConsole',
      enumDescriptions: ['The Debug Console (stdout and stderr told apart).', 'VS Code\'s integrated terminal.', 'An external terminal window.'],
    }),
    ...modeOptions,
    stackScale: { type: 'integer', minimum: 1, maximum: 64, default: 12, description: 'Thread stacks of the profiled program are this many times larger (-Xss), so that recursion as deep as without the profiler still fits: the probes make compiled frames bigger. Stacks are reserved, not committed. 1: the program\'s own stack size.' },
    profile,
    javaHome,
    compileBeforeLaunch: { type: 'boolean', description: 'Maven or Gradle project without "classPaths": compile the module first when its classes are older than its sources (default: the heaplens.project.compileBeforeLaunch setting).' },
  },
};
const attach = {
  required: ['processId'],
  properties: {
    processId: { type: ['string', 'number'], description: 'The process id of a local JVM (17 or newer); "${command:heaplens.pickJavaProcess}" shows a picker.', default: '${command:heaplens.pickJavaProcess}' },
    ...common,
  },
};
const snippet = (label, description, body) => ({ label: `HeapLens: ${label}`, description, body: { type: 'heaplens', ...body } });
const debuggers = [{
  type: 'heaplens',
  label: 'HeapLens',
  languages: ['java'],
  configurationAttributes: { launch, attach },
  // no initialConfigurations: VS Code would add them to the provider's one configuration (extension/launch/new-config.ts)
  configurationSnippets: [
    snippet('Profile Memory (main class)', 'Run a main class under the HeapLens memory profiler.',
      { request: 'launch', name: 'Profile Memory: ${1:Main}', mainClass: '^"${2:com.example.Main}"', classPaths: ['^"\\${workspaceFolder}/${3|target/classes,build/classes/java/main,build/classes|}"'] }),
    snippet('Profile Memory (jar)', 'Run an executable jar under the HeapLens memory profiler.',
      { request: 'launch', name: 'Profile Memory (jar)', jar: '^"\\${workspaceFolder}/${1:app.jar}"' }),
    snippet('Profile Memory (current file)', 'Run the current single-file Java program under the HeapLens memory profiler.',
      { request: 'launch', name: 'Profile Memory: Current File', mainClass: '^"\\${file}"' }),
    snippet('Profile Memory (low overhead)', 'For everyday use: sample allocations (estimates with their intervals, about 1.05× CPU) instead of counting every one (exact, about 2×).',
      { request: 'launch', name: 'Profile Memory (sampled)', mainClass: '^"${1:com.example.Main}"', mode: 'sampled' }),
    snippet('Profile Memory (attach)', 'Load the HeapLens agent into a running local JVM.',
      { request: 'attach', name: 'Profile Memory: Attach', processId: '^"\\${command:heaplens.pickJavaProcess}"' }),
  ],
}];

const commands = [
  ['heaplens.pauseProfiling', 'Pause Profiling', '$(debug-pause)'],
  ['heaplens.resumeProfiling', 'Resume Profiling', '$(debug-continue)'],
  ['heaplens.switchMode', 'Switch Profiling Mode…', '$(settings-gear)'],
  ['heaplens.takeSnapshot', 'Take Snapshot', '$(device-camera)'],
  ['heaplens.forceGc', 'Force GC', '$(trash)'],
  ['heaplens.resetProfiling', 'Reset Profiling Counters', '$(clear-all)'],
  ['heaplens.openProfile', 'Open Profile…', '$(folder-opened)'],
  ['heaplens.profileJavaConfiguration', 'Profile Memory (Java Launch Configuration)…', '$(play)'],
  ['heaplens.pickJavaProcess', 'Pick a Java Process', undefined],
  ['heaplens.takeHeapDump', 'Take Heap Dump', '$(database)'],
  ['heaplens.openHeapDump', 'Open Heap Dump…', '$(folder-opened)'],
  ['heaplens.sessionActions', 'Profiling Session…', '$(pulse)'],
  ['heaplens.showRetention', 'Why Is It Still Alive? (Paths from GC Roots)…', '$(references)'],
].map(([command, title, icon]) => ({ command, title, category: 'HeapLens', ...(icon ? { icon } : {}) }));

const palette = [
  { command: 'heaplens.pauseProfiling', when: 'heaplens.profiling && !heaplens.paused' },
  { command: 'heaplens.resumeProfiling', when: 'heaplens.profiling && heaplens.paused' },
  { command: 'heaplens.switchMode', when: 'heaplens.profiling' },
  { command: 'heaplens.takeSnapshot', when: 'heaplens.profiling' },
  { command: 'heaplens.forceGc', when: 'heaplens.profiling' },
  { command: 'heaplens.resetProfiling', when: 'heaplens.profiling' },
  { command: 'heaplens.pickJavaProcess', when: 'false' },
  { command: 'heaplens.takeHeapDump', when: 'heaplens.profiling' },
  { command: 'heaplens.sessionActions', when: 'heaplens.profiling' },
];
// Pause/resume stay in the status bar item (the toolbar already has VS Code's own Pause, which the adapter
// maps to "pause profiling"): the toolbar only gets the snapshot camera.
const toolbar = [
  { command: 'heaplens.takeSnapshot', when: 'debugType == heaplens', group: 'navigation@11' },
];

const events = ['onDebugResolve:heaplens', 'onDebugDynamicConfigurations:heaplens',
  ...commands.map((c) => `onCommand:${c.command}`)];

const file = join(root, 'package.json');
const pkg = JSON.parse(readFileSync(file, 'utf8'));
pkg.activationEvents = [...new Set([...(pkg.activationEvents ?? []), ...events])];
pkg.contributes ??= {};
pkg.contributes.debuggers = [...(pkg.contributes.debuggers ?? []).filter((d) => d.type !== 'heaplens'), ...debuggers];
const ids = new Set(commands.map((c) => c.command));
/** Other features' entries keep their places; ours replace theirs in place or are appended. */
const upsert = (list, items) => {
  const mine = new Map(items.map((i) => [i.command, i]));
  const out = (list ?? []).flatMap((e) => (ids.has(e.command) ? (mine.has(e.command) ? [mine.get(e.command)] : []) : [e]));
  const have = new Set(out.map((e) => e.command));
  return [...out, ...items.filter((i) => !have.has(i.command))];
};
pkg.contributes.commands = upsert(pkg.contributes.commands, commands);
pkg.contributes.menus ??= {};
const merge = (key, items) => {
  pkg.contributes.menus[key] = upsert(pkg.contributes.menus[key], items);
};
merge('commandPalette', palette);
merge('debug/toolBar', toolbar);
pkg.capabilities ??= {};
pkg.capabilities.untrustedWorkspaces = {
  supported: 'limited',
  description: 'Profiling runs the program of the workspace: launching is refused in Restricted Mode. Opening saved profiles works.',
};
writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
console.log('package.json: heaplens debug type contributions written');
