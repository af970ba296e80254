// `heaplens report FILE [--format text|collapsed] [--metric M] [--threads] [--out FILE]`.
import * as fs from 'fs';
import * as path from 'path';
import { METRICS, Metric } from '../model/aggregate';
import { collapsedText } from '../model/collapsed';
import { loadProfile } from '../model/load';
import { reportText } from '../model/report-text';
import { optionValue, parseArgs, UsageError } from './args';
import { CliContext } from './context';

export const REPORT_USAGE = `heaplens report FILE [--format text|collapsed] [--metric objects|bytes|arrays|elements]
                [--threads] [--out FILE]`;

const SPEC = {
  format: { value: true, choices: ['text', 'collapsed'] },
  metric: { value: true, choices: METRICS },
  threads: {},
  out: { value: true },
};

export function reportCommand(argv: readonly string[], ctx: CliContext): number {
  const p = parseArgs(argv, SPEC);
  if (p.positional.length !== 1 || p.sawDashDash) {
    throw new UsageError(`report needs exactly one profile file\nusage: ${REPORT_USAGE}`);
  }
  const format = optionValue(p, 'format') ?? 'text';
  const metric = (optionValue(p, 'metric') ?? 'objects') as Metric;
  const threads = p.options.has('threads');
  if (format === 'text' && (p.options.has('metric') || threads)) {
    throw new UsageError('--metric and --threads apply to --format collapsed');
  }
  const profile = loadProfile(path.resolve(ctx.cwd, p.positional[0]));
  const text = format === 'text' ? reportText(profile) : collapsedText(profile, { metric, threads });
  const out = optionValue(p, 'out');
  if (out) {
    const file = path.resolve(ctx.cwd, out);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  } else {
    ctx.stdout(text);
  }
  return 0;
}
