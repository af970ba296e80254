// Writes the product side of package.json (idempotent; other keys untouched): Marketplace fields, icon,
// engines, activation events (one per contributed command: engines allow VS Code 1.73, which does not derive
// them itself), the JDK setting and commands, the Getting Started walkthrough, `npm run package`.
// Run it last after merging other manifest scripts' changes: node scripts/manifest/product.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../lib.mjs';

/** The oldest VS Code the code compiles against (@types/vscode) and runs on (Node 16.14 extension host). */
export const ENGINE = '1.73.0';

const fields = {
  displayName: 'HeapLens — Java Memory Profiler',
  description: 'Exact allocation profiling for Java in VS Code: per-thread call trees with object and array counts, allocation sites, CodeLens and hot lines in your code.',
  categories: ['Debuggers', 'Visualization'],
  keywords: ['java', 'memory', 'profiler', 'allocation', 'heap', 'jvm', 'flame graph', 'garbage collection', 'performance', 'leak'],
  icon: 'media/icon.png',
  galleryBanner: { color: '#1b2430', theme: 'dark' },
  repository: { type: 'git', url: 'https://github.com/heaplens/heaplens.git' },
  bugs: { url: 'https://github.com/heaplens/heaplens/issues' },
  homepage: 'https://github.com/heaplens/heaplens#readme',
  license: 'MIT',
  qna: false,
};

const commands = [
  { command: 'heaplens.checkJava', title: 'Check the Java Runtime', category: 'HeapLens', icon: '$(check)' },
  { command: 'heaplens.chooseJdk', title: 'Choose a JDK…', category: 'HeapLens', icon: '$(folder-opened)' },
];

const javaSettings = {
  id: 'heaplens.java',
  title: 'HeapLens: Java',
  order: 10,
  properties: {
    'heaplens.javaHome': {
      type: 'string',
      default: '',
      scope: 'machine-overridable',
      markdownDescription: 'The JDK (17 or newer) that runs profiled programs: the folder holding `bin/java`, e.g. `/usr/lib/jvm/temurin-21-jdk-amd64`. Used by launch configurations without `javaHome`/`javaExec`; empty: the Java extension\'s project JDK, then `JAVA_HOME`, then `java` on `PATH`. **HeapLens: Choose a JDK…** sets it; **HeapLens: Check the Java Runtime** says what a launch would run.',
    },
  },
};

