// A stand-in for `java` in adapter tests: understands -javaagent:JAR=…portFile=…,out=…, serves the fake
// agent channel with HEAPLENS_TOKEN, prints to stdout/stderr like a program, and writes a profile file.
// The "main class" argument selects the behaviour: demo.Missing (the JVM's not-found error), demo.Crash
// (dies before the agent starts), demo.ExitInHandshake (System.exit(3) while the client says hello: the connection
// is reset, the process ends 150 ms later with its final profile), anything else runs `ticks` (next argument, default 10) × 100 ms.
import * as fs from 'fs';
import * as net from 'net';
import { FakeAgent, METHODS, SITES, TYPES } from './fake-agent';

const args = process.argv.slice(2);
const agentArg = args.find((a) => a.startsWith('-javaagent:'));
const opts = new Map<string, string>();
if (agentArg) {
  for (const kv of agentArg.slice(agentArg.indexOf('=') + 1).split(',')) {
    const eq = kv.indexOf('=');
    opts.set(kv.slice(0, eq), kv.slice(eq + 1));
  }
}
let i = args.indexOf(agentArg ?? '') + 1;
if (args[i] === '-cp' || args[i] === '--module-path') i += 2;
if (args[i] === '-jar') i += 1;
const main = args[i] ?? '';
const rest = args.slice(i + 1);

function writeProfile(final: boolean): void {
  const out = opts.get('out');
  if (!out) return;
  const doc = {
    format: 'heaplens-profile', version: 1,
    meta: { agentVersion: 'fake', mode: 'exact', jvm: { name: 'fake', vendor: 'fake', version: '17', javaHome: '/' }, pid: process.pid,
      command: main, jvmArgs: [], startTime: Date.now(), writeTime: Date.now(), final, sequence: 1, options: {},
      layout: { objectHeader: 12, arrayHeader: 16, reference: 4, alignment: 8, compressedOops: true, source: 'fake' } },
    types: TYPES, methods: METHODS, sites: SITES, threads: [],
    transform: { classesTransformed: 0, classesSkipped: 0, classesFailed: 0, retransformed: 0, methodsProfiled: 0, sites: 0, failures: [], warnings: [] },
    agent: { threads: 0, nodes: 0, writeMillis: 0, bytesWritten: 0, collectorCycles: 0 },
  };
  fs.writeFileSync(`${out}.tmp`, JSON.stringify(doc));
  fs.renameSync(`${out}.tmp`, out);
}

async function mainProgram(): Promise<void> {
  if (main === 'demo.Crash') {
    process.stderr.write('Error occurred during initialization of VM\nInitial heap size set to a larger value than the maximum heap size\n');
    process.exit(1);
  }
  const token = process.env.HEAPLENS_TOKEN ?? (opts.get('tokenFile') ? fs.readFileSync(opts.get('tokenFile')!, 'utf8') : undefined);
  let agent: FakeAgent | undefined;
  if (main === 'demo.ExitInHandshake' && opts.get('portFile')) {
    const server = net.createServer((s) => {
      s.once('data', () => {
        s.resetAndDestroy();
        setTimeout(() => { writeProfile(true); process.exit(3); }, 150);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const pf = opts.get('portFile')!;
    fs.writeFileSync(pf, JSON.stringify({ port: (server.address() as net.AddressInfo).port, pid: process.pid, protocol: 1 }));
    return;
  }
  if (opts.get('portFile') && token && process.env.FAKE_JAVA_NO_PORT !== '1') {
    agent = new FakeAgent({ token });
    const port = await agent.listen();
    const pf = opts.get('portFile')!;
    fs.writeFileSync(`${pf}.tmp`, JSON.stringify({ port, pid: process.pid, protocol: 1 }));
    fs.renameSync(`${pf}.tmp`, pf);
  }
  const finish = (code: number): void => {
    writeProfile(true);
    process.exit(code);
  };
  process.on('SIGTERM', () => finish(143));
  if (agent) agent.onStop = () => setTimeout(() => finish(143), 20);
  if (main === 'demo.Missing') {
    writeProfile(false);        // the agent's first write comes before the JVM looks for the main class
    await new Promise((r) => setTimeout(r, 150));
    process.stderr.write(`Error: Could not find or load main class ${main}\nCaused by: java.lang.ClassNotFoundException: ${main}\n`);
    process.exit(1);
  }
  const ticks = Number(rest[0] ?? 10);
  process.stdout.write(`fake program ${main} starting (cwd ${process.cwd()}, FOO=${process.env.FOO ?? ''})\n`);
  process.stderr.write('a line on stderr\n');
  for (let t = 1; t <= ticks; t++) {
    await new Promise((r) => setTimeout(r, 100));
    agent?.tick(10, 5);
    if (String(t) === process.env.FAKE_JAVA_CUT_AT) agent?.cutClient();     // the channel drops, the program runs on
    if (t % 5 === 0) writeProfile(false);
    process.stdout.write(`tick ${t}\n`);
  }
  finish(Number(process.env.FAKE_JAVA_EXIT ?? 0));
}

void mainProgram();
