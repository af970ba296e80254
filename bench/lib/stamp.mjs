// Idempotent prepare steps: a step runs again only when its key (inputs, sizes, versions) changes.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function once(dir, step, key, fn) {
  mkdirSync(dir, { recursive: true });
  const f = join(dir, `.${step}.stamp`);
  const want = JSON.stringify(key);
  if (existsSync(f) && readFileSync(f, 'utf8') === want) return false;
  fn();
  writeFileSync(f, want);
  return true;
}
