// javac compiling JDK 17's own jdk.compiler module sources (about 400 files, 175k lines) as a patch of that module.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashTree, listFiles } from '../lib/digest.mjs';
import { JDKS } from '../lib/paths.mjs';
import { moduleSources } from '../prepare/jdk-src.mjs';
import { once } from '../lib/stamp.mjs';

export default {
  name: 'javac',
  description: 'javac compiles the jdk.compiler module sources of JDK 17 (src.zip of openjdk-17-source)',
  packages: ['unzip'],
  prepare(ctx) {
    const src = moduleSources('jdk.compiler');
    once(ctx.dir, 'files', { src, v: 1 }, () => {
      const files = listFiles(src, (f) => f.endsWith('.java') && !f.endsWith('module-info.java'));
      writeFileSync(join(ctx.dir, 'files.txt'), files.join('\n') + '\n');
    });
    ctx.state.src = src;
  },
  command(ctx, runDir) {
    const args = ['-nowarn', '-XDignore.symbol.file', '--patch-module', `jdk.compiler=${ctx.state.src}`,
      '-d', join(runDir, 'out'), `@${join(ctx.dir, 'files.txt')}`];
    // A newer javac compiles the JDK 17 sources against the JDK 17 system modules.
    if (ctx.jdk !== '17') args.unshift('--system', JDKS[17]);
    return { cp: [], main: 'com.sun.tools.javac.Main', args };
  },
  check(ctx, runDir) {
    const t = hashTree(join(runDir, 'out'), (f) => f.endsWith('.class'));
    return { summary: `${t.files} class files`, digest: t.digest };
  },
};
