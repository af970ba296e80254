// The wire client: connects to the agent on 127.0.0.1, performs the handshake with the launch's token,
// then delivers typed messages and matches requests to their responses (with timeouts).
import { EventEmitter } from 'events';
import * as net from 'net';
import { encodeFrame, FrameDecoder, ProtocolError } from './codec';
import { AgentEvent, AgentMessage, Define, Delta, parseAgentMessage, PROTOCOL_VERSION, Response, Welcome } from './messages';

export interface ConnectOptions {
  port: number;
  token: string;
  /** e.g. "vscode 1.139" or "heaplens-cli 0.1" */
  client: string;
  host?: string;
  /** connect + handshake deadline (default 10 s) */
  handshakeTimeoutMs?: number;
  /** default deadline of requests (default 15 s) */
  requestTimeoutMs?: number;
}

/** The agent refused the handshake (wrong token, version, …). */
export class RefusedError extends Error {
  constructor(readonly reason: string) {
    super(`the agent refused the connection: ${reason}`);
    this.name = 'RefusedError';
  }
}

/**
 * The agent let the connection go before it read the hello (it keeps at most 8 waiting) or the connection broke
 * during the handshake: worth another try while the program runs (a program that has ended refuses the next connect).
 */
export class DroppedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DroppedError';
  }
}

/** The start of the agent's reason when it drops a waiting peer for a newer one (ChannelServer.evictOne). */
const EVICTED = 'too many connections waiting for their hello';
/** Tries of one connect: the first and up to three more, 50, 100 and 150 ms apart. */
const CONNECT_ATTEMPTS = 4;

/** A request that the agent answered with ok: false, or that timed out / lost its connection. */
export class RequestError extends Error {
  constructor(readonly op: string, message: string) {
    super(`${op}: ${message}`);
    this.name = 'RequestError';
  }
}

/** A mode switch retransforms every loaded class the new mode instruments: seconds on a big or busy JVM, not a frame's round trip. */
export const MODE_SWITCH_TIMEOUT_MS = 120_000;

interface Pending { op: string; resolve(r: Record<string, unknown>): void; reject(e: Error): void; timer: NodeJS.Timeout }

/**
 * Events: 'define' (Define), 'delta' (Delta), 'event' (AgentEvent), 'close' (Error | undefined: why it closed,
 * undefined after close() or a clean end).
 */
export class ChannelClient extends EventEmitter {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;
  private closeReason: Error | undefined;

  private constructor(private readonly socket: net.Socket, readonly welcome: Welcome, private readonly requestTimeoutMs: number) {
    super();
  }

