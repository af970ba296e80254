// "Profile allocations" over JUnit 5 test classes and methods, and the command behind it: the test runs under the
// agent through the project's build (extension/project/test-run.ts), and when it ends its profile opens focused on
// the test method's subtree (heaplens.focusMethod), the test's own allocations apart from the test framework's.
import * as path from 'path';
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { agentArgument } from '../cli/run-command';
import { findAgentJar } from '../cli/locate';
import { JdkChecks } from '../launch/jdk';
import { showJdkProblem } from '../launch/jdk-ui';
import { loadProfile } from '../../core/profile/load';
import { ProjectError } from '../project/errors';
import { findTests, TestClass, testSelector } from '../project/junit';
import { findProject } from '../project/project';
import { defaultCacheDir } from '../project/resolve';
import { runTest } from '../project/test-run';
import { setting } from '../settings';
import { FOCUS_COMMAND, FocusRequest, frameOf } from './refs';

export interface ProfileTestArgs { file: string; className: string; method?: string }

export class TestLenses implements vscode.CodeLensProvider {
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (doc.uri.scheme !== 'file' || !doc.fileName.endsWith('.java')) return [];
    const tests = findTests(doc.fileName, doc.getText());
    if (!tests) return [];
    const lens = (line: number, className: string, method: string | undefined): vscode.CodeLens => new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
      title: 'Profile allocations',
      tooltip: `HeapLens: run ${testSelector(className, method)} under the profiler and show what it allocated`,
      command: COMMANDS.profileTest,
      arguments: [{ file: doc.fileName, className, method } satisfies ProfileTestArgs],
    });
    return [...tests.classes.map((c) => lens(c.line, c.className, undefined)), ...tests.methods.map((m) => lens(m.line, m.className, m.name))]
      .sort((a, b) => a.range.start.line - b.range.start.line);
  }
}

/** The test at the cursor of the active editor: the test method whose declaration is nearest above it, else the class. */
export function testAtCursor(tests: TestClass, line: number): { className: string; method?: string } {
  const above = tests.methods.filter((m) => m.line <= line).pop();
  return above ? { className: above.className, method: above.name } : { className: tests.className };
}

function stamp(now: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
}

export function registerTestLenses(ctx: vscode.ExtensionContext, output: vscode.OutputChannel, useProfile: (file: string) => void,
  errors: string[] = []): vscode.Disposable[] {
  const jdks = new JdkChecks();
  const fail = (message: string, buildOutput?: string): void => {
    errors.push(message);
    if (buildOutput) output.appendLine(buildOutput);
    output.appendLine(`error: ${message}`);
    void vscode.window.showErrorMessage(`HeapLens: ${message}`, ...(buildOutput ? ['Show Build Output'] : [])).then((c) => {
      if (c) output.show(true);
    });
  };
  const profileTest = async (args?: ProfileTestArgs): Promise<string | undefined> => {
    if (!args) {
      const ed = vscode.window.activeTextEditor;
      const tests = ed && findTests(ed.document.fileName, ed.document.getText());
      if (!ed || !tests) {
        fail('open a JUnit 5 test class to profile one of its tests.');
        return undefined;
      }
      args = { file: ed.document.fileName, ...testAtCursor(tests, ed.selection.active.line) };
    }
    if (!vscode.workspace.isTrusted) {
      fail('HeapLens does not run tests in a restricted workspace. Trust this workspace to profile them.');
      return undefined;
    }
    const ws = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(args.file));
    if (!findProject(args.file, ws?.uri.fsPath)) {
      fail(`${path.basename(args.file)} is not in a Maven or Gradle project (no pom.xml or build.gradle above it): HeapLens runs tests through the project's build.`);
      return undefined;
    }
    const javaHome = setting('javaHome') || undefined;
    const jdk = jdks.check({ javaHome }, process.env);
    if (!jdk.ok) {
      errors.push(jdk.message);
      void showJdkProblem(jdk.message);
      return undefined;
    }
    const selector = testSelector(args.className, args.method);
    const folder = ws?.uri.fsPath ?? path.dirname(args.file);
    const profile = path.join(folder, '.heaplens', `${selector.replace(/^.*\./, '').replace(/[^\w.-]+/g, '.')}-${stamp(new Date())}.heaplens`);
    const agentArg = agentArgument(findAgentJar(process.env, ctx.asAbsolutePath('dist')), { out: profile, include: [], exclude: [], extra: [] });
    output.appendLine(`HeapLens: profiling the test ${selector}`);
    try {
      const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `HeapLens: profiling ${selector}`, cancellable: true }, (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return runTest({
          start: args!.file, boundary: ws?.uri.fsPath, java: jdk.jdk.java, env: { ...process.env, ...(javaHome ? { JAVA_HOME: javaHome } : {}) },
          cacheDir: path.join(ctx.globalStorageUri.fsPath, 'cache') || defaultCacheDir(process.env), signal: abort.signal,
          className: args!.className, method: args!.method, agentArg, profile,
          onOutput: (t) => output.append(t),
          onStep: (t) => {
            output.appendLine(`HeapLens: ${t}`);
            if (!t.includes(' -D')) progress.report({ message: t });
          },
        });
      });
      output.appendLine(`HeapLens: ${r.run} test${r.run === 1 ? '' : 's'} ran${r.failed ? `, ${r.failed} failed` : ''}; profile saved to ${profile}`);
      if (r.failed) void vscode.window.showWarningMessage(`HeapLens: ${selector}: ${r.failed} of ${r.run} failed (the profile is shown all the same).`, 'Show Output').then((c) => c && output.show(true));
      useProfile(profile);
      await showTest(profile, args.className, args.method);
      return profile;
    } catch (e) {
      if (e instanceof ProjectError) fail(e.message + (e.output ? ' (see the output)' : ''), e.output);
      else fail(`the test run failed: ${(e as Error).message}`);
      return undefined;
    }
  };
  return [
    vscode.languages.registerCodeLensProvider([{ language: 'java', scheme: 'file' }, { pattern: '**/*.java', scheme: 'file' }], new TestLenses()),
    vscode.commands.registerCommand(COMMANDS.profileTest, profileTest),
  ];
}

/** Opens the profile focused on the test method(s): the class's test methods when a whole class ran. */
async function showTest(file: string, className: string, method: string | undefined): Promise<void> {
  const profile = loadProfile(file);
  const methods = [...profile.methods.values()].filter((m) => m.class === className && (method ? m.name === method : !m.name.startsWith('<') && !m.name.startsWith('lambda$')));
  if (methods.length === 0) {
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), 'heaplens.profileEditor');
    return;
  }
  const req: FocusRequest = { source: { kind: 'file', file }, frames: methods.map(frameOf) };
  await vscode.commands.executeCommand(FOCUS_COMMAND, req);
}
