// A fake agent channel server in TypeScript (docs/protocol.md), for tests of the client, the live model
// and the debug adapter. It holds a tiny profile (one thread, main → work) that tick() makes grow.
import * as crypto from 'crypto';
import * as net from 'net';
import { encodeFrame, Frame, FrameDecoder } from '../../../extension/channel/codec';
import { MethodEntry, SiteEntry, TypeEntry } from '../../../core/profile/types';
import { NodeUpdate, ThreadDef } from '../../../core/profile/live';
import { arrType, method, objType } from '../helpers';

export interface FakeAgentOptions {
  token: string;
  /** leave these method ids out of the initial define: the client must ask for them */
  withhold?: number[];
  /** send the given bytes instead of a welcome (protocol abuse tests) */
  rawWelcome?: Uint8Array;
}

export const TYPES: TypeEntry[] = [objType(1, 'java.lang.String', 24), arrType(2, 'int[]', 'I', 4)];
export const METHODS: MethodEntry[] = [
  method(10, 'demo.Main', 'main', { desc: '([Ljava/lang/String;)V', file: 'Main.java', line: 3 }),
  method(11, 'demo.Main', 'work', { file: 'Main.java', line: 9 }),
];
export const SITES: SiteEntry[] = [
  { id: 100, method: 10, bci: 4, line: 4, kind: 'new', type: 1 },
  { id: 101, method: 11, bci: 2, line: 10, kind: 'newarray', type: 2 },
];
const THREADS: ThreadDef[] = [{ id: 1, name: 'main', daemon: false, alive: true }];

export class FakeAgent {
  readonly server = net.createServer((s) => this.onConnection(s));
  refusedConnections = 0;
  paused = false;
  requests: Frame[] = [];
  /** called after answering a `stop` request */
  onStop: (() => void) | undefined;
  private client: net.Socket | undefined;
  private seq = 0;
  /** absolute values per node */
  nodes = new Map<number, NodeUpdate>([
    [1, { t: 1, n: 1, p: -1, a: [] }],
    [2, { t: 1, n: 2, p: 1, m: 10, calls: 1, a: [[100, 1, 0, 0, 0]] }],
    [3, { t: 1, n: 3, p: 2, m: 11, calls: 0, a: [[101, 2, 0, 0, 0]] }],
  ]);

  constructor(readonly opts: FakeAgentOptions) {}

  async listen(): Promise<number> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Drops the connected client with a reset, as a killed peer or a cut network would. */
  cutClient(): void {
    this.client?.resetAndDestroy();
    this.client = undefined;
  }

  close(): Promise<void> {
    this.client?.destroy();
    return new Promise((r) => this.server.close(() => r()));
  }

  get objects(): number {
    let n = 0;
    for (const node of this.nodes.values()) for (const r of node.a ?? []) n += r[2];
    return n;
  }

  /** main allocates `strings` Strings, calls work() once, which allocates one int[len]. Sends a delta. */
  tick(strings: number, len: number): void {
    if (this.paused) return;
    const main = this.nodes.get(2)!;
    main.a![0][2] += strings;
    main.a![0][4] += 24 * strings;
    const work = this.nodes.get(3)!;
    work.calls! += 1;
    work.a![0][2] += 1;
    work.a![0][3] += len;
    work.a![0][4] += 16 + 4 * len;
    this.sendDelta(false, [main, work]);
  }

  sendDelta(full: boolean, nodes: NodeUpdate[]): void {
    let bytes = 0;
    for (const node of this.nodes.values()) for (const r of node.a ?? []) bytes += r[4];
    this.send({
      type: 'delta', seq: ++this.seq, time: Date.now(), full, nodes,
      stats: { objects: this.objects, bytes, nodes: this.nodes.size, paused: this.paused, coalesced: 0, refusedConnections: this.refusedConnections },
    });
  }

  send(f: Frame): void {
    if (this.client && !this.client.destroyed) this.client.write(encodeFrame(f));
  }

  private refuse(s: net.Socket, reason: string): void {
    this.refusedConnections++;
    s.end(encodeFrame({ type: 'refused', reason }));
  }

  private onConnection(s: net.Socket): void {
    const decoder = new FrameDecoder();
    let greeted = false;
    const timer = setTimeout(() => { if (!greeted) this.refuse(s, 'no hello within 5 s'); }, 5000);
    s.on('error', () => undefined);
    s.on('close', () => { clearTimeout(timer); if (this.client === s) this.client = undefined; });
    s.on('data', (d) => {
      let frames: Frame[];
      try {
        frames = decoder.push(d);
      } catch (e) {
        return this.refuse(s, (e as Error).message);
      }
      for (const f of frames) {
        if (!greeted) {
          greeted = true;
          clearTimeout(timer);
          if (!this.hello(s, f)) return;
        } else {
          this.onRequest(f);
        }
      }
    });
  }

  private hello(s: net.Socket, f: Frame): boolean {
    if (f.type !== 'hello') { this.refuse(s, 'expected hello'); return false; }
    if (f.protocol !== 1) { this.refuse(s, `unsupported protocol ${String(f.protocol)}`); return false; }
    const a = Buffer.from(String(f.token));
    const b = Buffer.from(this.opts.token);
    if (a.length !== b.length || !crypto.timingSafeEqual(a as unknown as Uint8Array, b as unknown as Uint8Array)) { this.refuse(s, 'wrong token'); return false; }
    if (this.client) { this.refuse(s, 'another client is connected'); return false; }
    this.client = s;
    if (this.opts.rawWelcome) { s.write(this.opts.rawWelcome); return true; }
    this.send({ type: 'welcome', protocol: 1, pid: process.pid, meta: { agentVersion: 'fake', mode: 'exact', pid: process.pid, command: 'demo.Main', startTime: Date.now() } });
    const withhold = new Set(this.opts.withhold ?? []);
    this.send({ type: 'define', types: TYPES, methods: METHODS.filter((m) => !withhold.has(m.id)), sites: SITES, threads: THREADS });
    this.sendDelta(true, [...this.nodes.values()]);
    return true;
  }

  private onRequest(f: Frame): void {
    this.requests.push(f);
    const ok = (result: Record<string, unknown> = {}): void => this.send({ type: 'response', id: f.id as number, ok: true, result });
    switch (f.op) {
      case 'pause': this.paused = true; this.send({ type: 'event', event: 'paused' }); return ok();
      case 'resume': this.paused = false; this.send({ type: 'event', event: 'resumed' }); return ok();
      case 'snapshot': return ok({ file: '/tmp/fake.heaplens' });
      case 'gc': return ok();
      case 'reset':
        for (const n of this.nodes.values()) for (const r of n.a ?? []) { r[2] = 0; r[3] = 0; r[4] = 0; }
        this.send({ type: 'event', event: 'reset' });
        this.sendDelta(true, [...this.nodes.values()]);
        return ok();
      case 'define': {
        const want = (key: string): number[] => (Array.isArray(f[key]) ? (f[key] as number[]) : []);
        this.send({
          type: 'define',
          types: TYPES.filter((t) => want('types').includes(t.id)),
          methods: METHODS.filter((m) => want('methods').includes(m.id)),
          sites: SITES.filter((x) => want('sites').includes(x.id)),
        });
        return ok();
      }
      case 'stop': ok(); this.onStop?.(); return undefined;
      default:
        return this.send({ type: 'response', id: f.id as number, ok: false, error: `unknown op "${String(f.op)}"` });
    }
  }
}
