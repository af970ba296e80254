// The .vsix: its file name, packaging with @vscode/vsce (offline: --no-dependencies, the bundles need no
// node_modules), and listing its entries (a zip's central directory, read without a zip library).
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { join } from 'node:path';
import { root } from './lib.mjs';

export function vsixPath() {
  const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return join(root, `${name}-${version}.vsix`);
}

/**
 * Runs `vsce package` on the current dist/ (build first); returns { file, bytes, ms }. README links stay
 * relative: VS Code shows the installed extension's README with its pictures from the package itself
 * (rewriting them to repository URLs is `vsce publish`'s business).
 */
export function packageVsix(file = vsixPath()) {
  const t0 = Date.now();
  const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--out', file], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`vsce package failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return { file, bytes: statSync(file).size, ms: Date.now() - t0, log: `${r.stdout}${r.stderr}` };
}

/** Entry names and sizes of a zip file (from its central directory). */
export function listZip(file) {
  const buf = readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file (no end of central directory)`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${n}`);
    const compressed = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const method = buf.readUInt16LE(p + 10);
    const local = buf.readUInt32LE(p + 42);
    out.push({ name: buf.toString('utf8', p + 46, p + 46 + nameLen), size, compressed, method, local });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** The bytes of one entry (stored or deflated). */
export function readZipEntry(file, name) {
  const e = listZip(file).find((x) => x.name === name);
  if (!e) throw new Error(`${file} has no entry ${name}`);
  const buf = readFileSync(file);
  const start = e.local + 30 + buf.readUInt16LE(e.local + 26) + buf.readUInt16LE(e.local + 28);
  const data = buf.subarray(start, start + e.compressed);
  return e.method === 0 ? Buffer.from(data) : inflateRawSync(data);
}
