// A small command-line parser: `--name value`, `--name=value`, boolean flags, repeatable options, `--`.

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
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      parsed.sawDashDash = true;
      parsed.rest = argv.slice(i + 1);
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      if (opts.stopAtPositional) {
        parsed.rest = argv.slice(i);
        break;
      }
      parsed.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const s = spec[name];
    if (!s) throw new UsageError(`unknown option --${name}`);
    let value = 'true';
    if (s.value) {
      if (eq >= 0) value = arg.slice(eq + 1);
      else if (i + 1 < argv.length) value = argv[++i];
      else throw new UsageError(`option --${name} needs a value`);
      if (s.choices && !s.choices.includes(value)) {
        throw new UsageError(`option --${name} must be one of ${s.choices.join(', ')} (got "${value}")`);
      }
    } else if (eq >= 0) {
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
