// Dispatches `heaplens run|report|import|diff|check|help|--version`; every error becomes one line on stderr.
import { plainText } from './plain-text';
import { version } from '../../package.json';
import { ProfileError } from '../../core/profile/load';
import { UsageError } from './args';
import { CHECK_USAGE, checkCommand } from './check-command';
import { CliContext } from './context';
import { DIFF_USAGE, diffCommand } from './diff-command';
import { HEAP_USAGE, heapCommand } from './heap-command';
import { HEAPDUMP_USAGE, heapdumpCommand } from './heapdump-command';
import { IMPORT_USAGE, importCommand } from './import-command';
import { REPORT_USAGE, reportCommand } from './report-command';
import { RUN_PROJECT_USAGE, runProjectCommand, TEST_USAGE, testCommand } from './project-command';
import { RUN_USAGE, runCommand } from './run-command';

export const HELP = `HeapLens ${version}: Java memory allocation profiler

usage:
  ${RUN_USAGE}
      run a Java program with the HeapLens agent; the profile goes to FILE
      (default heaplens-YYYYMMDD-HHMMSS.heaplens in the current directory)
  ${RUN_PROJECT_USAGE}
      run a Maven or Gradle project's main class: its class path resolved (and compiled first
      when stale) as F5 does, the module of DIR or --module NAME
  ${TEST_USAGE}
      profile one JUnit 5 test (a class or one method) through the project's build (Surefire's
      argLine, Gradle's jvmArgs); the profile goes where run writes it
  ${REPORT_USAGE}
      summarize a profile as text; write a self-contained HTML report (flame tree, sites,
      arrays, threads, diff with --baseline); export collapsed stacks, speedscope JSON or
      gzipped pprof (allocations and bytes, for go tool pprof, Pyroscope, Parca, Grafana)
  ${IMPORT_USAGE}
      turn a JFR recording (allocation, execution and old-object samples) into a profile:
      the same views, reports, CodeLens and hot lines, labelled as estimates (docs/jfr.md)
  ${DIFF_USAGE}
      compare two profiles: the largest increases and decreases by method (inclusive),
      allocation site or type; --format json for tools
  ${CHECK_USAGE}
      check a profile against an allocation budget file (docs/budgets.md); exit 1 when a
      budget is exceeded; JUnit XML for CI; --update writes the measured values back
  ${HEAP_USAGE}
      read an HPROF heap dump (docs/heap.md): class histogram (TSV), the largest dominators,
      or the shortest paths from GC roots to objects of CLASS
  ${HEAPDUMP_USAGE}
      dump the heap (live objects; --all: unreachable ones too) of a running heaplens run session
  heaplens help | --help       this text
  heaplens --version           the version

environment: HEAPLENS_AGENT (agent jar), JAVA_HOME (java to use)
`;

/** `run --project DIR …` (before any `--`): a Maven or Gradle project instead of java arguments. */
function projectRun(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--project' || a.startsWith('--project='));
}

/** The commands that take their words and the context as they are (run and test choose between two first). */
const COMMANDS: Record<string, (args: string[], ctx: CliContext) => number | Promise<number>> = {
  report: reportCommand, import: importCommand, diff: diffCommand, check: checkCommand, heapdump: heapdumpCommand, heap: heapCommand,
};

/** Runs the CLI; resolves to the process exit code. */
export async function runCli(argv: readonly string[], ctx: CliContext): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'run':
        return projectRun(rest) ? await runProjectCommand(rest, ctx) : await runCommand(rest, ctx);
      case 'test':
        return await testCommand(rest, ctx);
      case 'help':
      case '--help':
      case '-h':
        ctx.stdout(HELP);
        return 0;
      case '--version':
      case 'version':
        ctx.stdout(`${version}\n`);
        return 0;
      case undefined:
        ctx.stderr(HELP);
        return 2;
      default:
        if (Object.hasOwn(COMMANDS, command)) return await COMMANDS[command](rest, ctx);
        throw new UsageError(`unknown command "${command}" (try: heaplens help)`);
    }
  } catch (e) {
    // messages quote file names and file content: never let them reach the terminal as escape sequences
    if (e instanceof UsageError) {
      ctx.stderr(`heaplens: ${plainText(e.message)}\n`);
      return 2;
    }
    if (e instanceof ProfileError) {
      ctx.stderr(`heaplens: ${plainText(e.message)}\n`);
      return 1;
    }
    const err = e as NodeJS.ErrnoException;
    ctx.stderr(`heaplens: ${plainText(err.message ?? String(e))}\n`);
    return 1;
  }
}
