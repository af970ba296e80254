// Entry point of dist/cli.js (bin/heaplens requires it).
import { runCli } from './cli';

runCli(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  cliDir: __dirname,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then((code) => {
  process.exitCode = code;
});

// `heaplens report … | head` closes the pipe early: that is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});
