// A connected client feeding a LiveProfile: applies define/delta frames, asks the agent for every id a
// delta used before its definition, and offers the profiler requests. Shared by the debug adapter and the CLI.
import { EventEmitter } from 'events';
import { LiveProfile } from '../../core/profile/live';
import { Meta } from '../../core/profile/types';
import { ChannelClient, ConnectOptions } from './client';
import { AgentEvent, Define, Delta } from './messages';

/**
 * Events: 'update' (after each delta is applied), 'event' (AgentEvent), 'close' (Error | undefined),
 * 'warning' (string).
 */
export class LiveSession extends EventEmitter {
  readonly profile: LiveProfile;
  private readonly asked = new Set<string>();
  private defineInFlight = false;
  /** define requests sent for unknown ids */
  defineRequests = 0;

  constructor(readonly client: ChannelClient) {
    super();
    this.profile = new LiveProfile(client.welcome.meta as Partial<Meta>);
    client.on('define', (d: Define) => this.profile.applyDefine(d));
    client.on('delta', (d: Delta) => {
      this.profile.applyDelta(d);
      this.askForUnknownIds();
      this.emit('update', this.profile);
    });
    client.on('event', (e: AgentEvent) => {
      // a switch made by any client: the views say from when the data came from which mode
      if (e.event === 'mode' && typeof e.mode === 'string') {
        this.profile.noteMode(e.mode, Date.now(), e as { retransformed?: number; retransformMillis?: number });
        this.emit('update', this.profile);
      }
      this.emit('event', e);
    });
    client.on('close', (why: Error | undefined) => this.emit('close', why));
  }

  static async connect(opts: ConnectOptions): Promise<LiveSession> {
    return new LiveSession(await ChannelClient.connect(opts));
  }

  get pid(): number {
    return this.client.welcome.pid;
  }

  get isOpen(): boolean {
    return this.client.isOpen;
  }

  /** Sends one `define` request for the ids not yet asked for; the agent answers with a define frame first. */
  private askForUnknownIds(): void {
    if (this.defineInFlight || !this.client.isOpen) return;
    const missing = this.profile.missingIds();
    const fresh = (kind: string, ids: number[]): number[] => ids.filter((id) => !this.asked.has(`${kind}:${id}`));
    const req = { types: fresh('t', missing.types), methods: fresh('m', missing.methods), sites: fresh('s', missing.sites) };
    if (req.types.length + req.methods.length + req.sites.length === 0) return;
    req.types.forEach((id) => this.asked.add(`t:${id}`));
    req.methods.forEach((id) => this.asked.add(`m:${id}`));
    req.sites.forEach((id) => this.asked.add(`s:${id}`));
    this.defineInFlight = true;
    this.defineRequests++;
    this.client.request('define', req).then(
      () => {
        this.defineInFlight = false;
        this.askForUnknownIds(); // sites may have named methods/types we lack
        this.emit('update', this.profile);
      },
      (e: Error) => {
        this.defineInFlight = false;
        if (this.client.isOpen) this.emit('warning', `could not get definitions from the agent: ${e.message}`);
      },
    );
  }

  pause(): Promise<Record<string, unknown>> { return this.client.request('pause'); }
  resume(): Promise<Record<string, unknown>> { return this.client.request('resume'); }
  snapshot(): Promise<Record<string, unknown>> { return this.client.request('snapshot'); }
  gc(): Promise<Record<string, unknown>> { return this.client.request('gc'); }
  reset(): Promise<Record<string, unknown>> { return this.client.request('reset'); }
  stop(): Promise<Record<string, unknown>> { return this.client.request('stop'); }

  close(): void {
    this.client.close();
  }
}
