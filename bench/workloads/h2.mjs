// H2 2.1 RunScript on an in-memory database: a generated script of bulk inserts, indexes, ~60,000 OLTP statements
// and joins, ending with report queries written by CSVWRITE; the CSV files are the output check.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashTree } from '../lib/digest.mjs';
import { once } from '../lib/stamp.mjs';
import { generateSql } from '../prepare/gen-sql.mjs';
import { jars } from './common.mjs';

export function h2Workload({ name, scale, accuracyScale, description }) {
  const script = (ctx, s) => {
    const f = join(ctx.dir, `script-${s}.sql`);
    once(ctx.dir, `script-${s}`, { s, seed: 7, v: 1 }, () => writeFileSync(f, generateSql(s, 7)));
    return f;
  };
  return {
    name,
    description,
    packages: ['libh2-java'],
    prepare(ctx) {
      ctx.state.script = script(ctx, scale);
      ctx.state.accuracy = script(ctx, accuracyScale ?? scale);
    },
    command(ctx, runDir, { accuracy = false } = {}) {
      return { cp: jars('h2'), main: 'org.h2.tools.RunScript', cwd: runDir,
        args: ['-url', `jdbc:h2:mem:${name}`, '-script', accuracy ? ctx.state.accuracy : ctx.state.script] };
    },
    check(ctx, runDir) {
      const t = hashTree(runDir, (f) => /results-\d+\.csv$/.test(f));
      if (t.files !== 5) throw new Error(`expected 5 result files, found ${t.files}`);
      return { summary: `${t.files} result CSVs`, digest: t.digest };
    },
  };
}

export default h2Workload({
  name: 'h2', scale: 1, accuracyScale: 0.1,
  description: 'H2 2.1 RunScript, in-memory: bulk inserts, indexes, ~60k OLTP statements, joins (scale 1)',
});
