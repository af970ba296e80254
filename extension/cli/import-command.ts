// `heaplens import RECORDING.jfr [--out FILE] [--java PATH] [--cp CLASSPATH] [--max-mb N]`: a JFR recording → a
// .heaplens profile (docs/jfr.md), read by the JDK's own JFR parser in the agent jar.
import * as fs from 'fs';
import * as path from 'path';
import { readRecording } from '../jfr/read-recording';
import { optionValue, parseArgs, UsageError } from './args';
import { CliContext } from './context';
import { findAgentJar, findJava } from './locate';
import { withFirstSection } from '../../core/profile/first-section';

export const IMPORT_USAGE = 'heaplens import RECORDING.jfr [--out|-o FILE] [--java PATH] [--cp CLASSPATH] [--max-mb N] [--java-opt OPT]';

const SPEC = { out: { value: true }, java: { value: true }, cp: { value: true }, 'max-mb': { value: true }, 'java-opt': { value: true } };

export async function importCommand(argv: readonly string[], ctx: CliContext): Promise<number> {
  const p = parseArgs(argv.map((a) => (a === '-o' ? '--out' : a)), SPEC);
  if (p.positional.length !== 1 || p.sawDashDash) throw new UsageError(`import needs exactly one recording\nusage: ${IMPORT_USAGE}`);
  const file = path.resolve(ctx.cwd, p.positional[0]);
  const maxMb = optionValue(p, 'max-mb');
  if (maxMb !== undefined && !/^\d+$/.test(maxMb)) throw new UsageError(`--max-mb takes a whole number of MiB, not ${maxMb}`);
  const out = path.resolve(ctx.cwd, optionValue(p, 'out') ?? file.replace(/\.jfr$/i, '') + '.heaplens');
  const javaOpt = optionValue(p, 'java-opt');
  const profile = await readRecording(file, {
    java: findJava(optionValue(p, 'java'), ctx.env), agentJar: findAgentJar(ctx.env, ctx.cliDir),
    classpath: optionValue(p, 'cp'), env: ctx.env, maxMb: maxMb === undefined ? undefined : Number(maxMb), javaOpts: javaOpt ? [javaOpt] : [],
  }).catch((e: Error) => { throw new UsageError(e.message); });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  // the first section right after meta: the editor paints from it before the rest is in (docs/format.md)
  fs.writeFileSync(out + '.tmp', JSON.stringify(withFirstSection(profile)));
  fs.renameSync(out + '.tmp', out);
  const ev = profile.meta.imported?.events ?? {};
  ctx.stderr(`heaplens: ${path.basename(file)} → ${path.relative(ctx.cwd, out) || out}: ${Object.entries(ev).map(([k, n]) => `${n} ${k.replace(/^jdk\./, '')}`).join(', ') || 'no samples'}\n`);
  for (const w of profile.transform.warnings) ctx.stderr(`heaplens: ${w}\n`);
  return 0;
}
