// invertPruned (invert-pruned.ts) on a flattened top-down tree instead of parsed nodes: the same grouping (caller-groups.ts)
// and the same minShare cut, read from the tree's typed arrays (method, parent, self values) and written as typed arrays, so that the
// page can invert the report's built first tree without the call trees' JSON, one object per node or a Map per group.
// The result equals frameTree(invertPruned(root)) frame for frame and value for value; a frame's records are merged from
// its contexts' on first access (they are for tooltips and tables, not the paint), in the order the contexts were
// absorbed, which may differ from invertPruned's (its contexts come in file order, these in the tree's sorted order).
// The tree carries no `folded` counts: a profile with folded calls (deeper than the agent's maxDepth) is inverted by
// invertPruned, which weighs them (the caller checks).
import { addCounts, copyRecord, recordKey } from '../profile/mct';
import { AllocRecord } from '../profile/types';
import { FrameTree, MetricArrays, rollUp, VIEW_METRICS } from './frames';
import { VIEW_MIN_SHARE } from './invert-pruned';
import { groupByCallers } from './caller-groups';

/** The self values a frame sums from its contexts (allocations is objects + arrays, as frameTree makes it). */
const SUMMED = ['objects', 'bytes', 'arrays', 'elements', 'calls', 'samples'] as const;

/**
 * The inverted tree of `top` (a frameTree of some root). `rank`: frameTree's sibling order (methodRanks); every method
 * of `top` must have a rank (else undefined: the caller inverts the parsed nodes). `hasRecords(i)`: whether node i has
 * a non-empty record list (a context even when its records sum to nothing); `top.recs` is read only lazily.
 */
