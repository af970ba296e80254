// Parses and strictly validates a `.heaplens` profile (docs/format.md), building id → entry maps.
// No file system access: the webview bundle uses it too (load.ts reads files).
import {
  AllocRecord, ELEMENT_CODES, MethodEntry, Profile, ProfileFile, PROFILE_FORMAT,
  PROFILE_VERSION, SiteEntry, ThreadEntry, TypeEntry,
} from './types';
import { expandVersion2 } from './version2';

/** Raised for any file that is not a valid profile this build can read. */
export class ProfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProfileError';
  }
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
/**
 * A count or id: a whole number from 0 to 2^53−1. Larger values (2^62, 1e300) cannot be exact in a double and no
 * run allocates that many: they mean a corrupted or forged file, never data to print.
 */
export function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}
function fail(message: string): never {
  throw new ProfileError(message);
}
function describe(v: unknown): string {
  return v === undefined ? 'missing' : JSON.stringify(v);
}

/** Parses and validates the JSON text of a profile. */
export function parseProfile(text: string): Profile {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    fail(`not a HeapLens profile: the file is truncated or corrupted (invalid JSON: ${(e as Error).message})`);
  }
  return validateProfile(doc);
}

/** Validates an already parsed document. */
export function validateProfile(doc: unknown): Profile {
  if (!isObj(doc)) fail('not a HeapLens profile: the top level is not a JSON object');
  if (doc.format !== PROFILE_FORMAT) {
    fail(`not a HeapLens profile: "format" is ${describe(doc.format)}, expected "${PROFILE_FORMAT}"`);
  }
  const version = doc.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    fail(`invalid profile: "version" is ${describe(version)}, expected a positive integer`);
  }
  if (version > PROFILE_VERSION) {
    fail(`written by a newer HeapLens (format version ${version}); this build reads version ${PROFILE_VERSION}`);
  }
  const fileVersion = expandVersion2(doc) as number;
  for (const key of ['meta', 'transform', 'agent']) {
    if (!isObj(doc[key])) fail(`invalid profile: missing "${key}" object`);
  }
  for (const key of ['types', 'methods', 'sites', 'threads']) {
    if (!Array.isArray(doc[key])) fail(`invalid profile: missing "${key}" table`);
  }
  checkMeta(doc.meta as Obj);
  checkTransform(doc.transform as Obj);
  const file = doc as unknown as ProfileFile;
  const types = indexTable<TypeEntry>(file.types, 'types', checkType);
  const methods = indexTable<MethodEntry>(file.methods, 'methods', checkMethod);
  const sites = indexTable<SiteEntry>(file.sites, 'sites', checkSite);
  for (const m of methods.values()) {
    if (m.ctorTarget !== undefined && !methods.has(m.ctorTarget)) {
      fail(`dangling id: method ${m.id} (${m.class}.${m.name}) has ctorTarget ${m.ctorTarget}, which is not in "methods"`);
    }
  }
  for (const s of sites.values()) {
    if (!methods.has(s.method)) fail(`dangling id: site ${s.id} names method ${s.method}, which is not in "methods"`);
    if (!types.has(s.type)) fail(`dangling id: site ${s.id} names type ${s.type}, which is not in "types"`);
  }
  const threadIds = new Set<number>();
  for (const t of file.threads as unknown[]) {
    checkThread(t);
    if (threadIds.has(t.id)) fail(`invalid profile: duplicate thread id ${t.id}`);
    threadIds.add(t.id);
    for (const tree of TREES) {
      const node = (t as unknown as Obj)[tree];
      if (node !== undefined) checkTree(t, node, tree, methods, types, sites);
    }
  }
  return { file, types, methods, sites, threads: file.threads, fileVersion };
}

function checkMeta(meta: Obj): void {
  if (typeof meta.mode !== 'string') fail(`invalid profile: meta.mode is ${describe(meta.mode)}`);
  for (const key of ['startTime', 'writeTime']) {
    if (typeof meta[key] !== 'number') fail(`invalid profile: meta.${key} is ${describe(meta[key])}`);
  }
  if (typeof meta.final !== 'boolean') fail(`invalid profile: meta.final is ${describe(meta.final)}`);
  if (meta.jvm !== undefined && !isObj(meta.jvm)) fail('invalid profile: meta.jvm is not an object');
}

function checkTransform(t: Obj): void {
  if (!Array.isArray(t.failures)) fail('invalid profile: transform.failures is not an array');
  if (!Array.isArray(t.warnings)) fail('invalid profile: transform.warnings is not an array');
}

function indexTable<T extends { id: number }>(
  rows: unknown[], table: string, check: (row: Obj, where: string) => void,
): Map<number, T> {
  const map = new Map<number, T>();
  rows.forEach((row, i) => {
    const where = `${table}[${i}]`;
    if (!isObj(row)) fail(`invalid profile: ${where} is not an object`);
    if (!isCount(row.id)) fail(`invalid profile: ${where}.id is ${describe(row.id)}`);
    if (map.has(row.id)) fail(`invalid profile: duplicate id ${row.id} in "${table}"`);
    check(row, where);
    map.set(row.id, row as unknown as T);
  });
  return map;
}

