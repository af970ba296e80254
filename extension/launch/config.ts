// The `heaplens` debug configuration: the fields (like the Java debugger's plus HeapLens's own) and
// the internal block the extension adds after resolving variables. No `vscode` import.

export type ConsoleKind = 'internalConsole' | 'integratedTerminal' | 'externalTerminal';

export interface HeapLensConfig {
  type: 'heaplens';
  request: 'launch' | 'attach';
  name: string;
  /** fully qualified main class, a path to a .jar, or a path to a single .java file (`${file}`) */
  mainClass?: string;
  /** a jar to run with `java -jar` */
  jar?: string;
  projectName?: string;
  classPaths?: string[];
  modulePaths?: string[];
  vmArgs?: string | string[];
  args?: string | string[];
  cwd?: string;
  env?: Record<string, string | null>;
  envFile?: string;
  javaHome?: string;
  javaExec?: string;
  console?: ConsoleKind;
  /** package patterns (docs/agent-options.md) */
  include?: string[] | string;
  exclude?: string[] | string;
  mode?: string;
  /** where the sampled mode's samples come from: HotSpot's heap sampler (jvmti), the agent's probes or JFR (agent option sampler) */
  sampler?: string;
  /** thread-aware CPU sampling, monitor contention, deadlock detection (agent option threads=true) */
  threads?: boolean;
  /** write a heap dump (live objects) to this .hprof file when the program ends (agent option heapDumpAtExit) */
  heapDumpAtExit?: string;
  /** memory account patterns (docs/accounts.md): `a.b` that package only, `a.b.*` with sub-packages */
  accounts?: string[] | string;
  /** accounts mode: how live objects are tracked (off, sampled, exact) */
  liveness?: string;
  /** accounts: milliseconds between periodic snapshots (0: on request and at shutdown only) */
  snapshotInterval?: number;
  /** lifetime mode: every Nth object is tracked */
  sampleEvery?: number | string;
  /** thread stacks this many times larger (launch/stack-size.ts); 1 = the program's own */
  stackScale?: number;
  /** attach: the process id of a running local JVM */
  processId?: number | string;
  /** a Maven or Gradle project without classPaths: compile first when the classes are stale (default: the setting) */
  compileBeforeLaunch?: boolean;
  /** where to save the profile (file or folder); default: the workspace's .heaplens/ folder */
  profile?: string;
  /** filled in by the extension after variable substitution */
  __heaplens?: InternalConfig;
}

export interface InternalConfig {
  /** folder for profiles (the workspace's .heaplens/, or globalStorage) */
  profileDir: string;
  /** dist/ of the extension: the agent jar lives there */
  distDir: string;
  /** the workspace folder, for relative paths */
  workspaceFolder?: string;
  /** false in a restricted (untrusted) workspace: the adapter refuses to launch */
  trusted: boolean;
  /** the client's name for the handshake */
  client: string;
}

/** Bad input, said so that the user can fix it (shown as is, no stack trace). */
export class LaunchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LaunchError';
  }
}

/** Splits a command-line string the way a shell would for simple quoting ('…', "…", backslash). */
export function splitArgs(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.map(String);
  const out: string[] = [];
  let cur = '';
  let quote: string | undefined;
  let has = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < value.length) cur += value[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (c === '\\' && i + 1 < value.length) {
      cur += value[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
    }
  }
  if (quote) throw new LaunchError(`unbalanced quote in ${JSON.stringify(value)}`);
  if (has || cur) out.push(cur);
  return out;
}

/** Package patterns from a list or a `,`/`:`-separated string. */
export function patterns(value: string[] | string | undefined): string[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return list.flatMap((v) => String(v).split(/[,:]/)).map((s) => s.trim()).filter((s) => s !== '');
}

/** Parses a .env file: KEY=VALUE lines, `export` prefix, quotes, # comments. */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let v = m[2];
    if ((v.startsWith('"') && v.endsWith('"') && v.length >= 2)) v = v.slice(1, -1).replace(/\\n/g, '\n').replace(/\\"/g, '"');
    else if (v.startsWith("'") && v.endsWith("'") && v.length >= 2) v = v.slice(1, -1);
    else v = v.replace(/\s+#.*$/, '');
    env[m[1]] = v;
  }
  return env;
}
