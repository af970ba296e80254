// What the JDK-side reader (agent/…/jfr/JfrImport, JfrEvents) writes: a recording's allocation, execution and
// old-object samples aggregated by thread, stack and class. Rows are plain number arrays to keep big files small.

export const JFR_EVENTS_FORMAT = 'heaplens-jfr-events';

/** [class, method, descriptor, line (-1 unknown), bytecode index, is the JDK's (bootstrap/platform loader or hidden)] */
export type JfrFrame = [cls: string, method: string, desc: string, line: number, bci: number, jdk: boolean];
/** [truncated (1: deeper than JFR's stack depth), frame, frame, …] innermost frame first; -1: a frame without method */
export type JfrStack = number[];
/** [thread id (Java id; negative: an OS thread), name] */
export type JfrThread = [id: number, name: string];
/** [JFR class name (java.lang.String, [B, [Ljava.lang.Object;), instance size or -1, where the size came from: tlab|fields|""] */
export type JfrClass = [name: string, size: number, sizeSource: string];
/** source 0: jdk.ObjectAllocationSample (weight), 1: InNewTLAB (tlabSize), 2: OutsideTLAB (allocationSize) */
export type JfrAllocRow = [source: 0 | 1 | 2, thread: number, stack: number, cls: number, events: number, weight: number, weightKiBSquares?: number];
export type JfrCpuRow = [thread: number, stack: number, samples: number];
/** elements: summed array lengths, -1 for non-array objects */
export type JfrOldRow = [thread: number, stack: number, cls: number, samples: number, elements: number];

export interface JfrEvents {
  format: typeof JFR_EVENTS_FORMAT;
  version: 1;
  /** epoch ms of the first event's start and the last event's end */
  start: number;
  end: number;
  /** jdk.ExecutionSample's period setting in the recording, -1 when not found */
  executionPeriodMillis: number;
  /** [samples, their weight]: each thread's first allocation sample, left out (its weight counts bytes from before the recording) */
  firstSamples?: [number, number];
  /** set when the file ended early: the events read before are kept */
  truncated?: string;
  layout: { objectHeader: number; arrayHeader: number; reference: number; alignment: number };
  /** jdk.JVMInformation and two initial system properties */
  jvm: { jvmName?: string; jvmVersion?: string; jvmArguments?: string; javaArguments?: string; pid?: string; 'java.home'?: string; 'java.vm.vendor'?: string; 'java.vm.version'?: string };
  /** events read, by event type name */
  events: Record<string, number>;
  frames: JfrFrame[];
  stacks: JfrStack[];
  threads: JfrThread[];
  classes: JfrClass[];
  alloc: JfrAllocRow[];
  cpu: JfrCpuRow[];
  old: JfrOldRow[];
}

/** The parsed reader output; throws with a one-line message when it is not that. */
export function parseJfrEvents(text: string): JfrEvents {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new Error(`the JFR reader's output is not JSON (${(e as Error).message})`);
  }
  const d = doc as Partial<JfrEvents>;
  if (!d || d.format !== JFR_EVENTS_FORMAT || d.version !== 1) throw new Error('the JFR reader wrote an unknown format (agent jar and extension of different versions?)');
  for (const k of ['frames', 'stacks', 'threads', 'classes', 'alloc', 'cpu', 'old'] as const) {
    if (!Array.isArray(d[k])) throw new Error(`the JFR reader's output has no "${k}" table`);
  }
  return d as JfrEvents;
}