const step = (id, title, description, image, altText, completionEvents) => ({
  id, title, description, media: { image: `media/walkthrough/${image}`, altText }, completionEvents,
});
const walkthrough = {
  id: 'heaplens.gettingStarted',
  title: 'Get Started with HeapLens',
  description: 'Find out where your Java program\'s memory goes — which call paths allocate which objects and arrays — in five minutes.',
  featuredFor: ['**/*.java', 'pom.xml', 'build.gradle', 'build.gradle.kts'],
  steps: [
    step('jdk', 'A JDK 17 or newer',
      'HeapLens starts your program on a JDK 17 or newer with its agent. It uses the launch configuration\'s javaHome, the **heaplens.javaHome** setting, the Java extension\'s project JDK, JAVA_HOME or java on PATH, in that order; a missing or older Java is reported before anything runs.\n[Check the Java Runtime](command:heaplens.checkJava)\n[Choose a JDK…](command:heaplens.chooseJdk)',
      'jdk.png', 'The message of "HeapLens: Check the Java Runtime": the Java version and where it was found.',
      ['onCommand:heaplens.checkJava', 'onCommand:heaplens.chooseJdk', 'onSettingChanged:heaplens.javaHome']),
    step('configure', 'Add a Profile Memory configuration',
      'In .vscode/launch.json, add a **HeapLens: Profile Memory** configuration (type heaplens): a main class and its class path, a jar, the current file, or attach to a running JVM. The fields are the Java debugger\'s (mainClass, classPaths, vmArgs, args, env, …) plus mode, include and exclude. Then start it from Run and Debug (F5): the program\'s output goes to the Debug Console and the status bar counts objects live.\n[Open launch.json](command:workbench.action.debug.configure)\n[Start Profiling](command:workbench.action.debug.start)',
      'configure.png', 'A Profile Memory session: the program\'s output in the Debug Console and the live object count in the status bar.',
      ['onCommand:workbench.action.debug.configure', 'onCommand:workbench.action.debug.start']),
    step('flame', 'Read the flame tree',
      'When the session ends the profile is saved in .heaplens/ and opens in the HeapLens editor. Each box of the flame tree is a method in its calling context; its width is what it and its callees allocated. Click to zoom, search by name, switch threads, invert it to start from the allocating methods, and use the Sites and Arrays tabs for line-level counts and array statistics.\n[Open a Profile…](command:heaplens.openProfile)',
      'flame.png', 'The HeapLens profile editor: the flame tree of the sample program, with the summary of the heaviest frames.',
      ['onCommand:heaplens.openProfile', 'onCommand:heaplens.showProfile']),
    step('editor', 'CodeLens and hot lines',
      'Open a Java file: above every method that allocated, a CodeLens gives its objects, arrays and estimated bytes (callees included in a second lens), and the hottest allocation lines are marked in the gutter with the allocated types on hover. They follow the live session while it runs, and the profile opened last afterwards.\n[Toggle Allocation CodeLens](command:heaplens.toggleCodeLens)\n[Toggle Hot Allocation Lines](command:heaplens.toggleHotLines)',
      'editor.png', 'A Java file with HeapLens CodeLens above its methods and marked hot allocation lines.',
      ['onCommand:heaplens.toggleCodeLens', 'onCommand:heaplens.toggleHotLines', 'onCommand:heaplens.selectEditorProfile']),
    step('accounts', 'Accounts and lifetimes',
      'Two more questions have their own modes. **Memory accounts** ("accounts": ["com.acme.cache.*", …]) charge every allocation to the module that caused it and follow live memory per module across snapshots, to find the one that grows. **Lifetimes** ("mode": "lifetime") sample objects and measure lag, drag and void — memory allocated too early, kept too long, or never used. The Accounts view shows live bytes per account over time and the leak suspects; "Why is it still alive?" opens the paths from GC roots in a heap dump.\n[Open the Profile Memory fields](command:workbench.action.debug.configure)',
      'accounts.png', 'The Accounts view of the fixture server: live bytes per account over the snapshots, and the leaking account srv.cache on top of the leak suspects.',
      ['onCommand:heaplens.showProfile']),
  ],
};

const file = join(root, 'package.json');
const pkg = JSON.parse(readFileSync(file, 'utf8'));
Object.assign(pkg, fields);
pkg.engines = { ...(pkg.engines ?? {}), vscode: `^${ENGINE}` };
pkg.devDependencies = { ...(pkg.devDependencies ?? {}), '@types/vscode': ENGINE };
pkg.scripts = { ...(pkg.scripts ?? {}), package: 'node scripts/package.mjs' };
pkg.contributes ??= {};

const upsert = (list, items, key) => {
  const mine = new Map(items.map((i) => [i[key], i]));
  const out = (list ?? []).map((e) => mine.get(e[key]) ?? e);
  const have = new Set(out.map((e) => e[key]));
  return [...out, ...items.filter((i) => !have.has(i[key]))];
};
pkg.contributes.commands = upsert(pkg.contributes.commands, commands, 'command')
  .map((c) => ({ ...c, category: c.category ?? 'HeapLens' }));
const conf = Array.isArray(pkg.contributes.configuration) ? pkg.contributes.configuration
  : pkg.contributes.configuration ? [pkg.contributes.configuration] : [];
pkg.contributes.configuration = upsert(conf, [javaSettings], 'id').sort((a, b) => (a.order ?? 99) - (b.order ?? 99));
pkg.contributes.walkthroughs = upsert(pkg.contributes.walkthroughs, [walkthrough], 'id');

// Activation: the debug type, Java files, budget files, the profile editor, and every contributed command
// (VS Code 1.73 needs onCommand listed; 1.74+ would derive it). Never "*".
const commandIds = new Set(pkg.contributes.commands.map((c) => c.command));
const kept = (pkg.activationEvents ?? []).filter((e) => e !== '*' && !(e.startsWith('onCommand:') && !commandIds.has(e.slice(10))));
const editors = (pkg.contributes.customEditors ?? []).map((e) => `onCustomEditor:${e.viewType}`);
pkg.activationEvents = [...new Set([...kept, ...editors, ...[...commandIds].map((c) => `onCommand:${c}`)])];

writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
console.log('package.json: product fields, walkthrough, heaplens.javaHome, activation events');
