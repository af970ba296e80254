// Compiles bench/harness/NAME.java into bench/work/harness/NAME/ (once per source change and JDK).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH, JDKS, WORK } from '../lib/paths.mjs';
import { sha256 } from '../lib/digest.mjs';
import { once } from '../lib/stamp.mjs';
import { sh } from '../lib/sh.mjs';

export function compileHarness(ctx, name, cp = []) {
  const src = join(BENCH, 'harness', `${name}.java`);
  const out = join(WORK, 'harness', name);
  // Compiled by JDK 17's javac for release 11, so the same classes run on every JDK under test.
  once(out, 'compile', { src: sha256(readFileSync(src)), cp }, () => {
    const args = ['--release', '11', '-nowarn', '-d', out, src];
    if (cp.length) args.unshift('-cp', cp.join(':'));
    sh(join(JDKS[17], 'bin/javac'), args);
  });
  return out;
}
