// `heaplens diff A B [--metric M] [--by method|site|type] [--format text|json] [--top N] [--out FILE]`.
import { prepareOutput } from '../../core/profile/safe-file';
import * as fs from 'fs';
import * as path from 'path';
import { METRICS, Metric } from '../../core/views/aggregate';
import { DIFF_BY, DiffBy, diffTable } from './diff-table';
import { diffJson, diffText } from './diff-report';
import { loadProfile, ProfileError } from '../../core/profile/load';
import { Profile } from '../../core/profile/types';
import { optionValue, parseArgs, UsageError } from './args';
import { CliContext } from './context';

export const DIFF_USAGE = `heaplens diff BEFORE AFTER [--metric objects|arrays|elements|bytes] [--by method|site|type]
              [--format text|json] [--top N] [--out|-o FILE]`;

const SPEC = {
  metric: { value: true, choices: METRICS },
  by: { value: true, choices: DIFF_BY },
  format: { value: true, choices: ['text', 'json'] },
  top: { value: true },
  out: { value: true },
};

/** Loads a profile; a missing or malformed file is a usage error (exit 2), like a missing argument. */
export function loadForCli(ctx: CliContext, file: string): Profile {
  try {
    return loadProfile(path.resolve(ctx.cwd, file));
  } catch (e) {
    if (e instanceof ProfileError) throw new UsageError(e.message);
    throw e;
  }
}

/**
 * Budgets and diffs compare exact counts: a warning (for stderr) when part of the run was recorded in another
 * mode (sites, sampled, paused), whose allocations are not in the exact call tree.
 */
export function modeWarning(profile: Profile, name: string): string | undefined {
  const meta = profile.file.meta as { mode?: string; modes?: Array<{ mode?: string }> };
  const modes = new Set([meta.mode ?? 'exact', ...(meta.modes ?? []).map((m) => m.mode ?? 'exact')]);
  modes.delete('exact');
  if (modes.size === 0) return undefined;
  return `heaplens: warning: ${name} was recorded partly in mode ${[...modes].join(', ')}: only the exact-mode call tree is counted\n`;
}

/** Writes to --out FILE (directories created) or to stdout. */
export function emit(ctx: CliContext, out: string | undefined, text: string): void {
  if (!out) {
    ctx.stdout(text);
    return;
  }
  const target = path.resolve(ctx.cwd, out);
  prepareOutput(target);
  fs.writeFileSync(target, text);
}

export function diffCommand(argv: readonly string[], ctx: CliContext): number {
  const p = parseArgs(argv.map((a) => (a === '-o' ? '--out' : a)), SPEC);
  if (p.positional.length !== 2 || p.sawDashDash) throw new UsageError(`diff needs two profile files (before, after)\nusage: ${DIFF_USAGE}`);
  const topText = optionValue(p, 'top') ?? '10';
  if (!/^\d+$/.test(topText)) throw new UsageError(`--top must be a whole number (0: all rows), got "${topText}"`);
  const top = Number(topText);
  const metric = (optionValue(p, 'metric') ?? 'objects') as Metric;
  const by = (optionValue(p, 'by') ?? 'method') as DiffBy;
  const [beforeName, afterName] = p.positional;
  const before = { name: beforeName, profile: loadForCli(ctx, beforeName) };
  const after = { name: afterName, profile: loadForCli(ctx, afterName) };
  for (const s of [before, after]) {
    const w = modeWarning(s.profile, s.name);
    if (w) ctx.stderr(w);
  }
  const t = diffTable(before.profile, after.profile, metric, by);
  const text = optionValue(p, 'format') === 'json'
    ? JSON.stringify(diffJson(t, before, after, top), null, 2) + '\n'
    : diffText(t, before, after, top);
  emit(ctx, optionValue(p, 'out'), text);
  return 0;
}
