// A profile that grows while the JVM runs: applies the live channel's `define` and `delta` frames
// (docs/protocol.md) and produces a Profile of the same shape the file loader returns, so every model
// function and view works on live data. No `vscode` import.
import {
  AllocRecord, Meta, MethodEntry, MctNode, ModeSwitch, Profile, ProfileFile, PROFILE_FORMAT, PROFILE_SHAPE_VERSION, SiteEntry,
  ThreadEntry, TypeEntry,
} from './types';
import { copyRecord, recordKey } from './mct';
import { appendMemory, MemorySection, validateMemory } from './memory';

export interface ThreadDef { id: number; name: string; daemon: boolean; alive: boolean }
export interface DefineTables { types?: TypeEntry[]; methods?: MethodEntry[]; sites?: SiteEntry[]; threads?: ThreadDef[] }
/**
 * One node's absolute values: `t` thread, `n` node id, `p` parent id (-1 for a thread's root), `m` method; a root
 * names the thread's tree it roots in `tree` (`root` the MCT, `sites`, `siteTraces`, `sampled`: docs/protocol.md).
 */
export interface NodeUpdate { t: number; n: number; p: number; m?: number; calls?: number; folded?: number; a?: AllocRecord[]; tree?: string }
export interface LiveStats {
  objects: number; bytes: number; nodes: number; paused: boolean; coalesced: number; refusedConnections: number;
  /** the agent's mode at this delta (exact, sites, sampled, paused, ...) */
  mode?: string;
}
/** The trees of a thread besides its MCT, by the name the agent gives their roots. */
const SIDE_TREES = ['sites', 'siteTraces', 'sampled'] as const;
type SideTree = typeof SIDE_TREES[number];
export interface DeltaUpdate {
  seq: number; time: number; full: boolean; nodes: NodeUpdate[]; stats?: Partial<LiveStats>;
  /** the memory chart's news since the last delta (docs/protocol.md) */
  memory?: MemorySection & { restart?: boolean };
}

/** Ids used by deltas but not defined yet: ask the agent for them with a `define` request. */
export interface MissingIds { types: number[]; methods: number[]; sites: number[] }

export interface Rates { objectsPerSecond: number; bytesPerSecond: number }

interface LiveNode { t: number; p: number; m?: number; calls: number; folded: number; recs: Map<string, AllocRecord>; kids: number[] }

const RATE_WINDOW_MS = 2000;

export class LiveProfile {
  readonly types = new Map<number, TypeEntry>();
  readonly methods = new Map<number, MethodEntry>();
  readonly sites = new Map<number, SiteEntry>();
  readonly threadDefs = new Map<number, ThreadDef>();
  private nodes = new Map<number, LiveNode>();
  private roots = new Map<number, number>(); // thread id → root node id
  private sideRoots = new Map<number, Partial<Record<SideTree, number>>>(); // thread id → its other trees' roots
  /** The mode timeline: the welcome's, then every switch seen in a delta's stats or a `mode` event. */
  private modes: ModeSwitch[];
  private samples: Array<{ time: number; objects: number; bytes: number }> = [];
  private lastSeq = -1;
  private lastTime = 0;
  /** nodes received before their parent (a protocol violation, counted, the node kept as an orphan) */
  orphans = 0;
  /** parentless trees beyond a thread's first (not part of the MCT) */
  extraRoots = 0;
  /** the memory chart so far */
  memory?: MemorySection;
  stats: LiveStats = { objects: 0, bytes: 0, nodes: 0, paused: false, coalesced: 0, refusedConnections: 0 };

  constructor(readonly meta: Partial<Meta> = {}, readonly startedAt = Date.now()) {
    this.modes = meta.modes?.length ? meta.modes.map((m) => ({ ...m }))
      : [{ mode: meta.mode ?? 'exact', since: meta.startTime ?? startedAt }];
  }

  /**
   * A mode seen at `time` (agent clock): starts a timeline entry when it differs from the current one; the
   * retransformation figures of a `mode` event are added to the entry of that mode.
   */
  noteMode(mode: string, time: number, retransform?: { retransformed?: number; retransformMillis?: number }): void {
    let last = this.modes[this.modes.length - 1];
    if (last?.mode !== mode) {
      last = { mode, since: Math.max(time, last?.since ?? 0) };
      this.modes.push(last);
    }
    if (retransform?.retransformed !== undefined && last.retransformed === undefined) {
      last.retransformed = retransform.retransformed;
      last.retransformMillis = retransform.retransformMillis;
    }
  }

