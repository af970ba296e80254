// Thread stacks for a profiled JVM. The agent's probes make compiled frames bigger: measured on a plain recursion
// (docs/reliability.md, "Stack depth"), a C1-compiled frame with the probes inlined is about 5× the size of the same
// frame without them, and the profiled methods stay longer in C1 (the C2 queue is busy with the instrumented JDK),
// where unprofiled the recursion runs in C2 frames about 11× smaller. So that a program that recurses deeply enough
// to work unprofiled also works profiled, the launch gives threads STACK_SCALE times the stack they would have had.
// Stacks are reserved, not committed: pages a thread never touches cost no memory. No vscode here: the CLI and the
// debug adapter both use it.

/** How much more stack a profiled JVM's threads get (launch attribute `stackScale`, CLI `--stack-scale`). */
export const STACK_SCALE = 12;

/** HotSpot's default thread stack on Linux and Windows x64 and macOS (1 MiB); 2 MiB on Linux aarch64. */
const DEFAULT_STACK_KIB = process.arch === 'arm64' && process.platform === 'linux' ? 2048 : 1024;
/** HotSpot refuses -Xss above 1 GiB. */
const MAX_STACK_KIB = 1024 * 1024;

/** JVM options that take the next argument as their value (so it is not mistaken for the main class). */
const TAKES_VALUE = new Set(['-cp', '-classpath', '--class-path', '-p', '--module-path', '--upgrade-module-path',
  '--add-modules', '--add-reads', '--add-exports', '--add-opens', '--limit-modules', '--patch-module', '--source']);

/** The JVM options of a java command line: everything before the main class, `-jar`, `-m` or a source file. */
export function jvmOptionsOf(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-') || a === '-jar' || a === '-m' || a === '--module') break;
    out.push(a);
    if (TAKES_VALUE.has(a) && i + 1 < args.length) out.push(args[++i]);
  }
  return out;
}

/** "-Xss2m" / "-XX:ThreadStackSize=2048" → KiB; undefined when the value cannot be read. */
export function stackKibOf(option: string): number | undefined {
  let m = /^-Xss(\d+)([kKmMgG]?)$/.exec(option);
  if (m) {
    const n = Number(m[1]);
    const unit = m[2].toLowerCase();
    return unit === 'g' ? n * 1024 * 1024 : unit === 'm' ? n * 1024 : unit === 'k' ? n : Math.ceil(n / 1024);
  }
  m = /^-XX:ThreadStackSize=(\d+)([kKmMgG]?)$/.exec(option);
  if (m) {
    const n = Number(m[1]);
    const unit = m[2].toLowerCase();
    return unit === 'g' ? n * 1024 * 1024 : unit === 'm' ? n * 1024 : n; // a bare number is KiB here
  }
  return undefined;
}

/**
 * The option to append after the user's JVM options (the last -Xss wins): the user's stack, or HotSpot's
 * default, times `scale`. Empty when the scale is 1 or the user's value cannot be read (theirs then stands).
 */
export function stackJvmArgs(jvmOptions: readonly string[], scale: number = STACK_SCALE): string[] {
  if (!(scale > 1)) return [];
  const given = jvmOptions.filter((o) => /^-Xss|^-XX:ThreadStackSize=/.test(o));
  const last = given[given.length - 1];
  const base = last === undefined ? DEFAULT_STACK_KIB : stackKibOf(last);
  if (base === undefined) return [];
  const kib = Math.min(MAX_STACK_KIB, Math.round(base * scale));
  return [kib % 1024 === 0 ? `-Xss${kib / 1024}m` : `-Xss${kib}k`];
}