  /**
   * Connects and completes the handshake; rejects with RefusedError, ProtocolError or a network error. A connection
   * the agent dropped before its hello was read (more peers waiting than it keeps: see ChannelServer's eviction) is
   * tried again, a few times within the handshake's deadline: on a starved machine strangers that keep re-opening
   * sockets can make the rightful client look like the oldest silent peer. Any other refusal fails at once.
   */
  static async connect(opts: ConnectOptions): Promise<ChannelClient> {
    const deadline = Date.now() + (opts.handshakeTimeoutMs ?? 10000);
    for (let attempt = 1; ; attempt++) {
      const left = deadline - Date.now();
      try {
        return await ChannelClient.connectOnce({ ...opts, handshakeTimeoutMs: Math.max(1, left) });
      } catch (e) {
        const wait = 50 * attempt;
        if (!(e instanceof DroppedError) || attempt >= CONNECT_ATTEMPTS || Date.now() + wait >= deadline) throw e;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  private static connectOnce(opts: ConnectOptions): Promise<ChannelClient> {
    const host = opts.host ?? '127.0.0.1';
    return new Promise((resolve, reject) => {
      let helloSent = false;
      const socket = net.createConnection({ host, port: opts.port });
      const decoder = new FrameDecoder();
      let settled = false;
      const fail = (e: Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        reject(e);
      };
      const timer = setTimeout(() => fail(new Error(`no answer from the agent at ${host}:${opts.port} within ${opts.handshakeTimeoutMs ?? 10000} ms`)),
        opts.handshakeTimeoutMs ?? 10000);
      socket.on('error', (e) => fail(helloSent
        ? new DroppedError(`the agent dropped the connection during the handshake: ${e.message}`)
        : new Error(`cannot connect to the agent at ${host}:${opts.port}: ${e.message}`)));
      socket.on('close', () => fail(new DroppedError('the agent closed the connection during the handshake')));
      socket.on('connect', () => {
        helloSent = true;
        socket.write(encodeFrame({ type: 'hello', protocol: PROTOCOL_VERSION, token: opts.token, client: opts.client }));
      });
      const onData = (data: Buffer): void => {
        let frames;
        try {
          frames = decoder.push(data);
        } catch (e) {
          return fail(e as Error);
        }
        if (frames.length === 0) return;
        let first: AgentMessage;
        try {
          first = parseAgentMessage(frames[0]);
        } catch (e) {
          return fail(e as Error);
        }
        if (first.type === 'refused') return fail(first.reason.startsWith(EVICTED) ? new DroppedError(`the agent refused the connection: ${first.reason}`) : new RefusedError(first.reason));
        if (first.type !== 'welcome') return fail(new ProtocolError(`expected "welcome", got "${first.type}"`));
        if (first.protocol !== PROTOCOL_VERSION) return fail(new ProtocolError(`the agent speaks protocol ${first.protocol}, this client ${PROTOCOL_VERSION}`));
        settled = true;
        clearTimeout(timer);
        socket.removeAllListeners();
        const client = new ChannelClient(socket, first, opts.requestTimeoutMs ?? 15000);
        client.attach(decoder);
        resolve(client);
        // Frames that arrived with the welcome are delivered once the caller has had a chance to subscribe.
        const rest = frames.slice(1);
        if (rest.length > 0) setImmediate(() => client.deliver(rest));
      };
      socket.on('data', onData);
    });
  }

  private attach(decoder: FrameDecoder): void {
    this.socket.on('data', (data: Buffer) => {
      let frames;
      try {
        frames = decoder.push(data);
      } catch (e) {
        return this.shutdown(e as Error);
      }
      this.deliver(frames);
    });
    this.socket.on('error', (e) => this.shutdown(new Error(`channel error: ${e.message}`)));
    this.socket.on('close', () => this.shutdown(undefined));
  }

  private deliver(frames: readonly import('./codec').Frame[]): void {
    for (const f of frames) {
      if (this.closed) return;
      let msg: AgentMessage;
      try {
        msg = parseAgentMessage(f);
      } catch (e) {
        return this.shutdown(e as Error);
      }
      this.dispatch(msg);
    }
  }

  private dispatch(msg: AgentMessage): void {
    switch (msg.type) {
      case 'define': this.emit('define', msg as Define); break;
      case 'delta': this.emit('delta', msg as Delta); break;
      case 'event': this.emit('event', msg as AgentEvent); break;
      case 'response': this.settle(msg as Response); break;
      case 'refused': this.shutdown(new RefusedError((msg as { reason: string }).reason)); break;
      default: break; // a second welcome: ignored
    }
  }

  private settle(r: Response): void {
    const p = this.pending.get(r.id);
    if (!p) return; // late answer to a request that timed out
    this.pending.delete(r.id);
    clearTimeout(p.timer);
    if (r.ok) p.resolve(r.result ?? {});
    else p.reject(new RequestError(p.op, r.error));
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Sends a request; resolves to its result, rejects with RequestError (agent error, timeout, closed). */
  request(op: string, args: Record<string, unknown> = {}, timeoutMs = this.requestTimeoutMs): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(new RequestError(op, 'the channel to the agent is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RequestError(op, `no response from the agent within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { op, resolve, reject, timer });
      this.socket.write(encodeFrame({ ...args, type: 'request', id, op }));
    });
  }

  /** Closes the connection (the JVM keeps running). */
  close(): void {
    this.shutdown(undefined);
  }

  private shutdown(reason: Error | undefined): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = reason;
    this.socket.destroy();
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new RequestError(p.op, reason ? `channel closed: ${reason.message}` : 'the channel to the agent closed'));
      this.pending.delete(id);
    }
    this.emit('close', reason);
  }

  get error(): Error | undefined {
    return this.closeReason;
  }
}
