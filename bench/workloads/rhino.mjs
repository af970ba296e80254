// Outside the five bench programs: Mozilla Rhino (Debian's `rhino`) runs a JavaScript load that builds and walks
// object trees recursively, joins strings and sorts arrays (bench/workloads/rhino/work.js); Rhino compiles the script
// to JVM classes of its own, and the recursion gives deep stacks. The script's output file is the output check.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256 } from '../lib/digest.mjs';
import { jars } from './common.mjs';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'rhino', 'work.js');

export default {
  name: 'rhino',
  description: 'Rhino 1.7 runs a JavaScript load: recursive object trees, strings, sorting (bench/workloads/rhino/work.js)',
  packages: ['rhino'],
  outside: true,
  prepare() {},
  command(ctx, runDir) {
    return { cp: jars('js'), main: 'org.mozilla.javascript.tools.shell.Main', cwd: runDir, args: [SCRIPT, join(runDir, 'out.txt')] };
  },
  check(ctx, runDir) {
    const lines = readFileSync(join(runDir, 'out.txt'), 'utf8').trim().split('\n');
    if (lines.length !== 200) throw new Error(`expected 200 result lines, found ${lines.length}`);
    return { summary: `${lines.length} rounds, last ${lines[lines.length - 1]}`, digest: sha256(lines.join('\n')) };
  },
};