  get mode(): string {
    return this.modes[this.modes.length - 1].mode;
  }

  applyDefine(d: DefineTables): void {
    for (const t of d.types ?? []) this.types.set(t.id, t);
    for (const m of d.methods ?? []) this.methods.set(m.id, m);
    for (const s of d.sites ?? []) this.sites.set(s.id, s);
    for (const t of d.threads ?? []) this.threadDefs.set(t.id, t);
  }

  applyDelta(d: DeltaUpdate): void {
    if (d.full) {
      this.nodes = new Map();
      this.roots = new Map();
      this.sideRoots = new Map();
      this.samples = [];
      this.orphans = 0;
      this.extraRoots = 0;
    }
    this.lastSeq = d.seq;
    this.lastTime = d.time;
    for (const u of d.nodes) this.applyNode(u);
    if (d.memory) {
      try {
        this.memory = appendMemory(this.memory, { ...validateMemory(d.memory), restart: d.memory.restart === true });
      } catch {
        // a malformed chart update is dropped: the allocation data of the delta still counts
      }
    }
    if (d.stats) {
      this.stats = { ...this.stats, ...d.stats };
      if (typeof d.stats.mode === 'string') this.noteMode(d.stats.mode, d.time);
      this.samples.push({ time: d.time, objects: this.stats.objects, bytes: this.stats.bytes });
      while (this.samples.length > 2 && d.time - this.samples[1].time >= RATE_WINDOW_MS) this.samples.shift();
    }
  }

  private applyNode(u: NodeUpdate): void {
    let node = this.nodes.get(u.n);
    if (!node) {
      node = { t: u.t, p: u.p, m: u.m, calls: 0, folded: 0, recs: new Map(), kids: [] };
      this.nodes.set(u.n, node);
      if (u.p === -1) {
        // A thread's `root` tree is its MCT; the sites and sampled modes' trees are its side trees. A root without
        // a tree name (an older agent) is the MCT when it is the thread's first; other roots are counted, not shown.
        const side = (SIDE_TREES as readonly string[]).includes(u.tree ?? '') ? u.tree as SideTree : undefined;
        const trees = this.sideRoots.get(u.t) ?? {};
        if (side && trees[side] === undefined) this.sideRoots.set(u.t, { ...trees, [side]: u.n });
        else if (!side && (u.tree === undefined || u.tree === 'root') && !this.roots.has(u.t)) this.roots.set(u.t, u.n);
        else this.extraRoots++;
      } else {
        const parent = this.nodes.get(u.p);
        if (parent) parent.kids.push(u.n);
        else this.orphans++;
      }
    }
    if (u.calls !== undefined) node.calls = u.calls;
    if (u.folded !== undefined) node.folded = u.folded;
    for (const r of u.a ?? []) node.recs.set(recordKey(r), copyRecord(r));
  }

  get sequence(): number {
    return this.lastSeq;
  }

  get nodeCount(): number {
    return this.nodes.size;
  }

  /** Objects and bytes per second over the last ~2 s of deltas (agent clock). */
  rates(): Rates {
    const s = this.samples;
    if (s.length < 2) return { objectsPerSecond: 0, bytesPerSecond: 0 };
    const a = s[0];
    const b = s[s.length - 1];
    const dt = (b.time - a.time) / 1000;
    if (dt <= 0) return { objectsPerSecond: 0, bytesPerSecond: 0 };
    return { objectsPerSecond: Math.max(0, (b.objects - a.objects) / dt), bytesPerSecond: Math.max(0, (b.bytes - a.bytes) / dt) };
  }

  /** Every id a node or record uses that no `define` has named yet. */
  missingIds(): MissingIds {
    const types = new Set<number>();
    const methods = new Set<number>();
    const sites = new Set<number>();
    for (const n of this.nodes.values()) {
      if (n.m !== undefined && !this.methods.has(n.m)) methods.add(n.m);
      for (const r of n.recs.values()) {
        if (r.length > 6 && !this.methods.has(r[6])) methods.add(r[6]);
        if (!this.sites.has(r[0])) sites.add(r[0]);
        if (!this.types.has(r[1])) types.add(r[1]);
      }
    }
    for (const s of this.sites.values()) {
      if (!this.methods.has(s.method)) methods.add(s.method);
      if (!this.types.has(s.type)) types.add(s.type);
    }
    return { types: [...types], methods: [...methods], sites: [...sites] };
  }

