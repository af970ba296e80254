// Lucene 8's demo IndexFiles indexes the JDK sources of java.base, java.xml and java.desktop (~7,800 files).
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sh } from '../lib/sh.mjs';
import { once } from '../lib/stamp.mjs';
import { srcZip } from '../prepare/jdk-src.mjs';
import { compileHarness } from '../prepare/harness.mjs';
import { jars } from './common.mjs';

const CP = jars('lucene-core-8.7.0', 'lucene-demo-8.7.0', 'lucene-analyzers-common-8.7.0', 'lucene-queryparser-8.7.0');
const MODULES = ['java.base', 'java.xml', 'java.desktop'];

export default {
  name: 'luindex',
  description: `Lucene 8 demo IndexFiles indexes the JDK 17 sources of ${MODULES.join(', ')}`,
  packages: ['liblucene8-java', 'unzip'],
  prepare(ctx) {
    const docs = join(ctx.dir, 'docs');
    once(ctx.dir, 'docs', { MODULES, v: 1 }, () => {
      const zip = srcZip();
      rmSync(docs, { recursive: true, force: true });
      mkdirSync(docs, { recursive: true });
      sh('unzip', ['-q', '-o', zip, ...MODULES.map((m) => `${m}/*`), '-d', docs]);
    });
    ctx.state.docs = docs;
    ctx.state.checker = compileHarness(ctx, 'LuceneCheck', CP);
  },
  command(ctx, runDir) {
    return { cp: CP, main: 'org.apache.lucene.demo.IndexFiles',
      args: ['-index', join(runDir, 'index'), '-docs', ctx.state.docs] };
  },
  check(ctx, runDir) {
    const out = sh(ctx.java, ['-cp', [ctx.state.checker, ...CP].join(':'), 'LuceneCheck', join(runDir, 'index')]).stdout.trim();
    const stdout = existsSync(join(runDir, 'stdout.txt')) ? readFileSync(join(runDir, 'stdout.txt'), 'utf8') : '';
    const added = (stdout.match(/^adding /gm) || []).length;
    return { summary: `${out} (${added} "adding" lines)`, digest: out };
  },
};
