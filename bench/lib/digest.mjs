// Hashes used by the output checks.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const sha256 = (data) => createHash('sha256').update(data).digest('hex');

export function listFiles(dir, pred = () => true) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (pred(p)) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

// One hash over the relative paths and contents of the files under DIR that PRED accepts.
export function hashTree(dir, pred) {
  const files = listFiles(dir, pred);
  const h = createHash('sha256');
  for (const f of files) h.update(`${relative(dir, f)}\0${sha256(readFileSync(f))}\n`);
  return { files: files.length, digest: h.digest('hex') };
}
