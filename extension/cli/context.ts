// What a CLI command may touch: arguments, environment, working directory and output streams.

export interface CliContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** directory of the CLI bundle (dist/): the agent jar is looked up next to it */
  cliDir: string;
  stdout(text: string): void;
  stderr(text: string): void;
}
