// F5 on a single Java file: the JDK's source launcher (`java Foo.java`) compiles the file in memory inside
// the profiled JVM, so the profile would be mostly javac (com.sun.tools.javac frames, main's share a third).
// The file is compiled first with the same JDK's javac into the session's temporary folder, and the
// program's class is run from there: the profile holds the program only. No `vscode` import.
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { LaunchError } from './config';
import { LaunchPlan } from './plan';

/** The class the source launcher would run: the package, then the first top-level type of the file. */
export function mainClassOfSource(text: string): string | undefined {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/.*$/gm, ' ').replace(/"(?:\\.|[^"\\\n])*"/g, '""');
  const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(code)?.[1];
  const type = /\b(?:class|interface|enum|record)\s+([A-Za-z_$][\w$]*)/.exec(code)?.[1];
  if (!type) return undefined;
  return pkg ? `${pkg}.${type}` : type;
}

/** The plan with the compiled class in place of the source file: `-cp classes[:classPath] Main`. */
export function runCompiled(plan: LaunchPlan, source: string, classes: string, mainClass: string): LaunchPlan {
  const args = [...plan.args];
  const at = args.indexOf(source);
  if (at < 0) throw new Error(`the launch has no source file ${source}`);
  const classPath = plan.classPath ? [classes, plan.classPath].join(path.delimiter) : classes;
  const cp = args.indexOf('-cp');
  if (cp >= 0 && cp < at) {
    args[cp + 1] = classPath;
    args[at] = mainClass;
  } else {
    args.splice(at, 1, '-cp', classPath, mainClass);
  }
  return { ...plan, args, classPath };
}

/** javac next to the plan's java (a JRE has none: then undefined, and the source launcher is kept). */
export function javacOf(java: string): string | undefined {
  const javac = path.join(path.dirname(java), process.platform === 'win32' ? 'javac.exe' : 'javac');
  return fs.existsSync(javac) ? javac : undefined;
}

/**
 * Compiles `source` with debug information (line numbers for the views) into the plan's temporary folder
 * and returns the plan that runs it; a compile error is the launch's error, with javac's own words.
 */
export async function compileSingleFile(plan: LaunchPlan, source: string, log: (line: string) => void): Promise<LaunchPlan> {
  const javac = javacOf(plan.java);
  const text = fs.readFileSync(source, 'utf8');
  const main = mainClassOfSource(text);
  if (!javac || !main) {
    log(`HeapLens: ${!javac ? `no javac next to ${plan.java}` : 'no class found in the file'}; the file runs through the source launcher, and its compile is part of the profile.\n`);
    return plan;
  }
  const classes = path.join(plan.tmpDir, 'classes');
  fs.mkdirSync(classes, { recursive: true });
  const args = ['-g', '-d', classes, ...(plan.classPath ? ['-cp', plan.classPath] : []), source];
  const started = Date.now();
  await new Promise<void>((resolve, reject) => {
    execFile(javac, args, { cwd: plan.cwd, env: plan.env, maxBuffer: 4 << 20 }, (err, _out, stderr) => {
      if (!err) return resolve();
      const words = String(stderr).trim().split('\n').slice(0, 12).join('\n');
      reject(new LaunchError(`${path.basename(source)} does not compile:\n${words || err.message}`));
    });
  });
  log(`HeapLens: compiled ${path.basename(source)} in ${Date.now() - started} ms; profiling ${main}\n`);
  return runCompiled(plan, source, classes, main);
}
