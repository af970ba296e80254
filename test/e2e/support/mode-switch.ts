// The modeswitch fixture driven through a live switch exact → sampled → exact (phases of 100,000, 50,000 and 25,000
// Markers), shared by the sampler tests: the agent started with the given options, the switches sent on the channel.
import * as assert from 'assert/strict';
import { spawn } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { ChannelClient, MODE_SWITCH_TIMEOUT_MS } from '../../../extension/channel/client';
import { waitForPortFile } from '../../../extension/channel/portfile';
import { PROFILE_DIR, ROOT } from './env';

/** Runs it; resolves to the switch-to-sampled response and the profile's text once the JVM exited with 0. */
export async function runExactSampledExact(java: string, name: string, agentOptions: string, classpath: string):
    Promise<{ toSampled: Record<string, unknown>; profile: string }> {
  const out = path.join(PROFILE_DIR, `${name}.heaplens`);
  const portFile = path.join(PROFILE_DIR, `${name}.port`);
  for (const f of [out, portFile]) fs.rmSync(f, { force: true });
  const token = crypto.randomBytes(24).toString('hex');
  const agent = path.join(ROOT, 'dist', 'heaplens-agent.jar');
  const options = [`out=${out}`, `portFile=${portFile}`, agentOptions].filter(Boolean).join(',');
  const child = spawn(java, [`-javaagent:${agent}=${options}`, '-cp', classpath, 'modeswitch.Main'],
    { env: { ...process.env, HEAPLENS_TOKEN: token }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '', stderr = '';
  child.stdout!.on('data', (d) => { stdout += d; });
  child.stderr!.on('data', (d) => { stderr += d; });
  const phaseDone = async (n: number): Promise<void> => {
    for (let i = 0; i < 600 && !stdout.includes(`phase ${n} done`); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(stdout.includes(`phase ${n} done`), `phase ${n} did not finish: ${stdout}`);
  };
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  try {
    const port = await waitForPortFile(portFile, { timeoutMs: 60_000 });
    const client = await ChannelClient.connect({ port: port.port, token, client: 'e2e' });
    child.stdin!.write('go\n');
    await phaseDone(1);                                  // 100,000 Markers, exact
    const toSampled = await client.request('mode', { mode: 'sampled' }, MODE_SWITCH_TIMEOUT_MS);
    child.stdin!.write('go\n');
    await phaseDone(2);                                  // 50,000 sampled: the original code runs
    await client.request('mode', { mode: 'exact' }, MODE_SWITCH_TIMEOUT_MS);
    child.stdin!.write('go\n');
    await phaseDone(3);                                  // 25,000 exact again
    client.close();
    child.stdin!.end();
    assert.equal(await exited, 0, stderr);
    return { toSampled: toSampled as Record<string, unknown>, profile: fs.readFileSync(out, 'utf8') };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

interface CountedNode { m?: number; a?: ReadonlyArray<readonly (number | undefined)[]>; c?: CountedNode[] }

/** Visits every node of a tree with its method path (nodes without a method add nothing to it). */
export function walk<N extends CountedNode>(n: N | undefined, visit: (n: N, path: number[]) => void, path: number[] = []): void {
  if (!n) return;
  const p = n.m === undefined ? path : [...path, n.m];
  visit(n, p);
  for (const c of (n.c ?? []) as N[]) walk(c, visit, p);
}

/** Objects of a type in every thread's exact tree (records are [site, type, count, …]). */
export function exactCount(doc: { types: { id: number; name: string }[]; threads: { root?: CountedNode }[] }, typeName: string): number {
  const ids = new Set(doc.types.filter((t) => t.name === typeName).map((t) => t.id));
  let n = 0;
  for (const t of doc.threads) walk(t.root, (node) => { for (const [, type, count] of node.a ?? []) if (ids.has(type!)) n += count!; });
  return n;
}
