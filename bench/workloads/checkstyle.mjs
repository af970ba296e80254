// Outside the five bench programs: Checkstyle 8.36 (Debian's `checkstyle`) checks the java.util sources of JDK 17
// with its bundled Google style (severity warning, so the exit status is 0); the report (one line per violation) is the output check.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { listFiles, sha256 } from '../lib/digest.mjs';
import { jars } from './common.mjs';

const CP = jars('checkstyle', 'antlr', 'antlr4-runtime', 'commons-beanutils', 'commons-collections3', 'commons-lang3',
  'commons-logging', 'guava', 'picocli', 'reflections', 'Saxon-HE', 'javassist');

export default {
  name: 'checkstyle',
  description: 'Checkstyle 8.36 checks the JDK 17 java.util sources against google_checks.xml (warnings: the exit status stays 0)',
  packages: ['checkstyle'],
  outside: true,
  prepare(ctx) {
    // The luindex workload unpacks the JDK sources; this reads its java.base/java/util (the first 120 of its ~370 files).
    ctx.state.src = join(ctx.dir, '..', 'luindex', 'docs', 'java.base', 'java', 'util');
    // the first 120 (sorted): google_checks over all ~370 takes ~25 s of CPU unprofiled
    ctx.state.files = listFiles(ctx.state.src, (f) => f.endsWith('.java')).filter((f) => !relative(ctx.state.src, f).includes('/')).slice(0, 120);
    if (ctx.state.files.length < 100) throw new Error(`checkstyle: run the luindex workload's prepare first (found ${ctx.state.files.length} sources)`);
  },
  command(ctx, runDir) {
    return { cp: CP, main: 'com.puppycrawl.tools.checkstyle.Main', cwd: runDir,
      args: ['-c', '/google_checks.xml', '-o', join(runDir, 'report.txt'), ...ctx.state.files] };
  },
  check(ctx, runDir) {
    // A Javadoc parse error is reported once, under whichever Javadoc check met it first: Checkstyle's order of
    // checks follows identity hash codes, so the check's name in those lines varies between runs (plain ones too).
    const lines = readFileSync(join(runDir, 'report.txt'), 'utf8').split('\n').filter((l) => l.startsWith('[WARN]') || l.startsWith('[ERROR]'))
      .map((l) => (l.includes(' has parse error. ') ? l.replace(/ \[\w+\]$/, '') : l));
    if (lines.length < 100) throw new Error(`expected a report with violations, found ${lines.length} lines`);
    return { summary: `${lines.length} violations`, digest: sha256(lines.join('\n')) };
  },
};
