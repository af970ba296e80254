// What goes wrong while resolving a Maven or Gradle project, said in the user's words. No `vscode` import.

export type ProjectProblem = 'noJdk' | 'noBuildTool' | 'buildFailed' | 'noMainClass' | 'noTests' | 'noProject' | 'noModule';

/** A problem the user can fix; `output` is the build tool's own output when it failed (shown as is). */
export class ProjectError extends Error {
  constructor(readonly kind: ProjectProblem, message: string, readonly output?: string) {
    super(message);
    this.name = 'ProjectError';
  }
}

/** The last lines of a build's output: the part that says what failed. */
export function tail(text: string, lines = 40): string {
  const all = text.replace(/\x1b\[[0-9;]*m/g, '').split(/\r?\n/);
  while (all.length && all[all.length - 1].trim() === '') all.pop();
  return all.slice(-lines).join('\n');
}
