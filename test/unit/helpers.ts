// Builders for small hand-written profiles used by the unit tests.
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { validateProfile } from '../../core/profile/load';
import { MethodEntry, Profile, ProfileFile, SiteEntry, ThreadEntry, TypeEntry } from '../../core/profile/types';
import { FrameTree, VIEW_METRICS } from '../../core/views/frames';
import { PackedTree } from '../../webview/load/tree-pack';

/** The repository root (tests run from out/test/unit, sources live in test/unit). */
export function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || path.basename(dir) === 'out') dir = path.dirname(dir);
  return dir;
}

export function dataFile(name: string): string {
  return path.join(repoRoot(), 'test', 'unit', 'data', name);
}

export interface Tables {
  types?: TypeEntry[];
  methods?: MethodEntry[];
  sites?: SiteEntry[];
  threads?: ThreadEntry[];
}

/** A complete file object around the given tables, with plausible meta/transform/agent sections. */
export function fileOf(t: Tables): ProfileFile {
  return {
    format: 'heaplens-profile',
    version: 1,
    meta: {
      agentVersion: '0.1.0',
      mode: 'exact',
      jvm: { name: 'OpenJDK 64-Bit Server VM', vendor: 'Debian', version: '17.0.15', javaHome: '/usr/lib/jvm/java-17' },
      pid: 4242,
      command: 'com.acme.Main --fast',
      jvmArgs: ['-Xmx1g'],
      startTime: 1_700_000_000_000,
      writeTime: 1_700_000_002_500,
      final: true,
      sequence: 3,
      options: { out: '/tmp/x.heaplens' },
      layout: { objectHeader: 12, arrayHeader: 16, reference: 4, alignment: 8, compressedOops: true, source: 'test' },
    },
    types: t.types ?? [],
    methods: t.methods ?? [],
    sites: t.sites ?? [],
    threads: t.threads ?? [],
    transform: {
      classesTransformed: 5, classesSkipped: 1, classesFailed: 1, retransformed: 40, methodsProfiled: 12, sites: 9,
      failures: [{ class: 'com.acme.Broken', loader: 'app', error: 'java.lang.TypeNotPresentException: x' }],
      warnings: ['skipped com.acme.Future: class file version 99'],
    },
    agent: { threads: 2, nodes: 10, writeMillis: 3, bytesWritten: 2048, collectorCycles: 12 },
  };
}

export function profileOf(t: Tables): Profile {
  return validateProfile(JSON.parse(JSON.stringify(fileOf(t))));
}

export function method(id: number, cls: string, name: string, extra: Partial<MethodEntry> = {}): MethodEntry {
  return { id, class: cls, name, desc: name === '<init>' ? '()V' : '()V', profiled: true, ...extra };
}

export function objType(id: number, name: string, size: number): TypeEntry {
  return { id, name, array: false, size };
}

export function arrType(id: number, name: string, elementCode: TypeEntry['elementCode'], elementSize: number): TypeEntry {
  return { id, name, array: true, size: null, elementSize, elementCode };
}

export function site(id: number, methodId: number, type: number, kind: SiteEntry['kind'] = 'new', line = 10 + id): SiteEntry {
  return { id, method: methodId, bci: id * 3, line, kind, type };
}

/** Every file under `dir` (relative to the repository root) whose name matches `ext`, as root-relative paths. */
export function sourceFiles(dir: string, ext: RegExp): string[] {
  const root = repoRoot();
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(path.join(root, d), { withFileTypes: true })) {
      const p = `${d}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (ext.test(e.name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** A table test: `f(input)` equals `expected` for each `[input, expected]`; a failure names its input. */
export function eachEqual<T, R>(f: (input: T) => R, cases: ReadonlyArray<readonly [T, R]>): void {
  for (const [input, expected] of cases) assert.equal(f(input), expected, `for ${JSON.stringify(input)}`);
}

/** Every array of `b` equal to `a`'s, element for element; with `recordsOf`, each node's records too (a's `recs`). */
export function assertSameFrameTree(a: FrameTree, b: Omit<FrameTree, 'recs'>, recordsOf?: (node: number) => unknown): void {
  assert.equal(b.n, a.n);
  assert.equal(b.maxDepth, a.maxDepth);
  for (const k of ['method', 'parent', 'depth', 'end'] as const) assert.deepEqual([...b[k]], [...a[k]], k);
  assert.deepEqual(b.entryLine && [...b.entryLine], a.entryLine && [...a.entryLine], 'entryLine');
  for (const k of VIEW_METRICS) {
    assert.deepEqual([...b.self[k]], [...a.self[k]], `self.${k}`);
    assert.deepEqual([...b.total[k]], [...a.total[k]], `total.${k}`);
  }
  if (recordsOf) for (let i = 0; i < a.n; i++) assert.deepEqual(recordsOf(i), a.recs[i], `records of node ${i}`);
}

/** Two packed trees (webview/load/tree-pack.ts) are the same array for array, records included. */
export function assertSamePackedTree(a: PackedTree, b: PackedTree, what: string): void {
  assert.equal(a.n, b.n, `${what}: n`);
  assert.equal(a.maxDepth, b.maxDepth, `${what}: maxDepth`);
  for (const k of ['method', 'parent', 'depth', 'end', 'entryLine'] as const) assert.deepEqual([...a[k]!], [...b[k]!], `${what}: ${k}`);
  for (const m of VIEW_METRICS) {
    assert.deepEqual([...a.self[m]], [...b.self[m]], `${what}: self ${m}`);
    assert.deepEqual([...a.total[m]], [...b.total[m]], `${what}: total ${m}`);
  }
  assert.deepEqual([...a.recs!.recStart], [...b.recs!.recStart], `${what}: recStart`);
  assert.deepEqual([...a.recs!.recLen], [...b.recs!.recLen], `${what}: recLen`);
  assert.deepEqual([...a.recs!.recData], [...b.recs!.recData], `${what}: recData`);
}
