// The `heaplens` debug adapter (inline @vscode/debugadapter): starts or attaches to a JVM with the agent,
// streams its output to the Debug Console, connects the live channel, forwards profiler requests and
// reports live statistics as custom events. No `vscode` import: it is tested over plain streams too.
import { DebugSession, Event, ExitedEvent, InitializedEvent, OutputEvent, TerminatedEvent } from '@vscode/debugadapter';
import { DebugProtocol } from '@vscode/debugprotocol';
import * as fs from 'fs';
import * as os from 'os';
import { LiveSession } from '../channel/session';
import { MODE_SWITCH_TIMEOUT_MS } from '../channel/client';
import { HeapLensConfig, LaunchError } from './config';
import { startFailure } from './java-errors';
import { AccountedFigures, accountedFigures } from './accounted';
import { ChildJvm, Jvm, PidJvm } from './jvm-process';
import { LaunchPlan } from './plan';
import { startAttach, startLaunch, StartResult } from './start';

/** Custom events (vscode.debug.onDidReceiveDebugSessionCustomEvent). */
export const EVENTS = {
  stats: 'heaplens.stats', saved: 'heaplens.profileSaved', error: 'heaplens.error', started: 'heaplens.started', deadlock: 'heaplens.deadlock',
  /** the live channel dropped while the program runs on: body { profile, reason } (the extension follows the file instead) */
  channelLost: 'heaplens.channelLost',
} as const;
/** Custom requests (session.customRequest). */
export const REQUESTS = ['pause', 'resume', 'snapshot', 'gc', 'reset', 'mode'] as const;
/** The agent's modes (docs/agent-options.md), switchable while the program runs. */
export const MODES = ['exact', 'sites', 'sampled', 'paused'] as const;

export interface StatsBody {
  objects: number; bytes: number; nodes: number; paused: boolean; coalesced: number;
  objectsPerSecond: number; bytesPerSecond: number; sequence: number; threads: number;
  /** arrays allocated, when the agent reports them (stats.objects counts non-array objects only) */
  arrays?: number;
  /** the agent's recording mode now (exact, sites, sampled, paused, accounts) */
  mode?: string;
  /** the accounts mode's own counts (its live channel carries none): accounted.ts */
  accounted?: AccountedFigures;
}

export interface AdapterOptions {
  env?: NodeJS.ProcessEnv;
  /** how long to wait for the agent's port file (default 30 s) */
  portTimeoutMs?: number;
  /** min ms between stats events (default 500) */
  statsIntervalMs?: number;
  /** called once the live channel is up (the extension keeps the model for its views) */
  onLive?: (live: LiveSession, plan: LaunchPlan) => void;
}

export class HeapLensDebugSession extends DebugSession {
  private jvm: Jvm | undefined;
  private live: LiveSession | undefined;
  private plan: LaunchPlan | undefined;
  /** the mode the agent records in, apart from pauses (StatsBody.mode) */
  private mode = 'exact';
  private attached = false;
  private lastStats = 0;
  private statsTimer: NodeJS.Timeout | undefined;
  private finished = false;
  private responded!: () => void;
  /** settles once the launch/attach request has been answered: exit handling waits for it */
  private readonly answered = new Promise<void>((r) => { this.responded = r; });

  constructor(private readonly opts: AdapterOptions = {}) {
    super();
  }

