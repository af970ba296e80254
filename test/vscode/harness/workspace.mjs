// A throwaway copy of samples/ as the test workspace: classes compiled, launch.json from the sample's
// plus a configuration with a wrong main class.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../../../scripts/lib.mjs';

export function prepareWorkspace(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(root, 'samples', 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(root, 'samples', '.vscode'), join(dir, '.vscode'), { recursive: true });
  // the lifetimes fixture (issue 9): objects whose lifetime category is known
  mkdirSync(join(dir, 'src', 'lifetimes'), { recursive: true });
  cpSync(join(root, 'test', 'fixtures', 'java', 'lifetimes', 'Main.java'), join(dir, 'src', 'lifetimes', 'Main.java'));
  const javac = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'javac') : 'javac';
  const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  execFileSync(javac, ['--release', '17', '-d', join(dir, 'build', 'classes'),
    join(dir, 'src/demo/WordIndex.java'), join(dir, 'src/demo/LiveDemo.java'), join(dir, 'src/lifetimes/Main.java')], { stdio: 'inherit' });
  // a JFR recording of WordIndex (the JFR scenario opens it in the HeapLens editor)
  execFileSync(java, [`-XX:StartFlightRecording=settings=profile,filename=${join(dir, 'wordindex.jfr')}`, '-cp', join(dir, 'build', 'classes'),
    'demo.WordIndex'], { stdio: ['ignore', 'ignore', 'inherit'] });
  // the static-map fixture (test/fixtures/java/staticmap) and a dump of its heap, for the Heap view
  execFileSync(javac, ['--release', '17', '-d', join(dir, 'build', 'staticmap'), join(root, 'test/fixtures/java/staticmap/Main.java')], { stdio: 'inherit' });
  execFileSync(java, ['-cp', join(dir, 'build', 'staticmap'), 'staticmap.Main', 'dump', join(dir, 'staticmap.hprof')], { stdio: 'inherit' });
  // the memory-accounts fixture server (issue 8), compiled into its own folder
  const serverSrc = join(root, 'test', 'fixtures', 'java', 'server');
  const serverFiles = ['Main', 'http/Server', 'http/Request', 'http/Scratch', 'xml/Parser', 'xml/Element', 'cache/Cache', 'cache/Entry']
    .map((f) => join(serverSrc, 'srv', `${f}.java`));
  execFileSync(javac, ['--release', '17', '-g', '-d', join(dir, 'build', 'server-classes'), ...serverFiles], { stdio: 'inherit' });
  const file = join(dir, '.vscode', 'launch.json');
  const launch = JSON.parse(readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, ''));
  launch.configurations.push({
    type: 'heaplens', request: 'launch', name: 'Profile Memory: wrong main class', mainClass: 'demo.Nope',
    classPaths: ['${workspaceFolder}/build/classes'],
  });
  launch.configurations.push({
    type: 'heaplens', request: 'launch', name: 'Profile Memory: lifetimes', mainClass: 'lifetimes.Main',
    classPaths: ['${workspaceFolder}/build/classes'], mode: 'lifetime', sampleEvery: 1,
  });
  // a Java debugger configuration, for "HeapLens: Profile Memory (Java Launch Configuration)…"
  launch.configurations.push({
    type: 'java', request: 'launch', name: 'Run LiveDemo (java)', mainClass: 'demo.LiveDemo',
    classPaths: ['${workspaceFolder}/build/classes'], args: ['2'],
  });
  launch.configurations.push({
    type: 'heaplens', request: 'launch', name: 'Profile Memory: static map', mainClass: 'staticmap.Main',
    classPaths: ['${workspaceFolder}/build/staticmap'], args: ['sleep', '60000'], include: ['staticmap.*'],
  });
  launch.configurations.push({
    type: 'heaplens', request: 'launch', name: 'Profile Memory: server accounts', mainClass: 'srv.Main',
    classPaths: ['${workspaceFolder}/build/server-classes'], vmArgs: '-Dsrv.pause=700',
    accounts: ['srv.http.*', 'srv.cache'], liveness: 'exact', snapshotInterval: 250,
    heapDumpAtExit: '${workspaceFolder}/.heaplens/server-at-exit.hprof',
  });
  // the run-to-profile loop (ui-loop.mjs): a ~20 s run for the live flame tree, a 12 s one for a snapshot, F5 on a file
  launch.configurations.push({
    type: 'heaplens', request: 'launch', name: 'Profile Memory: LiveDemo 20 s', mainClass: 'demo.LiveDemo',
    classPaths: ['${workspaceFolder}/build/classes'], args: ['20'], include: ['demo.*'],
  });
  launch.configurations.push({
    type: 'heaplens', request: 'launch', name: 'Profile Memory: LiveDemo 12 s', mainClass: 'demo.LiveDemo',
    classPaths: ['${workspaceFolder}/build/classes'], args: ['12'], include: ['demo.*'],
  });
  launch.configurations.push({ type: 'heaplens', request: 'launch', name: 'Profile Memory: current file', mainClass: '${file}' });
  writeFileSync(file, JSON.stringify(launch, null, 2));
  return dir;
}
