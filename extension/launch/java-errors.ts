// Turns what a JVM printed on stderr before dying into one clear sentence for the user.

export interface StartFailure {
  /** short machine-readable kind, used by tests */
  kind: 'mainClassNotFound' | 'jarMissing' | 'noMainManifest' | 'vmOptions' | 'agentJar' | 'agentFailed' | 'classVersion' | 'compileError'
    | 'agentOptions' | 'exited';
  message: string;
}

const RULES: Array<{ re: RegExp; make(m: RegExpExecArray, ctx: FailureContext): StartFailure }> = [
  {
    re: /Error: Could not find or load main class (\S+)/,
    make: (m, c) => ({
      kind: 'mainClassNotFound',
      message: `Main class "${m[1]}" was not found${c.classPath ? ` on the classpath (${c.classPath})` : ''}. `
        + 'Check "mainClass" (a fully qualified name such as com.acme.Main) and "classPaths" in the launch configuration.',
    }),
  },
  { re: /Error: Unable to access jarfile (.+)/, make: (m) => ({ kind: 'jarMissing', message: `The jar ${m[1].trim()} cannot be opened: it does not exist or is not readable.` }) },
  {
    re: /no main manifest attribute, in (.+)/,
    make: (m) => ({ kind: 'noMainManifest', message: `The jar ${m[1].trim()} has no Main-Class in its manifest: set "mainClass" and put the jar in "classPaths" instead.` }),
  },
  {
    re: /Error opening zip file or JAR manifest missing ?:? ?(.*)|Failed to find Premain-Class manifest attribute in (.*)/,
    make: (m) => ({ kind: 'agentJar', message: `The JVM could not load the HeapLens agent ${(m[1] || m[2] || '').trim()}: the extension's agent jar is damaged; reinstall HeapLens.` }),
  },
  {
    re: /UnsupportedClassVersionError: (\S+).*class file version ([\d.]+).*up to ([\d.]+)/,
    make: (m) => ({ kind: 'classVersion', message: `${m[1]} was compiled for a newer Java (class file ${m[2]}) than the JVM runs (up to ${m[3]}): set "javaHome" to a newer JDK.` }),
  },
  {
    re: /processing of -javaagent failed|agent load\/premain call failed/,
    make: (_m, c) => ({
      kind: 'agentFailed',
      message: `The HeapLens agent failed to start in this JVM${c.cause ? ` (${c.cause})` : ''}: the JVM stopped. See the Debug Console for its error, and report it with the JVM version.`,
    }),
  },
  { re: /error: compilation failed/, make: () => ({ kind: 'compileError', message: 'The source file did not compile (see the errors in the Debug Console).' }) },
  {
    re: /^(Unrecognized option: .*|Error: Cannot find module .*|Invalid maximum heap size.*|Error: A JNI error has occurred.*)$/m,
    make: (m) => ({ kind: 'vmOptions', message: `The JVM did not start: ${m[1].trim()}. Check "vmArgs".` }),
  },
  { re: /^heaplens: (.*)$/m, make: (m) => ({ kind: 'agentOptions', message: `The HeapLens agent refused its options: ${m[1].trim()}` }) },
  {
    re: /(Error occurred during initialization of VM[\s\S]*?)$|Error: Could not create the Java Virtual Machine/m,
    make: (m) => ({ kind: 'vmOptions', message: `The JVM did not start: ${(m[1] ?? 'could not create the Java Virtual Machine').split('\n').slice(0, 2).join(' ').trim()}. Check "vmArgs" and "javaHome".` }),
  },
];

export interface FailureContext {
  classPath?: string;
  /** the first Java exception line of stderr (filled in by classifyStderr) */
  cause?: string;
}

/** The first rule that matches the stderr text; undefined when nothing is recognised. */
export function classifyStderr(stderr: string, ctx: FailureContext = {}): StartFailure | undefined {
  const cause = /^(?:Caused by: )?((?:java|javax|jdk|sun)\.[\w.$]+(?:Error|Exception)\b.*)$/m.exec(stderr)?.[1]?.trim();
  for (const r of RULES) {
    const m = r.re.exec(stderr);
    if (m) return r.make(m, { ...ctx, cause: ctx.cause ?? cause });
  }
  return undefined;
}

/** The message for a JVM that ended before the profiler could connect. */
export function startFailure(stderr: string, code: number | null, signal: string | null, ctx: FailureContext = {}): StartFailure {
  const known = classifyStderr(stderr, ctx);
  if (known) return known;
  const tail = stderr.trim().split('\n').slice(-3).join(' | ');
  const how = code !== null ? `exited with code ${code}` : `was killed by ${signal ?? 'a signal'}`;
  return { kind: 'exited', message: `The JVM ${how} before HeapLens could connect${tail ? `: ${tail}` : ''}.` };
}