  protected initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = { supportsTerminateRequest: true, supportsConfigurationDoneRequest: false };
    this.sendResponse(response);
    this.sendEvent(new InitializedEvent());
  }

  private print(text: string, category: 'console' | 'stdout' | 'stderr' | 'important' = 'console'): void {
    this.sendEvent(new OutputEvent(text, category));
  }

  private fail(response: DebugProtocol.Response, e: unknown): void {
    const message = e instanceof Error ? e.message : String(e);
    if (!(e instanceof LaunchError)) this.print(`HeapLens: ${e instanceof Error ? e.stack ?? message : message}\n`, 'stderr');
    this.sendErrorResponse(response, { id: 4001, format: `HeapLens: ${message.replace(/\{/g, '(').replace(/\}/g, ')')}`, showUser: true });
  }

  protected async launchRequest(response: DebugProtocol.LaunchResponse, args: DebugProtocol.LaunchRequestArguments): Promise<void> {
    await this.begin(response, () => startLaunch(this, args as HeapLensConfig, this.opts));
  }

  protected async attachRequest(response: DebugProtocol.AttachResponse, args: DebugProtocol.AttachRequestArguments): Promise<void> {
    this.attached = true;
    await this.begin(response, () => startAttach(this, args as HeapLensConfig, this.opts));
  }

  /** Used by start.ts: output from the JVM and messages to the Debug Console. */
  output(text: string, category: 'console' | 'stdout' | 'stderr' | 'important' = 'console'): void {
    this.print(text, category);
  }

  /** Used by start.ts: remember the JVM as soon as it exists, so its exit is handled. */
  adopt(jvm: Jvm, plan: LaunchPlan): void {
    this.jvm = jvm;
    this.plan = plan;
    this.mode = plan.mode ?? 'exact';
    jvm.on('output', (category: 'stdout' | 'stderr', text: string) => this.print(text, category));
    jvm.once('exit', () => void this.onExit());
  }

  private async begin(response: DebugProtocol.Response, how: () => Promise<StartResult>): Promise<void> {
    let r: StartResult;
    try {
      r = await how();
    } catch (e) {
      this.fail(response, e);
      if (!this.attached) this.jvm?.kill(); // never kill a JVM we attached to
      this.finished = true;
      this.responded();
      return;
    }
    this.sendResponse(response);
    this.responded();
    this.sendEvent(new Event(EVENTS.started, { profile: r.plan.profile, pid: this.jvm?.pid, target: r.plan.target, live: !!r.live }));
    if (r.live) this.connectLive(r.live, r.plan);
    else if (r.warning) this.sendEvent(new Event(EVENTS.error, { message: r.warning }));
  }

  private connectLive(live: LiveSession, plan: LaunchPlan): void {
    this.live = live;
    live.on('update', () => this.scheduleStats());
    live.on('warning', (w: string) => this.print(`HeapLens: ${w}\n`));
    live.on('event', (e: { event: string; deadlock?: unknown }) => {
      if (e.event === 'paused' || e.event === 'resumed') this.sendStats();
      if (e.event === 'deadlock' && e.deadlock) this.sendEvent(new Event(EVENTS.deadlock, e.deadlock));
    });
    live.on('close', (why: Error | undefined) => {
      // The channel also closes when the JVM is about to end: only say it when the program goes on.
      setTimeout(() => {
        if (this.jvm?.alive && !this.finished) {
          this.print(`HeapLens: the live channel closed${why ? ` (${why.message})` : ''}; the program keeps running and the profile file is still written.\n`);
          this.sendEvent(new Event(EVENTS.channelLost, { profile: plan.profile, reason: why?.message ?? 'the connection closed' }));
        }
      }, 1500);
    });
    this.opts.onLive?.(live, plan);
    this.sendStats();
    // the accounts mode sends no deltas once its (empty) tree is known: its figures come on a clock instead
    if (this.mode === 'accounts') {
      const clock = setInterval(() => (this.finished || !live.isOpen ? clearInterval(clock) : this.sendStats()), 1000);
      live.on('close', () => clearInterval(clock));
    }
  }

  private scheduleStats(): void {
    const every = this.opts.statsIntervalMs ?? 500;
    const wait = this.lastStats + every - Date.now();
    if (wait <= 0) return this.sendStats();
    if (!this.statsTimer) this.statsTimer = setTimeout(() => this.sendStats(), wait);
  }

  stats(): StatsBody | undefined {
    if (!this.live) return undefined;
    const p = this.live.profile;
    const r = p.rates();
    const accounted = this.mode === 'accounts' ? this.accountedNow() : undefined;
    return { ...p.stats, ...r, sequence: p.sequence, threads: p.threadDefs.size, mode: p.stats.paused ? 'paused' : this.mode, ...(accounted ? { accounted } : {}) };
  }

  private accounted: { at: number; figures?: AccountedFigures } = { at: 0 };

  /** The accounts' counts from the profile file, read at most every 2 s (the agent rewrites it about every second). */
  private accountedNow(): AccountedFigures | undefined {
    if (this.plan && Date.now() - this.accounted.at >= 2000) {
      this.accounted = { at: Date.now(), figures: accountedFigures(this.plan.profile) ?? this.accounted.figures };
    }
    return this.accounted.figures;
  }

  private sendStats(): void {
    clearTimeout(this.statsTimer);
    this.statsTimer = undefined;
    this.lastStats = Date.now();
    const body = this.stats();
    if (body) this.sendEvent(new Event(EVENTS.stats, body));
  }

  private async onExit(): Promise<void> {
    await this.answered;
    const jvm = this.jvm!;
    const exit = jvm.exit!;
    if (this.live) {
      this.sendStats();
      this.live.close();
    }
    const known = exit.code !== 0 && exit.code !== 143 ? startFailure(jvm.stderrHead, exit.code, exit.signal, { classPath: this.plan?.classPath }) : undefined;
    if (known && known.kind !== 'exited' && !this.finished) {
      this.print(`HeapLens: ${known.message}\n`, 'stderr');
      this.sendEvent(new Event(EVENTS.error, { message: known.message, kind: known.kind }));
    }
    const codeText = exit.code !== null ? `exited with code ${exit.code}` : exit.signal ? `was ended by ${exit.signal}` : 'ended';
    const who = this.attached ? 'The profiled JVM' : 'The program';
    const where = jvm instanceof PidJvm && !this.attached ? ' (its exit code is shown in the terminal)' : '';
    this.print(`\n${who} ${codeText}${where}.\n`);
    const profile = this.plan?.profile;
    if (known && known.kind !== 'exited') {
      // the agent's first write holds nothing of the program: an empty profile must not pass for a result
      if (profile && fs.existsSync(profile)) {
        fs.rmSync(profile, { force: true });
        this.print('HeapLens: the program did not start; no profile was kept.\n');
      }
    } else if (profile && fs.existsSync(profile)) {
      this.print(`HeapLens: profile saved to ${profile}\n`);
      this.sendEvent(new Event(EVENTS.saved, { file: profile }));
    } else if (profile) {
      this.print(`HeapLens: no profile was written (${profile} does not exist).\n`, 'stderr');
    }
    if (this.plan) fs.rmSync(this.plan.tmpDir, { recursive: true, force: true });
    if (!this.finished) {
      this.finished = true;
      const signal = exit.signal ? (os.constants.signals as Record<string, number>)[exit.signal] ?? 0 : 0;
      if (exit.code !== null || exit.signal) this.sendEvent(new ExitedEvent(exit.code ?? 128 + signal));
      this.sendEvent(new TerminatedEvent());
    }
  }

  /** VS Code's own Pause button: HeapLens never stops threads, so it pauses profiling instead. */
  protected async pauseRequest(response: DebugProtocol.PauseResponse): Promise<void> {
    await this.customRequest('heaplens.pause', response, {});
    this.print('HeapLens: profiling paused (the program keeps running). Resume with the status bar item or "HeapLens: Resume Profiling".\n');
  }

  protected threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = { threads: [] };
    this.sendResponse(response);
  }

  protected async terminateRequest(response: DebugProtocol.TerminateResponse): Promise<void> {
    await this.stopProgram();
    this.sendResponse(response);
  }

  protected async disconnectRequest(response: DebugProtocol.DisconnectResponse, args: DebugProtocol.DisconnectArguments): Promise<void> {
    const terminate = args?.terminateDebuggee ?? !this.attached;
    if (terminate) {
      await this.stopProgram();
    } else {
      this.live?.close();
      if (this.jvm instanceof PidJvm) this.jvm.detach();
      this.finished = true;
    }
    this.sendResponse(response);
  }

  /** Ends the JVM: the agent's `stop` (final profile, exit 143), else SIGTERM, else SIGKILL after 5 s. */
  private async stopProgram(): Promise<void> {
    const jvm = this.jvm;
    if (!jvm || !jvm.alive) return;
    if (this.live?.isOpen) {
      await this.live.stop().catch(() => undefined);
      if (await jvm.waitForExit(3000)) return;
    }
    jvm.terminate();
    if (await jvm.waitForExit(5000)) return;
    jvm.kill();
    await jvm.waitForExit(2000);
  }

  protected async customRequest(command: string, response: DebugProtocol.Response, args: unknown): Promise<void> {
    const op = command.startsWith('heaplens.') ? command.slice('heaplens.'.length) : command;
    try {
      if (op === 'stats') {
        response.body = this.stats() ?? {};
      } else if (op === 'info') {
        response.body = { profile: this.plan?.profile, pid: this.jvm?.pid, live: !!this.live?.isOpen, target: this.plan?.target };
      } else if (op === 'input' && this.jvm instanceof ChildJvm) {
        this.jvm.write(String((args as { text?: string })?.text ?? ''));
      } else if (op === 'heapDump') {
        if (!this.live?.isOpen) throw new LaunchError('the live channel to the agent is not open');
        const file = (args as { file?: unknown })?.file;
        if (typeof file !== 'string' || !file.endsWith('.hprof')) throw new LaunchError('heapDump needs a "file" ending with .hprof');
        response.body = await this.live.client.request('heapDump', { file, live: true }, 10 * 60_000);
      } else if ((REQUESTS as readonly string[]).includes(op)) {
        if (!this.live?.isOpen) throw new LaunchError('the live channel to the agent is not open');
        const gc = op === 'snapshot' && (args as { gc?: unknown } | undefined)?.gc === true;
        const mode = (args as { mode?: unknown } | undefined)?.mode;
        if (op === 'mode' && !(MODES as readonly unknown[]).includes(mode)) throw new LaunchError(`unknown mode "${String(mode)}" (${MODES.join(', ')})`);
        // a switch that changes the instrumentation retransforms every loaded class: allow it time
        response.body = op === 'mode' ? await this.live.client.request(op, { mode }, MODE_SWITCH_TIMEOUT_MS) : await this.live.client.request(op, gc ? { gc: true } : {});
        if (op === 'mode') {
          this.mode = mode === 'paused' ? this.mode : String(mode);
          this.live.profile.stats = { ...this.live.profile.stats, paused: mode === 'paused' };
          this.sendStats();
        }
        if (op === 'pause' || op === 'resume') {
          this.live.profile.stats = { ...this.live.profile.stats, paused: op === 'pause' };
          this.sendStats();
        }
      } else {
        throw new LaunchError(`unknown request "${command}"`);
      }
      this.sendResponse(response);
    } catch (e) {
      this.fail(response, e);
    }
  }
}
