// JDK 17 sources without installing openjdk-17-source (installing it could upgrade the JDK under test):
// `apt-get download` the .deb, `dpkg-deb -x` it, keep src.zip, unzip the modules asked for.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WORK } from '../lib/paths.mjs';
import { sh, log } from '../lib/sh.mjs';
import { aptUpdateOnce, ensurePackages } from './apt.mjs';

export const SRC_DIR = join(WORK, 'jdk-src');

export function srcZip() {
  const zip = join(SRC_DIR, 'src.zip');
  if (existsSync(zip)) return zip;
  ensurePackages(['unzip']);
  const dl = join(SRC_DIR, 'download');
  rmSync(dl, { recursive: true, force: true });
  mkdirSync(dl, { recursive: true });
  log('apt-get download openjdk-17-source');
  let r = sh('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'download', 'openjdk-17-source'], { cwd: dl, allowFail: true });
  if (r.status !== 0) {
    aptUpdateOnce();
    sh('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'download', 'openjdk-17-source'], { cwd: dl });
  }
  const deb = readdirSync(dl).find((f) => f.endsWith('.deb'));
  sh('dpkg-deb', ['-x', join(dl, deb), join(dl, 'x')]);
  renameSync(join(dl, 'x/usr/lib/jvm/openjdk-17/lib/src.zip'), zip);
  writeFileSync(join(SRC_DIR, 'version.txt'), deb.replace(/^openjdk-17-source_/, '').replace(/_all\.deb$/, '') + '\n');
  rmSync(dl, { recursive: true, force: true });
  return zip;
}

export function srcVersion() {
  const f = join(SRC_DIR, 'version.txt');
  return existsSync(f) ? readFileSync(f, 'utf8').trim() : null;
}

// Extracts MODULE's sources to jdk-src/src/MODULE (once) and returns that directory.
export function moduleSources(module) {
  const dir = join(SRC_DIR, 'src', module);
  const stamp = join(SRC_DIR, 'src', `.${module}.done`);
  if (existsSync(stamp)) return dir;
  const zip = srcZip();
  rmSync(dir, { recursive: true, force: true });
  sh('unzip', ['-q', '-o', zip, `${module}/*`, '-d', join(SRC_DIR, 'src')]);
  writeFileSync(stamp, '');
  return dir;
}
