// `heaplens run --project DIR [--module NAME] [--no-compile] [MAIN_CLASS] [-- ARGS]` and
// `heaplens test --project DIR [--module NAME] CLASS[#METHOD]`: a Maven or Gradle project's class path and main
// class resolved exactly as F5 does (extension/project), then run like `heaplens run`; the profile goes to the same place.
import * as path from 'path';
import { ProjectError } from '../project/errors';
import { parseSelector } from '../project/junit';
import { chooseMainClass, resolveProject } from '../project/resolve';
import { runTest } from '../project/test-run';
import { OptionSpec, optionValue, parseArgs, UsageError } from './args';
import { CliContext } from './context';
import { requireJdk } from './java-check';
import { defaultOutName, findAgentJar, findJava } from './locate';
import { plainText } from './plain-text';
import { agentArgument, RUN_SPEC, runCommand, splitPatterns } from './run-command';
import { prepareOutput } from '../../core/profile/safe-file';

export const RUN_PROJECT_USAGE = 'heaplens run --project DIR [--module NAME] [--no-compile] [run options] [MAIN_CLASS] [-- ARGS]';
export const TEST_USAGE = `heaplens test --project DIR [--module NAME] [--no-compile] [--out FILE] [--include PKG,..] [--exclude PKG,..]
             [--java PATH] [--mode MODE] [--agent-opt KEY=VALUE]... CLASS[#METHOD]`;

const PROJECT_SPEC: Record<string, OptionSpec> = { project: { value: true }, module: { value: true }, 'no-compile': {} };

/** A project error as the CLI says it: the message, then the build's own output when there is one. */
function report(e: ProjectError, ctx: CliContext): number {
  ctx.stderr(`heaplens: ${plainText(e.message)}\n`);
  if (e.output) ctx.stderr(`${plainText(e.output)}\n`);
  return e.kind === 'noProject' || e.kind === 'noModule' || e.kind === 'noMainClass' ? 2 : 1;
}

/** Splits `run --project …` argv: the project's options, the run's own options, the main class, the program's args. */
export function splitProjectRun(argv: readonly string[]): { project: Map<string, string>; runOptions: string[]; mainClass?: string; programArgs: string[] } {
  const project = new Map<string, string>();
  const runOptions: string[] = [];
  let mainClass: string | undefined;
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const spec = PROJECT_SPEC[name] ?? RUN_SPEC[name];
      if (!spec) throw new UsageError(`unknown option --${name}\nusage: ${RUN_PROJECT_USAGE}`);
      let value: string | undefined;
      if (spec.value && eq < 0) {
        if (i + 1 >= argv.length) throw new UsageError(`option --${name} needs a value`);
        value = argv[++i];
      } else if (eq >= 0) value = a.slice(eq + 1);
      if (PROJECT_SPEC[name]) project.set(name, value ?? 'true');
      else runOptions.push(value === undefined ? a : `--${name}=${value}`);
    } else if (mainClass === undefined) {
      mainClass = a;
    } else {
      throw new UsageError(`unexpected "${a}": program arguments go after --\nusage: ${RUN_PROJECT_USAGE}`);
    }
  }
  return { project, runOptions, mainClass, programArgs: argv.slice(i + 1) };
}

export async function runProjectCommand(argv: readonly string[], ctx: CliContext): Promise<number> {
  const { project, runOptions, mainClass, programArgs } = splitProjectRun(argv);
  const dir = path.resolve(ctx.cwd, project.get('project')!);
  const javaOpt = runOptions.find((o) => o.startsWith('--java='))?.slice('--java='.length);
  const java = findJava(javaOpt, ctx.env);
  requireJdk(java);
  let classPath: string[];
  let main: string;
  try {
    const r = await resolveProject({
      start: dir, module: project.get('module'), compile: !project.has('no-compile'), java, env: ctx.env,
      onOutput: (t) => ctx.stderr(t), onStep: (t) => ctx.stderr(`heaplens: ${t}\n`),
    });
    main = chooseMainClass(r, mainClass);
    if (mainClass && !r.mainClasses.includes(mainClass)) {
      throw new ProjectError('noMainClass', `${mainClass} is not a main class of module ${r.module.name}${r.mainClasses.length ? ` (its main classes: ${r.mainClasses.join(', ')})` : ' (it has none)'}.`);
    }
    classPath = r.module.runtime;
    ctx.stderr(`heaplens: ${r.project.kind === 'maven' ? 'Maven' : 'Gradle'} module ${r.module.name}: ${main}, class path of ${classPath.length} entries${r.ranBuild ? '' : ' (cached)'}\n`);
  } catch (e) {
    if (e instanceof ProjectError) return report(e, ctx);
    throw e;
  }
  return runCommand([...runOptions, '--', '-cp', classPath.join(path.delimiter), main, ...programArgs], ctx);
}

const TEST_SPEC: Record<string, OptionSpec> = {
  ...PROJECT_SPEC, out: { value: true }, include: { value: true, repeat: true }, exclude: { value: true, repeat: true },
  java: { value: true }, mode: { value: true }, 'agent-opt': { value: true, repeat: true },
};

export async function testCommand(argv: readonly string[], ctx: CliContext): Promise<number> {
  const p = parseArgs(argv, TEST_SPEC);
  if (!p.options.has('project')) throw new UsageError(`--project DIR is required\nusage: ${TEST_USAGE}`);
  if (p.positional.length !== 1) throw new UsageError(`name one test: CLASS or CLASS#METHOD\nusage: ${TEST_USAGE}`);
  let sel: { className: string; method?: string };
  try {
    sel = parseSelector(p.positional[0]);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const java = findJava(optionValue(p, 'java'), ctx.env);
  requireJdk(java);
  const out = path.resolve(ctx.cwd, optionValue(p, 'out') ?? defaultOutName());
  prepareOutput(out);
  const extra = p.options.get('agent-opt') ?? [];
  for (const e of extra) if (/^out=/.test(e)) throw new UsageError('use --out, not --agent-opt out=…');
  const agentArg = agentArgument(findAgentJar(ctx.env, ctx.cliDir), {
    out, include: splitPatterns(p.options.get('include')), exclude: splitPatterns(p.options.get('exclude')), mode: optionValue(p, 'mode'), extra,
  });
  try {
    const r = await runTest({
      start: path.resolve(ctx.cwd, optionValue(p, 'project')!), module: optionValue(p, 'module'), compile: !p.options.has('no-compile'),
      java, env: ctx.env, className: sel.className, method: sel.method, agentArg, profile: out,
      onOutput: (t) => ctx.stderr(t), onStep: (t) => ctx.stderr(`heaplens: ${t}\n`),
    });
    const rel = path.relative(ctx.cwd, out);
    ctx.stderr(`heaplens: ${r.run} test${r.run === 1 ? '' : 's'} ran${r.failed ? `, ${r.failed} failed` : ''} (${r.runner}); profile written to ${plainText(rel && !rel.startsWith('..') ? rel : out)}\n`);
    return r.failed ? 1 : 0;
  } catch (e) {
    if (e instanceof ProjectError) return report(e, ctx);
    throw e;
  }
}
