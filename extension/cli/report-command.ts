// `heaplens report FILE [--format text|collapsed|html|speedscope|pprof|accounts [--snapshots|--suspects]|lines] [--metric M] [--threads] [--baseline FILE] [--out FILE]`.
import * as fs from 'fs';
import * as path from 'path';
import { accountsOf, accountsTsv, livenessLabel, snapshotsTsv, suspectsTsv } from '../../core/views/accounts';
import { ExportMetric, METRICS } from '../../core/views/aggregate';
import { hotLines, linesTsv } from '../../core/views/by-line';
import { collapsedText } from '../../core/export/collapsed';
import { cpuExportText } from '../../core/export/cpu-export';
import { ThreadsProfile } from '../../core/profile/threads-profile';
import { loadProfile } from '../../core/profile/load';
import { defaultTree, TREE_KINDS, TreeKind, treesIn, withTree } from '../../core/profile/modes';
import { LIFETIME_GROUPINGS, LifetimeGrouping, lifetimeStatText, lifetimeTsv } from '../../core/views/lifetimes';
import { reportText } from './report-text';
import { speedscope } from '../../core/export/speedscope';
import { pprofGzip } from '../../core/export/pprof-file';
import { reportHtml } from '../panels/html';
import { embeddedFirstTree } from '../panels/first-tree';
import { prepareOutput } from '../../core/profile/safe-file';
import { optionValue, parseArgs, UsageError } from './args';
import { CliContext } from './context';
import { readReportAssets } from './html-assets';

export const REPORT_USAGE = `heaplens report FILE [--format text|collapsed|html|speedscope|pprof|accounts|lifetime|lifetime-stat|lines]
                [--metric allocations|objects|bytes|arrays|elements|samples] [--threads] [--tree exact|sites|traces|sampled]
                [--top N] [--all-lines]
                [--by class|site|method|nested] [--baseline FILE] [--snapshots|--suspects] [--out|-o FILE]`;

const SPEC = {
  format: { value: true, choices: ['text', 'collapsed', 'html', 'speedscope', 'pprof', 'accounts', 'lifetime', 'lifetime-stat', 'lines'] },
  by: { value: true, choices: LIFETIME_GROUPINGS },
  snapshots: {},
  suspects: {},
  // samples: the threads profile's CPU samples (collapsed, speedscope)
  metric: { value: true, choices: [...METRICS, 'samples', 'allocations'] },
  // --format lines: how many lines (default: every line), and JDK lines too
  top: { value: true },
  'all-lines': {},
  threads: {},
  tree: { value: true, choices: TREE_KINDS },
  baseline: { value: true },
  out: { value: true },
};