  /**
   * The profile so far, as the file loader would return it. Nodes and records whose ids are not defined
   * yet are left out (they appear once their `define` arrives), so the result is always consistent.
   */
  toProfile(): Profile {
    const threads: ThreadEntry[] = [];
    const threadIds = new Set<number>([...this.threadDefs.keys(), ...this.roots.keys(), ...this.sideRoots.keys()]);
    for (const id of [...threadIds].sort((a, b) => a - b)) {
      const def = this.threadDefs.get(id) ?? { id, name: `thread ${id}`, daemon: false, alive: true };
      const rootId = this.roots.get(id);
      const thread: ThreadEntry = { id, name: def.name, daemon: def.daemon, alive: def.alive, root: rootId === undefined ? {} : this.buildTree(rootId) };
      const side = this.sideRoots.get(id) ?? {};
      for (const tree of SIDE_TREES) if (side[tree] !== undefined) thread[tree] = this.buildTree(side[tree]!);
      threads.push(thread);
    }
    const sites = new Map([...this.sites].filter(([, s]) => this.methods.has(s.method) && this.types.has(s.type)));
    const file: ProfileFile = {
      format: PROFILE_FORMAT,
      version: PROFILE_SHAPE_VERSION,
      meta: this.fileMeta(),
      types: [...this.types.values()],
      methods: [...this.methods.values()],
      sites: [...sites.values()],
      threads,
      transform: { classesTransformed: 0, classesSkipped: 0, classesFailed: 0, retransformed: 0, methodsProfiled: 0, sites: sites.size, failures: [], warnings: [] },
      agent: { threads: threads.length, nodes: this.nodes.size, writeMillis: 0, bytesWritten: 0, collectorCycles: Math.max(0, this.lastSeq) },
      ...(this.memory ? { memory: this.memory } : {}),
    };
    return { file, types: new Map(this.types), methods: new Map(this.methods), sites, threads };
  }

  private fileMeta(): Meta {
    const m = this.meta;
    return {
      agentVersion: m.agentVersion ?? '', mode: this.mode, modes: this.modes.map((x) => ({ ...x })),
      ...(m.sampleBytes !== undefined ? { sampleBytes: m.sampleBytes } : {}),
      ...(m.sampleBytesMax !== undefined ? { sampleBytesMax: m.sampleBytesMax } : {}),
      ...(m.sampleRate !== undefined ? { sampleRate: m.sampleRate } : {}),
      jvm: m.jvm ?? { name: '', vendor: '', version: '', javaHome: '' },
      pid: m.pid ?? -1, command: m.command ?? '', jvmArgs: m.jvmArgs ?? [],
      startTime: m.startTime ?? this.startedAt, writeTime: this.lastTime || Date.now(), final: false,
      sequence: Math.max(0, this.lastSeq), options: m.options ?? {},
      layout: m.layout ?? { objectHeader: 0, arrayHeader: 0, reference: 0, alignment: 8, compressedOops: false, source: 'unknown' },
    };
  }

  /** Iterative (trees can be thousands of levels deep). */
  private buildTree(rootId: number): MctNode {
    const out: MctNode = {};
    const stack: Array<{ id: number; into: MctNode }> = [{ id: rootId, into: out }];
    while (stack.length > 0) {
      const { id, into } = stack.pop()!;
      const n = this.nodes.get(id)!;
      if (into !== out) {
        into.m = n.m;
        into.calls = n.calls;
      }
      if (n.folded) into.folded = n.folded;
      const recs = [...n.recs.values()].filter((r) => this.sites.has(r[0]) && this.types.has(r[1])
        && this.methods.has(this.sites.get(r[0])!.method) && this.types.has(this.sites.get(r[0])!.type));
      // a callee not defined yet: the record keeps its line, not the name of the call
      if (recs.length) into.a = recs.map((r) => (r.length > 6 && !this.methods.has(r[6]) ? r.slice(0, 6) as AllocRecord : copyRecord(r)));
      const kids = n.kids.map((k) => ({ k, node: this.nodes.get(k)! })).filter(({ node }) => node.m !== undefined && this.methods.has(node.m));
      if (kids.length) {
        into.c = kids.map(() => ({}));
        kids.forEach(({ k }, i) => stack.push({ id: k, into: into.c![i] }));
      }
    }
    return out;
  }
}
