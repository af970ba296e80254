// Types mirroring docs/format.md (the `.heaplens` profile file in format version 1's shape; version 2 files are
// expanded to it on load, version2.ts).
// These describe the JSON exactly as the agent writes it; see load.ts for validation.

export const PROFILE_FORMAT = 'heaplens-profile';
/** The newest format version this build reads. */
export const PROFILE_VERSION = 2;
/** The version whose shape a loaded profile has: what profiles made in memory (live, JFR import) say they are. */
export const PROFILE_SHAPE_VERSION = 1;

/** Binder 2006 element type of an array: primitive codes, or R for references (arrays of arrays too). */
export type ElementCode = 'B' | 'C' | 'D' | 'F' | 'I' | 'J' | 'S' | 'Z' | 'R';
export const ELEMENT_CODES: readonly ElementCode[] = ['B', 'C', 'D', 'F', 'I', 'J', 'S', 'Z', 'R'];

export interface JvmInfo {
  name: string;
  vendor: string;
  version: string;
  javaHome: string;
}

export interface Layout {
  objectHeader: number;
  arrayHeader: number;
  reference: number;
  alignment: number;
  compressedOops: boolean;
  source: string;
}

/** One entry of the mode timeline: from `since` (epoch ms) on, the agent recorded in `mode`. */
export interface ModeSwitch {
  mode: string;
  since: number;
  /** When the switch changed the instrumentation: classes retransformed and how long it took. */
  retransformed?: number;
  retransformMillis?: number;
}

export interface Meta {
  agentVersion: string;
  /** The mode when the file was written: exact, sites, sampled or paused. */
  mode: string;
  /** Every mode switch (absent in files written before modes existed: then the whole run was `mode`). */
  modes?: ModeSwitch[];
  /** Sampled mode: mean bytes between samples, as configured. */
  sampleBytes?: number;
  /**
   * sampler=jvmti: the largest mean interval used; above sampleBytes when the rate budget (sampleRate) raised it
   * while the program took samples fast. Each sample is weighed with the interval it was taken at.
   */
  sampleBytesMax?: number;
  /** sampler=jvmti: the rate budget, samples a second (0: the interval stayed fixed). */
  sampleRate?: number;
  /** Where the sampled mode's data came from: HotSpot's heap sampler (sampler=jvmti), the agent's bytecode probes, or JFR's TLAB events (sampler=jfr). */
  sampler?: 'probes' | 'jfr' | 'jvmti';
  jvm: JvmInfo;
  pid: number;
  command: string;
  jvmArgs: string[];
  startTime: number;
  writeTime: number;
  final: boolean;
  sequence: number;
  options: Record<string, unknown>;
  layout: Layout;
  /** set on profiles made by `heaplens import` from a JFR recording (extension/jfr/to-profile.ts) */
  imported?: import('../../extension/jfr/to-profile').ImportInfo;
}

export interface TypeEntry {
  id: number;
  name: string;
  array: boolean;
  size: number | null;
  elementSize?: number;
  elementCode?: ElementCode;
}

export interface MethodEntry {
  id: number;
  class: string;
  name: string;
  desc: string;
  file?: string;
  line?: number;
  profiled: boolean;
  ctorTarget?: number;
  ctorWarning?: string;
  /** Line of each call site of a profiled method: calls[k - 1] for call site k (docs/format.md). */
  calls?: number[];
}

/**
 * The kinds docs/format.md lists. The loader accepts any string: the agent also writes call-site kinds
 * the format does not list yet (seen: `copy`, `unsafe`), and a reader should show them, not refuse them.
 */
export type SiteKind = 'new' | 'newarray' | 'anewarray' | 'multianewarray' | 'clone' | 'reflect' | (string & {});

export interface SiteEntry {
  id: number;
  method: number;
  bci: number;
  line?: number;
  kind: SiteKind;
  type: number;
}

/**
 * An allocation record: [site, type, count, elements, bytes, line?, callee?]. `line` (docs/format.md): for an
 * allocation made by code without a node (the JDK) inside a call of the node's method, the source line of that call
 * in the node's method; absent when the site's own line applies. `callee`: the method id that call invokes.
 */
export type AllocRecord = [site: number, type: number, count: number, elements: number, bytes: number, ...lineAndCallee: number[]];

/** One method invocation context (Binder 2006 §2). The root has no `m` and no `calls`. */
export interface MctNode {
  m?: number;
  calls?: number;
  a?: AllocRecord[];
  c?: MctNode[];
  folded?: number;
  /** the line, in the parent's method, of the call that first entered this node (docs/format.md); exact trees only */
  line?: number;
  /** CPU samples with this frame on top: only in trees built from the threads profile (cpu-flame.ts), never in the file */
  samples?: number;
}

export interface ThreadEntry {
  id: number;
  name: string;
  daemon: boolean;
  alive: boolean;
  /** The exact mode's method call tree. */
  root: MctNode;
  /** Sites mode: one node whose records are exact per-site counts. */
  sites?: MctNode;
  /** Sites mode: a tree of sampled calling traces; record counts are samples. */
  siteTraces?: MctNode;
  /** Sampled mode: a tree of sampled calling traces; records are scaled estimates. */
  sampled?: MctNode;
}

export interface TransformFailure {
  class: string;
  loader: string;
  error: string;
}

export interface TransformStats {
  classesTransformed: number;
  classesSkipped: number;
  classesFailed: number;
  retransformed: number;
  methodsProfiled: number;
  sites: number;
  failures: TransformFailure[];
  warnings: string[];
}

export interface AgentStats {
  threads: number;
  nodes: number;
  writeMillis: number;
  bytesWritten: number;
  collectorCycles: number;
  /** sampler=jfr: the bytes a new TLAB leaves free (0: the TLAB flags were not in effect) */
  jfrTlabBytes?: number;
  /** sampler=jvmti or jfr: per type [type id, samples, count, its σ, bytes, its σ] (core/profile/estimates.ts) */
  jfrTypes?: [number, number, number, number, number, number][];
}

/** The whole file. */
export interface ProfileFile {
  format: typeof PROFILE_FORMAT;
  version: number;
  meta: Meta;
  types: TypeEntry[];
  methods: MethodEntry[];
  sites: SiteEntry[];
  threads: ThreadEntry[];
  transform: TransformStats;
  agent: AgentStats;
  /** present when the agent ran with threads=true (docs/format.md, "Threads: CPU, monitors, deadlocks") */
  threadsProfile?: import('./threads-profile').ThreadsProfile;
  /** the memory chart: heap, collections, allocation over time (docs/format.md, "memory") */
  memory?: import('./memory').MemorySection;
}

/** A loaded, validated profile with indexed lookups. */
export interface Profile {
  file: ProfileFile;
  types: Map<number, TypeEntry>;
  methods: Map<number, MethodEntry>;
  sites: Map<number, SiteEntry>;
  threads: ThreadEntry[];
  /** the format version of the file as read (`file.version` says 1 once a version 2 file is expanded, version2.ts) */
  fileVersion?: number;
  /** set by withTree (modes.ts): the mode's tree standing in each thread's `root` when it is not the exact one */
  shown?: 'sites' | 'traces' | 'sampled';
}