export function reportCommand(argv: readonly string[], ctx: CliContext): number {
  const p = parseArgs(argv.map((a) => (a === '-o' ? '--out' : a)), SPEC);
  if (p.positional.length !== 1 || p.sawDashDash) {
    throw new UsageError(`report needs exactly one profile file\nusage: ${REPORT_USAGE}`);
  }
  const series = p.options.has('snapshots'), suspects = p.options.has('suspects');
  const format = optionValue(p, 'format') ?? (series || suspects ? 'accounts' : 'text');
  if ((series || suspects) && format !== 'accounts') throw new UsageError('--snapshots and --suspects apply to --format accounts');
  if (series && suspects) throw new UsageError('give --snapshots or --suspects, not both');
  if (format === 'accounts') {
    for (const o of ['metric', 'threads', 'tree', 'baseline']) {
      if (p.options.has(o)) throw new UsageError(`--${o} does not apply to --format accounts`);
    }
  }
  const threads = p.options.has('threads');
  if (format === 'pprof' && (p.options.has('metric') || threads)) {
    throw new UsageError('--format pprof holds both allocations (count) and bytes, and a thread label per sample: no --metric or --threads');
  }
  if ((format === 'text' || format === 'html') && p.options.has('metric')) {
    throw new UsageError('--metric applies to --format collapsed and speedscope (the HTML report has a metric selector)');
  }
  if (threads && format !== 'collapsed') throw new UsageError('--threads applies to --format collapsed');
  if (p.options.has('baseline') && format !== 'html') throw new UsageError('--baseline applies to --format html (the Diff view)');
  if (p.options.has('by') && format !== 'lifetime') throw new UsageError('--by applies to --format lifetime');
  if (format === 'lifetime' || format === 'lifetime-stat') {
    for (const o of ['metric', 'threads', 'tree', 'baseline']) {
      if (p.options.has(o)) throw new UsageError(`--${o} does not apply to --format ${format}`);
    }
  }
  if (format === 'lines') {
    for (const o of ['threads', 'baseline']) if (p.options.has(o)) throw new UsageError(`--${o} does not apply to --format lines`);
    const m = optionValue(p, 'metric');
    if (m !== undefined && m !== 'allocations' && m !== 'bytes') throw new UsageError('--format lines ranks by --metric allocations (objects + arrays) or bytes');
  } else {
    for (const o of ['top', 'all-lines']) if (p.options.has(o)) throw new UsageError(`--${o} applies to --format lines`);
  }
  const top = optionValue(p, 'top');
  if (top !== undefined && !/^[1-9][0-9]{0,8}$/.test(top)) throw new UsageError(`--top takes a whole number of lines from 1, not ${JSON.stringify(top)}`);
  // an unwritable output fails now, not after minutes of work (and never hangs: see safe-file.ts)
  const outOption = optionValue(p, 'out');
  if (outOption) prepareOutput(path.resolve(ctx.cwd, outOption));
  // allocations (objects + arrays) by default: leaving arrays out hides a byte[] leak
  const metric = (optionValue(p, 'metric') ?? (format === 'speedscope' ? 'bytes' : 'allocations')) as ExportMetric | 'samples';
  const file = path.resolve(ctx.cwd, p.positional[0]);
  const loaded = loadProfile(file);
  // Each mode keeps its own data (modes.ts): report the chosen one, exact data by default.
  const tree = (optionValue(p, 'tree') as TreeKind | undefined) ?? defaultTree(loaded);
  const profile = withTree(loaded, tree);
  let text: string | Uint8Array;
  switch (format) {
    case 'accounts': {
      const acc = accountsOf(loaded.file);
      if (!acc) throw new UsageError(`${p.positional[0]} has no memory accounts: profile with --accounts (docs/accounts.md)`);
      text = series ? snapshotsTsv(acc) : suspects ? suspectsTsv(acc) : accountsTsv(acc);
      ctx.stderr(`heaplens: ${acc.snapshots.length} snapshot(s); live counts: ${livenessLabel(acc)}\n`);
      break;
    }
    case 'text':
      text = reportText(profile, { tree, available: treesIn(loaded) });
      break;
    case 'collapsed':
      text = metric === 'samples' ? cpuOrUsage(loaded.file.threadsProfile, 'collapsed', path.basename(file), threads)
        : collapsedText(profile, { metric, threads });
      break;
    case 'lifetime':
      text = lifetimeTsv(loaded, (optionValue(p, 'by') ?? 'class') as LifetimeGrouping);
      break;
    case 'lifetime-stat':
      text = lifetimeStatText(loaded);
      break;
    case 'speedscope':
      text = (metric === 'samples' ? cpuOrUsage(loaded.file.threadsProfile, 'speedscope', path.basename(file))
        : JSON.stringify(speedscope(profile, { metric, name: path.basename(file) }))) + '\n';
      break;
    case 'pprof':
      text = pprofGzip(profile);     // pprof files are gzipped protobuf
      break;
    case 'lines': {
      // the editor's hot lines (by-line.ts hotLines): the same ranking, every line unless --top
      const lineMetric = optionValue(p, 'metric') === 'bytes' ? 'bytes' : 'count';
      const scope = p.options.has('all-lines') ? 'all' : 'application';
      text = linesTsv(profile, hotLines(profile, { scope, metric: lineMetric, limit: top ? Number(top) : Number.MAX_SAFE_INTEGER }));
      break;
    }
    default: {
      const base = optionValue(p, 'baseline');
      const baseFile = base ? path.resolve(ctx.cwd, base) : undefined;
      const baseline = baseFile ? { title: path.basename(baseFile), profile: loadProfile(baseFile).file } : undefined;
      // the whole file: the page switches between the modes' data itself, starting with the chosen one
      // and the first tree built here: the page paints it without parsing the call trees (panels/first-tree.ts)
      text = reportHtml(readReportAssets(ctx.cliDir), { title: path.basename(file), profile: loaded.file, baseline, tree, firstTree: embeddedFirstTree(loaded, tree) });
    }
  }
  const out = optionValue(p, 'out');
  if (out) {
    const target = path.resolve(ctx.cwd, out);
    prepareOutput(target);
    fs.writeFileSync(target, text);
  } else if (format === 'html' && process.stdout.isTTY) {
    throw new UsageError('--format html writes a whole page: give --out FILE (or redirect the output)');
  } else if (typeof text !== 'string') {
    if (process.stdout.isTTY) throw new UsageError(`--format ${format} is binary: give --out FILE (or redirect the output)`);
    fs.writeSync(1, text);
  } else {
    ctx.stdout(text);
  }
  return 0;
}

/** The CPU export; a profile without CPU samples is the user's input problem: a usage error, not a crash. */
function cpuOrUsage(tp: ThreadsProfile | undefined, format: 'collapsed' | 'speedscope', name: string, threads = false): string {
  try {
    return cpuExportText(tp, format, name, threads);
  } catch (e) {
    throw new UsageError(`${name}: ${(e as Error).message}`);
  }
}
