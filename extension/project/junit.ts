// JUnit 5 tests in a Java source file, found in its text (the annotations and the declarations after them), for
// the "Profile allocations" CodeLens and `heaplens test`; and the JUnit Platform console launcher's command line
// for projects that have it on their test class path. No `vscode` import.
import * as fs from 'fs';
import * as path from 'path';
import { classOfSource } from './project';

const TEST_ANNOTATIONS = /@(?:org\.junit\.jupiter\.api\.)?(?:Test|RepeatedTest|TestFactory|TestTemplate|org\.junit\.jupiter\.params\.ParameterizedTest|ParameterizedTest)\b/;

export interface TestMethod {
  name: string;
  line: number;
  /** the binary name of the class declaring it (`acme.OuterTest$Inner` for a @Nested class) */
  className: string;
}
export interface TestClass {
  /** fully qualified */
  className: string;
  /** the line of the class declaration (0-based) */
  line: number;
  methods: TestMethod[];
  /** the classes that declare test methods (the top-level one and @Nested ones), by binary name, with their lines */
  classes: { className: string; line: number }[];
}

/** For each line, the binary name of the innermost class open there (top-level classes named after `pkg`). */
function enclosingClasses(code: string, pkg: string): { perLine: (string | undefined)[]; declared: Map<string, number> } {
  const perLine: (string | undefined)[] = [undefined];
  const declared = new Map<string, number>();
  const stack: { name: string; depth: number }[] = [];
  let depth = 0, line = 0;
  let pending: string | undefined;
  const decl = /\b(?:class|interface|enum|record)\s+(\w+)/y;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '\n') {
      line++;
      perLine[line] = stack.length ? stack[stack.length - 1].name : undefined;
      continue;
    }
    decl.lastIndex = i;
    const m = (i === 0 || !/\w/.test(code[i - 1])) ? decl.exec(code) : null;
    if (m) {
      const outer = stack.length ? stack[stack.length - 1].name : undefined;
      pending = outer ? `${outer}$${m[1]}` : (pkg ? `${pkg}.${m[1]}` : m[1]);
      declared.set(pending, line);
      i += m[0].length - 1;
      continue;
    }
    if (c === '{') {
      depth++;
      if (pending) stack.push({ name: pending, depth });
      pending = undefined;
    } else if (c === '}') {
      if (stack.length && stack[stack.length - 1].depth === depth) stack.pop();
      depth--;
    }
  }
  return { perLine, declared };
}

/** Comments and string literals blanked (same length, line breaks kept), so that lines and columns stay true. */
function blank(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (m) => m.replace(/[^\n]/g, ' '));
}

/** The JUnit 5 test class of a source file (its top-level class) and its test methods; undefined when it has none. */
export function findTests(file: string, text: string): TestClass | undefined {
  if (!/org\.junit\.jupiter/.test(text)) return undefined;
  const code = blank(text);
  const lines = code.split('\n');
  const base = path.basename(file, '.java');
  const classLine = lines.findIndex((l) => new RegExp(`\\b(?:class|record)\\s+${base}\\b`).test(l));
  const top = classOfSource(file, text);
  const pkg = top.includes('.') ? top.slice(0, top.lastIndexOf('.')) : '';
  const { perLine, declared } = enclosingClasses(code, pkg);
  const methods: TestMethod[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!TEST_ANNOTATIONS.test(lines[i])) continue;
    // the declaration: the first `name(` after the annotation (and its arguments) that is not another annotation
    for (let j = i; j < Math.min(lines.length, i + 12); j++) {
      const rest = j === i ? lines[j].replace(/@[\w.]+(\s*\([^)]*\))?/g, ' ') : lines[j].replace(/@[\w.]+(\s*\([^)]*\))?/g, ' ');
      const m = /\b(?:void|[\w<>[\],.?\s]+?)\s+(\w+)\s*\(/.exec(rest);
      if (m && !/^(if|for|while|switch|return|new)$/.test(m[1])) {
        methods.push({ name: m[1], line: j, className: perLine[j] ?? top });
        i = j;
        break;
      }
    }
  }
  if (methods.length === 0) return undefined;
  const names = [...new Set(methods.map((m) => m.className))];
  if (!names.includes(top)) names.unshift(top);
  const classes = names.map((className) => ({ className, line: className === top ? Math.max(0, classLine) : declared.get(className) ?? 0 }));
  return { className: top, line: Math.max(0, classLine), methods, classes };
}

/** `com.acme.FooTest#bar` or `com.acme.FooTest`: what -Dtest and `heaplens test` take. */
export function testSelector(className: string, method?: string): string {
  return method ? `${className}#${method}` : className;
}

export function parseSelector(s: string): { className: string; method?: string } {
  const [className, method] = s.split('#');
  if (!/^[\w$]+(\.[\w$]+)*$/.test(className ?? '') || (method !== undefined && !/^[\w$]+$/.test(method))) {
    throw new Error(`"${s}" is not a test: give CLASS or CLASS#METHOD (for example com.acme.FooTest#parsesEmptyInput)`);
  }
  return { className, method };
}

const CONSOLE_JAR = /^junit-platform-console(?:-standalone)?(?:-(\d+)\.(\d+)[\w.-]*)?\.jar$/;

/** True when a jar of the console launcher is on the class path. */
export function consoleLauncherOn(classPath: readonly string[]): boolean {
  return classPath.some((e) => CONSOLE_JAR.test(path.basename(e)));
}

/** Whether the launcher on the class path takes the `execute` subcommand (JUnit Platform 1.10 and later; unknown: yes). */
export function consoleLauncherHasExecute(classPath: readonly string[]): boolean {
  const m = classPath.map((e) => CONSOLE_JAR.exec(path.basename(e))).find((x) => x);
  if (!m || m[1] === undefined) return true;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return major > 1 || minor >= 10;
}

/** Tests run and failed, from JUnit XML reports (Gradle's build/test-results, Surefire's reports) written since `since`. */
export function junitXmlCounts(dir: string, since: number): { run: number; failed: number } {
  let run = 0, failed = 0;
  let names: string[];
  try { names = fs.readdirSync(dir); } catch { return { run, failed }; }
  for (const n of names) {
    if (!/^TEST-.*\.xml$/.test(n)) continue;
    const f = path.join(dir, n);
    if (fs.statSync(f).mtimeMs < since - 1000) continue;
    const text = fs.readFileSync(f, 'utf8');
    const suite = /<testsuite\b[^>]*>/.exec(text)?.[0] ?? '';
    const attr = (a: string): number => Number(new RegExp(`\\b${a}="(\\d+)"`).exec(suite)?.[1] ?? 0);
    run += attr('tests') - attr('skipped');
    failed += attr('failures') + attr('errors');
  }
  return { run, failed };
}

/** `java … ConsoleLauncher execute --select-method …` (the `execute` subcommand exists from JUnit 1.10 on). */
export function consoleLauncherArgs(classPath: readonly string[], className: string, method: string | undefined, withSubcommand: boolean): string[] {
  const select = method ? [`--select-method=${className}#${method}`] : [`--select-class=${className}`];
  return ['-cp', classPath.join(path.delimiter), 'org.junit.platform.console.ConsoleLauncher', ...(withSubcommand ? ['execute'] : []),
    '--disable-banner', '--details=tree', ...select, '--fail-if-no-tests'];
}
