// `heaplens heapdump [--pid PID] [--all] FILE.hprof`: asks a running `heaplens run` session's agent for a dump.
import * as path from 'path';
import { ChannelClient } from '../channel/client';
import { optionValue, parseArgs, UsageError } from './args';
import { CliContext } from './context';
import { runningSessions } from './sessions';

export const HEAPDUMP_USAGE = 'heaplens heapdump [--pid PID] [--all] FILE.hprof';

const SPEC = { pid: { value: true }, all: {} };

export async function heapdumpCommand(argv: readonly string[], ctx: CliContext): Promise<number> {
  const p = parseArgs(argv, SPEC);
  if (p.positional.length !== 1) throw new UsageError(`give the dump file to write\nusage: ${HEAPDUMP_USAGE}`);
  const file = path.resolve(ctx.cwd, p.positional[0]);
  if (!file.endsWith('.hprof')) throw new UsageError(`the dump file name must end with .hprof (got "${p.positional[0]}")`);
  const pidText = optionValue(p, 'pid');
  let sessions = runningSessions(ctx.env);
  if (pidText !== undefined) sessions = sessions.filter((s) => String(s.jvmPid) === pidText);
  if (sessions.length === 0) {
    throw new UsageError(pidText ? `no running heaplens session with JVM pid ${pidText}` : 'no running heaplens session (start one with heaplens run)');
  }
  if (sessions.length > 1) {
    throw new UsageError(`${sessions.length} heaplens sessions run; choose one with --pid:\n` +
      sessions.map((s) => `  --pid ${s.jvmPid}   ${s.what}`).join('\n'));
  }
  const s = sessions[0];
  const client = await ChannelClient.connect({ port: s.port, token: s.token, client: 'heaplens-cli heapdump' });
  try {
    const r = await client.request('heapDump', { file, live: !p.options.has('all') }, 10 * 60_000);
    ctx.stderr(`heaplens: heap dump of process ${s.jvmPid} written to ${r.file} (${Math.round(Number(r.bytes) / 1024)} KiB, ${r.millis} ms)\n`);
  } finally {
    client.close();
  }
  return 0;
}
