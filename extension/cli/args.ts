// The command line's options: `--name value`, `--name=value`, boolean flags, repeatable options, `--`. Node's own
// `util.parseArgs` splits the words (its tokens); this file holds only HeapLens' rules and messages on top: a word
// with one dash (`-x`, `-`) is an operand, not an option, and with `stopAtPositional` everything from the first
// operand on belongs to the program being run.
import { parseArgs as nodeParseArgs } from 'node:util';

/** A mistake in how the command was called: reported on one line, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface OptionSpec {
  /** takes a value (otherwise a boolean flag) */
  value?: boolean;
  /** may be given several times (values collected in order) */
  repeat?: boolean;
  /** allowed values */
  choices?: readonly string[];
}

export interface Parsed {
  options: Map<string, string[]>;
  positional: string[];
  /** everything after `--` (or after the first positional when `stopAtPositional`) */
  rest: string[];
  sawDashDash: boolean;
}

export function parseArgs(
  argv: readonly string[], spec: Record<string, OptionSpec>, opts: { stopAtPositional?: boolean } = {},
): Parsed {
  const parsed: Parsed = { options: new Map(), positional: [], rest: [], sawDashDash: false };
  const options = Object.fromEntries(Object.entries(spec).map(([name, s]) => [name, { type: s.value ? 'string' as const : 'boolean' as const }]));
  // not strict: unknown options, missing values and values given to flags come back as tokens, and get our messages
  const { tokens } = nodeParseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  let lastIndex = -1;
  for (const t of tokens) {
    if (t.index === lastIndex) continue; // the further letters of a short group `-ab`: one operand
    lastIndex = t.index;
    if (t.kind === 'option-terminator') {
      parsed.sawDashDash = true;
      parsed.rest = argv.slice(t.index + 1);
      break;
    }
    if (t.kind === 'positional' || !t.rawName.startsWith('--')) {
      if (opts.stopAtPositional) {
        parsed.rest = argv.slice(t.index);
        break;
      }
      parsed.positional.push(argv[t.index]);
      continue;
    }
    const { name } = t;
    const s = spec[name];
    if (!s) throw new UsageError(`unknown option --${name}`);
    let value = 'true';
    if (s.value) {
      if (t.value === undefined) throw new UsageError(`option --${name} needs a value`);
      value = t.value;
      if (s.choices && !s.choices.includes(value)) {
        throw new UsageError(`option --${name} must be one of ${s.choices.join(', ')} (got "${value}")`);
      }
    } else if (t.inlineValue) {
      throw new UsageError(`option --${name} takes no value`);
    }
    const have = parsed.options.get(name);
    if (have && !s.repeat) throw new UsageError(`option --${name} given twice`);
    parsed.options.set(name, [...(have ?? []), value]);
  }
  return parsed;
}

/** The single value of an option, or undefined. */
export function optionValue(p: Parsed, name: string): string | undefined {
  return p.options.get(name)?.[0];
}