export function invertFrames(top: FrameTree, rank: Int32Array, hasRecords: (i: number) => boolean, minShare = VIEW_MIN_SHARE): FrameTree | undefined {
  const steps = invertFramesInSteps(top, rank, hasRecords, minShare);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Splits between two yields of {@link invertFramesInSteps}: a few milliseconds of work at 100,000 nodes. */
const SPLITS_PER_STEP = 256;

/**
 * {@link invertFrames} as a step function: it yields between its passes and every few hundred groups, so that the
 * page can run it in tasks of ~30 ms (webview/tasks.ts) instead of one task of a few hundred milliseconds after the
 * paint, during which the page would not answer.
 */
export function* invertFramesInSteps(top: FrameTree, rank: Int32Array, hasRecords: (i: number) => boolean,
  minShare = VIEW_MIN_SHARE): Generator<void, FrameTree | undefined> {
  const n = top.n;
  const { method, parent } = top;
  const { objects, arrays, bytes, calls, samples } = top.self;
  for (let i = 1; i < n; i++) if (!(rank[method[i]] >= 0)) return undefined;
  // each context's weight: its largest share of the root's total in objects, arrays, bytes, calls, samples
  let tObj = 0, tArr = 0, tBytes = 0, tCalls = 0, tSamples = 0;
  for (let i = 1; i < n; i++) {
    tObj += objects[i];
    tArr += arrays[i];
    tBytes += bytes[i];
    tCalls += calls[i];
    tSamples += samples[i];
  }
  const contexts: number[] = [];
  for (let i = 1; i < n; i++) {
    if (calls[i] || samples[i] || hasRecords(i)) contexts.push(i);
  }
  const weight = new Float64Array(n);
  for (const i of contexts) {
    // the order and the divisions of invertPruned's (the same doubles)
    const sObj = tObj > 0 ? objects[i] / tObj : 0;
    const sArr = tArr > 0 ? arrays[i] / tArr : 0;
    const sBytes = tBytes > 0 ? bytes[i] / tBytes : 0;
    const sCalls = tCalls > 0 ? calls[i] / tCalls : 0;
    const sSamples = tSamples > 0 ? samples[i] / tSamples : 0;
    weight[i] = Math.max(0, sObj, sArr, sBytes, sCalls, sSamples);
  }
  // the inverted frames as they are made (root 0): method, parent, and the contexts absorbed, as linked lists
  let cap = 1024;
  let fMethod: Int32Array<ArrayBufferLike> = new Int32Array(cap);
  let fParent: Int32Array<ArrayBufferLike> = new Int32Array(cap);
  let fHead: Int32Array<ArrayBufferLike> = new Int32Array(cap).fill(-1);
  let fTail: Int32Array<ArrayBufferLike> = new Int32Array(cap).fill(-1);
  let frames = 1;
  fMethod[0] = -1;
  fParent[0] = -1;
  const next = new Int32Array(n).fill(-1);   // the context absorbed after this one by the same frame
  const newFrame = (p: number, m: number): number => {
    if (frames === cap) {
      cap *= 2;
      const grow = (a: Int32Array<ArrayBufferLike>, fill: number): Int32Array<ArrayBufferLike> => {
        const b = new Int32Array(cap).fill(fill);
        b.set(a);
        return b;
      };
      fMethod = grow(fMethod, 0);
      fParent = grow(fParent, 0);
      fHead = grow(fHead, -1);
      fTail = grow(fTail, -1);
    }
    fMethod[frames] = m;
    fParent[frames] = p;
    return frames++;
  };
  // the frame each context ends in (its values are summed afterwards, in the tree's order: reads in a row, not at random)
  const absorbedAt = new Int32Array(n).fill(-1);
  const absorb = (at: number, ctx: number): void => {
    absorbedAt[ctx] = at;
    if (fTail[at] < 0) fHead[at] = ctx;
    else next[fTail[at]] = ctx;
    fTail[at] = ctx;
  };
  yield;
  yield* groupByCallers(parent, method, weight, contexts, minShare, { absorb, child: newFrame }, SPLITS_PER_STEP);
  yield;
  const fSelf: Float64Array[] = [];
  for (const k of SUMMED) {
    const from = top.self[k];
    const sums = new Float64Array(frames);
    for (let i = 1; i < n; i++) {
      const f = absorbedAt[i];
      if (f >= 0) sums[f] += from[i];
    }
    fSelf.push(sums);
  }
  yield;
  return yield* flattenFrames(top, frames, fMethod, fParent, fSelf, fHead, next, rank, hasRecords);
}

/** The made frames in pre-order, siblings by ascending rank (frameTree's order), with their summed values. */
function* flattenFrames(top: FrameTree, frames: number, fMethod: Int32Array, fParent: Int32Array, fSelf: Float64Array[], fHead: Int32Array,
  next: Int32Array, rank: Int32Array, hasRecords: (i: number) => boolean): Generator<void, FrameTree> {
  // children per frame (CSR), each list sorted by rank
  const kidStart = new Int32Array(frames + 1);
  for (let f = 1; f < frames; f++) kidStart[fParent[f] + 1]++;
  for (let f = 0; f < frames; f++) kidStart[f + 1] += kidStart[f];
  const kids = new Int32Array(Math.max(0, frames - 1));
  const at = kidStart.slice(0, frames);
  for (let f = 1; f < frames; f++) kids[at[fParent[f]]++] = f;
  const byRank = (a: number, b: number): number => rank[fMethod[a]] - rank[fMethod[b]];
  for (let f = 0; f < frames; f++) {
    const s = kidStart[f];
    const e = kidStart[f + 1];
    if (e - s > 1) kids.subarray(s, e).sort(byRank);
  }
  yield;
  const order = new Int32Array(frames);     // pre-order position → frame
  const pParent = new Int32Array(frames);
  const depth = new Int32Array(frames);
  const stack: number[] = [0];
  const stackParent: number[] = [-1];
  const stackDepth: number[] = [0];
  let i = 0;
  let maxDepth = 0;
  while (stack.length > 0) {
    const f = stack.pop()!;
    order[i] = f;
    pParent[i] = stackParent.pop()!;
    const d = stackDepth.pop()!;
    depth[i] = d;
    if (d > maxDepth) maxDepth = d;
    for (let k = kidStart[f + 1] - 1; k >= kidStart[f]; k--) {
      stack.push(kids[k]);
      stackParent.push(i);
      stackDepth.push(d + 1);
    }
    i++;
  }
  yield;
  const self = {} as MetricArrays;
  const total = {} as MetricArrays;
  for (const k of VIEW_METRICS) {
    self[k] = new Float64Array(frames);
    total[k] = new Float64Array(frames);
  }
  const out: FrameTree = {
    n: frames, method: new Int32Array(frames), parent: pParent, depth, end: new Int32Array(frames), self, total,
    recs: [], entryLine: new Int32Array(frames), maxDepth,
  };
  for (let p = 0; p < frames; p++) {
    const f = order[p];
    out.method[p] = fMethod[f];
    out.end[p] = p + 1;
    for (let k = 0; k < SUMMED.length; k++) self[SUMMED[k]][p] = fSelf[k][f];
  }
  // the root keeps its own records and samples (a thread root has no calls of its own)
  for (const k of SUMMED) if (k !== 'calls') self[k][0] = top.self[k][0];
  for (let p = 0; p < frames; p++) self.allocations[p] = self.objects[p] + self.arrays[p];
  yield;
  rollUp(out);
  out.recs = lazyRecords(top, frames, order, fHead, next, hasRecords);
  return out;
}

/**
 * A frame's records on first access: its contexts' records merged by (site, type, line, callee) as TreeBuilder merges
 * them, copies in the order they come; undefined for a frame without any (as invertPruned leaves it without an `a`).
 */
function lazyRecords(top: FrameTree, frames: number, order: Int32Array, fHead: Int32Array, next: Int32Array,
  hasRecords: (i: number) => boolean): FrameTree['recs'] {
  const memo: Array<AllocRecord[] | undefined> = new Array(frames);
  const merged = (p: number): AllocRecord[] | undefined => {
    const f = order[p];
    const sources: Array<readonly AllocRecord[] | undefined> = p === 0 ? [top.recs[0]] : [];
    for (let c = fHead[f]; c >= 0; c = next[c]) if (hasRecords(c)) sources.push(top.recs[c]);
    let out: AllocRecord[] | undefined;
    const index = new Map<string, AllocRecord>();
    for (const recs of sources) {
      if (!recs) continue;
      for (const rec of recs) {
        const k = recordKey(rec);
        const same = index.get(k);
        if (same) addCounts(same, rec);
        else {
          const copy = copyRecord(rec);
          index.set(k, copy);
          (out ??= []).push(copy);
        }
      }
    }
    return out;
  };
  return new Proxy([] as Array<readonly AllocRecord[] | undefined>, {
    get(t, prop, receiver) {
      if (typeof prop === 'string') {
        const c = prop.charCodeAt(0) - 48;
        if (c >= 0 && c <= 9) {
          const p = Number(prop);
          if (!(p < frames)) return undefined;
          let v = memo[p];
          // not kept while the top tree's records have not arrived (the first tree's follow its paint)
          if (v === undefined) {
            v = merged(p);
            if (v) memo[p] = v;
          }
          return v;
        }
        if (prop === 'length') return frames;
      }
      return Reflect.get(t, prop, receiver);
    },
  });
}
