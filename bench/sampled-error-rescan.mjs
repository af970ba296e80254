#!/usr/bin/env node
// `node bench/sampled-error-rescan.mjs RESULTS.json`: recomputes the sampled-error tables of a bench result from the
// profiles its runs kept (bench/work/runs/…), and rewrites the JSON and the Markdown next to it. The analysis can then
// change without running the JVMs again; a newer bench removes older run directories, so rescan before that.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyse } from './lib/sampled-error.mjs';
import { markdown } from './lib/report.mjs';

const file = process.argv[2];
if (!file || !file.endsWith('.json') || !existsSync(file)) {
  console.error('usage: node bench/sampled-error-rescan.mjs bench/work/results/jdkN-TAG.json');
  process.exit(2);
}
const res = JSON.parse(readFileSync(file, 'utf8'));
if (!res.sampledError?.length) {
  console.error(`${file}: no sampled-error results`);
  process.exit(2);
}
let missing = 0;
res.sampledError = res.sampledError.map((old) => {
  const runs = Object.fromEntries(Object.entries(old.runs).map(([k, r]) => {
    const profile = r.profile ?? (old.errors[k] ? null : join(r.dir, 'profile.heaplens')); // results written before `profile`
    if (profile && !existsSync(profile)) missing++;
    return [k, { ...r, profile }];
  }));
  const keep = ['workload', 'sampleBytes', 'outputsEqual'];
  const errors = Object.fromEntries(Object.entries(old.errors).filter(([, e]) => !/^(profile: |the sampled run)/.test(e)));
  return analyse({ ...Object.fromEntries(keep.map((k) => [k, old[k]])), runs, errors });
});
if (missing) {
  console.error(`${missing} profile(s) no longer exist (a newer bench removed the run directories): nothing rewritten`);
  process.exit(1);
}
res.meta.notes = [...res.meta.notes.filter((n) => !n.startsWith('Sampled-error tables recomputed')),
  `Sampled-error tables recomputed from the kept profiles on ${new Date().toISOString()} (bench/sampled-error-rescan.mjs).`];
writeFileSync(file, JSON.stringify(res, null, 1) + '\n');
writeFileSync(file.replace(/\.json$/, '.md'), markdown(res));
for (const s of res.sampledError) {
  console.log(`${s.workload}: within 3σ of the expected bias ${s.countWithin3Sigma ?? '–'}/${s.rows?.length ?? 0} counts, ` +
    `${s.bytesWithin3Sigma ?? '–'} byte estimates; within 3σ of 0 ${s.countWithin3SigmaOfZero ?? '–'} counts`);
}
console.log(`rewrote ${file} and its .md`);
