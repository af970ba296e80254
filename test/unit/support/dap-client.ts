// A minimal Debug Adapter Protocol client over in-memory streams, to drive the adapter in unit tests.
import { PassThrough } from 'stream';
import { DebugSession } from '@vscode/debugadapter';

export interface DapMessage { seq: number; type: string; command?: string; event?: string; success?: boolean; message?: string; body?: any; request_seq?: number; arguments?: any }

export class DapClient {
  readonly toAdapter = new PassThrough();
  readonly fromAdapter = new PassThrough();
  readonly messages: DapMessage[] = [];
  private seq = 1;
  private buf = Buffer.alloc(0);
  private waiters: Array<() => void> = [];
  /** reverse requests (runInTerminal) are answered by this */
  onReverse: ((m: DapMessage) => any) | undefined;

  constructor(session: DebugSession) {
    session.start(this.toAdapter, this.fromAdapter);
    this.fromAdapter.on('data', (d: Buffer) => this.onData(d));
  }

  private onData(d: Buffer): void {
    this.buf = Buffer.concat([this.buf, d] as unknown as Uint8Array[]);
    for (;;) {
      const sep = this.buf.indexOf('\r\n\r\n');
      if (sep < 0) return;
      const len = Number(/Content-Length: (\d+)/.exec(this.buf.subarray(0, sep).toString())![1]);
      if (this.buf.length < sep + 4 + len) return;
      const msg = JSON.parse(this.buf.subarray(sep + 4, sep + 4 + len).toString()) as DapMessage;
      this.buf = this.buf.subarray(sep + 4 + len);
      if (msg.type === 'request' && this.onReverse) this.send({ type: 'response', request_seq: msg.seq, command: msg.command, success: true, body: this.onReverse(msg) });
      this.messages.push(msg);
      this.waiters.splice(0).forEach((w) => w());
    }
  }

  private send(m: Record<string, unknown>): number {
    const seq = this.seq++;
    const json = JSON.stringify({ seq, ...m });
    this.toAdapter.write(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
    return seq;
  }

  /** Sends a request and resolves to its response (success or not). */
  async request(command: string, args: unknown = {}, timeoutMs = 20000): Promise<DapMessage> {
    const seq = this.send({ type: 'request', command, arguments: args });
    return this.waitFor((m) => m.type === 'response' && m.request_seq === seq, timeoutMs, `response to ${command}`);
  }

  waitFor(pred: (m: DapMessage) => boolean, timeoutMs = 20000, what = 'message'): Promise<DapMessage> {
    return new Promise((resolve, reject) => {
      const t0 = Date.now();
      const check = (): void => {
        const m = this.messages.find(pred);
        if (m) return resolve(m);
        if (Date.now() - t0 > timeoutMs) return reject(new Error(`timed out waiting for ${what}; got ${this.messages.map((x) => x.command ?? x.event).join(',')}`));
        this.waiters.push(check);
        setTimeout(() => { const i = this.waiters.indexOf(check); if (i >= 0) { this.waiters.splice(i, 1); check(); } }, 50);
      };
      check();
    });
  }

  events(name: string): DapMessage[] {
    return this.messages.filter((m) => m.type === 'event' && m.event === name);
  }

  output(category?: string): string {
    return this.events('output').filter((m) => !category || m.body.category === category).map((m) => m.body.output).join('');
  }
}