function needString(row: Obj, key: string, where: string): void {
  if (typeof row[key] !== 'string') fail(`invalid profile: ${where}.${key} is ${describe(row[key])}`);
}

function checkType(row: Obj, where: string): void {
  needString(row, 'name', where);
  if (typeof row.array !== 'boolean') fail(`invalid profile: ${where}.array is ${describe(row.array)}`);
  if (row.array) {
    const code = row.elementCode;
    if (typeof code !== 'string' || !(ELEMENT_CODES as readonly string[]).includes(code)) {
      fail(`invalid profile: ${where} (${String(row.name)}) has elementCode ${describe(code)}, expected one of ${ELEMENT_CODES.join(' ')}`);
    }
  }
}

function checkMethod(row: Obj, where: string): void {
  for (const key of ['class', 'name', 'desc']) needString(row, key, where);
  if (typeof row.profiled !== 'boolean') fail(`invalid profile: ${where}.profiled is ${describe(row.profiled)}`);
  if (row.ctorTarget !== undefined && !isCount(row.ctorTarget)) {
    fail(`invalid profile: ${where}.ctorTarget is ${describe(row.ctorTarget)}`);
  }
}

function checkSite(row: Obj, where: string): void {
  needString(row, 'kind', where);
  for (const key of ['method', 'type', 'bci']) {
    if (!isCount(row[key])) fail(`invalid profile: ${where}.${key} is ${describe(row[key])}`);
  }
}

function checkThread(t: unknown): asserts t is ThreadEntry {
  if (!isObj(t)) fail('invalid profile: a thread entry is not an object');
  if (!isCount(t.id)) fail(`invalid profile: thread id is ${describe(t.id)}`);
  if (typeof t.name !== 'string') fail(`invalid profile: thread ${t.id} has name ${describe(t.name)}`);
  if (!isObj(t.root)) fail(`invalid profile: thread ${t.id} ("${t.name}") has no root node`);
}

/** Walks a thread's tree iteratively (trees may be thousands of levels deep). */
const TREES = ['root', 'sites', 'siteTraces', 'sampled'] as const;

function checkTree(
  t: ThreadEntry, top: unknown, tree: string,
  methods: Map<number, MethodEntry>, types: Map<number, TypeEntry>, sites: Map<number, SiteEntry>,
): void {
  const where = `thread ${t.id} ("${t.name}")${tree === 'root' ? '' : ` ${tree}`}`;
  const stack: Array<{ node: unknown; root: boolean }> = [{ node: top, root: true }];
  while (stack.length > 0) {
    const { node, root } = stack.pop()!;
    if (!isObj(node)) fail(`invalid profile: ${where} has a node that is not an object`);
    if (root) {
      if (node.m !== undefined) fail(`invalid profile: ${where}: the root node must not have "m"`);
    } else {
      if (!isCount(node.m)) fail(`invalid profile: ${where} has a node with "m" ${describe(node.m)}`);
      if (!methods.has(node.m)) fail(`dangling id: a node in ${where} names method ${node.m}, which is not in "methods"`);
      if (!isCount(node.calls)) fail(`invalid profile: ${where}: node of method ${node.m} has "calls" ${describe(node.calls)}`);
    }
    if (node.line !== undefined && !isCount(node.line)) fail(`invalid profile: ${where}: "line" is ${describe(node.line)}`);
    if (node.folded !== undefined && !isCount(node.folded)) {
      fail(`invalid profile: ${where}: "folded" is ${describe(node.folded)}`);
    }
    if (node.a !== undefined) {
      if (!Array.isArray(node.a)) fail(`invalid profile: ${where}: "a" is not an array`);
      for (const rec of node.a as unknown[]) checkRecord(rec, where, types, sites, methods);
    }
    if (node.c !== undefined) {
      if (!Array.isArray(node.c)) fail(`invalid profile: ${where}: "c" is not an array`);
      for (const child of node.c as unknown[]) stack.push({ node: child, root: false });
    }
  }
}

function checkRecord(rec: unknown, where: string, types: Map<number, TypeEntry>, sites: Map<number, SiteEntry>, methods: Map<number, MethodEntry>): void {
  if (!Array.isArray(rec) || rec.length < 5 || rec.length > 7 || !rec.every(isCount)) {
    fail(`invalid profile: ${where} has an allocation record ${JSON.stringify(rec)}, expected [site, type, count, elements, bytes] and an optional line and callee, whole numbers from 0 to 2^53−1`);
  }
  const [site, type] = rec as AllocRecord;
  if (rec.length === 7 && !methods.has(rec[6])) fail(`dangling id: an allocation record in ${where} names callee method ${rec[6]}, which is not in "methods"`);
  if (!sites.has(site)) fail(`dangling id: an allocation record in ${where} names site ${site}, which is not in "sites"`);
  if (!types.has(type)) fail(`dangling id: an allocation record in ${where} names type ${type}, which is not in "types"`);
}

