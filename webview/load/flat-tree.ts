// The second half of the fast reader (flat-parse.ts reads the text): its flat arrays merged across threads as
// merge-shared.ts merges parsed threads, flattened into the arrays frameTree (core/views/frames.ts) makes, and packed
// as the load worker hands trees to the page (tree-pack.ts).
import { ProfileFile } from '../../core/profile/types';
import { MetricArrays, rollUp, ViewMetric, VIEW_METRICS } from '../../core/views/frames';
import { FlatParse, STRIDE } from './flat-parse';
import { PackedTree } from './tree-pack';

/**
 * Thread `thread`'s tree (-1 or an unknown id: all threads merged, as merge-shared.ts merges them), flattened as
 * frameTree flattens it, with its records packed as tree-pack.ts packs them.
 */
export function flatTree(p: FlatParse, thread: number): PackedTree {
  const raw = p.raw;
  const one = p.threads.find((t) => t.id === thread);
  const from = one ? one.root : p.threads.length ? p.threads[0].root : 0;
  const to = one ? one.end : p.threads.length ? p.threads[p.threads.length - 1].end : 0;
  const { m: rm, firstChild, nextSibling, rec: rawRec, recLen: rawLen, recFirst, recCount, line: rawLine, calls: rawCalls, samples: rawSamples } = raw;
  // groups of raw nodes merged into one frame; a group of one is encoded as the raw index itself, a larger one as
  // -1 - its index in `groups`. The root of "all threads" is always a group (mergeShared merges even a single root).
  const groups: number[][] = [];
  let maxMethod = 0;
  for (let k = from; k < to; k++) if (rm[k] > maxMethod) maxMethod = rm[k];
  const rank = methodRanks(p.light, maxMethod);
  const isArray = arrayTypes(p.light);
  const cap = Math.max(1, to - from);
  const method = new Int32Array(cap);
  const parent = new Int32Array(cap);
  const depth = new Int32Array(cap);
  const entryLine = new Int32Array(cap);
  const self = metricArrays(cap);
  const { allocations, objects, bytes, arrays, elements, calls, samples } = self;
  let recCap = 0;
  for (let k = from; k < to; k++) recCap += raw.recCount[k];
  const recStart = new Int32Array(cap + 1);
  const recData = new Float64Array(recCap * STRIDE);
  const recLen = new Uint8Array(recCap);
  let nRec = 0;
  let maxDepth = 0;

  const rootGroup = one ? one.root : (groups.push(p.threads.map((t) => t.root)), -1);
  const methodOf = (g: number): number => rm[g >= 0 ? g : groups[-1 - g][0]];
  const byRankDesc = (a: number, b: number): number => rank[methodOf(b)] - rank[methodOf(a)];
  const stackGroup: number[] = [rootGroup];
  const stackParent: number[] = [-1];
  const stackDepth: number[] = [0];
  const kids: number[] = [];
  let i = 0;
  while (stackGroup.length > 0) {
    const g = stackGroup.pop()!;
    const d = stackDepth.pop()!;
    parent[i] = stackParent.pop()!;
    depth[i] = d;
    if (d > maxDepth) maxDepth = d;
    kids.length = 0;
    let nArr = 0;
    let nObj = 0;
    let nElem = 0;
    let nBytes = 0;
    let hasRecs = false;
    const first = nRec;
    if (g >= 0) {
      // one raw node, taken as it is
      method[i] = rm[g] === -2 ? -1 : rm[g];
      entryLine[i] = rawLine[g];
      calls[i] = rawCalls[g];
      samples[i] = rawSamples[g];
      const r0 = recFirst[g];
      if (r0 >= 0) {
        hasRecs = true;
        const r1 = r0 + recCount[g];
        // the records as they are, in one run (the unused slots of a record are 0 on both sides; no subarray: a view
        // object per node costs more than the copy)
        for (let o = r0 * STRIDE, q = nRec * STRIDE, e = r1 * STRIDE; o < e; o++, q++) recData[q] = rawRec[o];
        for (let r = r0; r < r1; r++) recLen[nRec++] = rawLen[r];
      }
      for (let c = firstChild[g]; c >= 0; c = nextSibling[c]) kids.push(c);
    } else {
      // several raw nodes of one method (or the roots): sums, records merged by (site, type), children by method
      const members = groups[-1 - g];
      const root = g === rootGroup;
      method[i] = root ? -1 : rm[members[0]];
      let sumCalls = 0;
      let sumSamples = 0;
      const at = new Map<number, number>();
      const byMethod = new Map<number, number[]>();
      for (const k of members) {
        sumCalls += rawCalls[k];
        sumSamples += rawSamples[k];
        const r0 = recFirst[k];
        if (r0 >= 0) {
          for (let r = r0; r < r0 + recCount[k]; r++) {
            const o = r * STRIDE;
            const key = rawRec[o] * 1048576 + rawRec[o + 1];
            const have = at.get(key);
            if (have !== undefined) {
              const q = have * STRIDE;
              recData[q + 2] += rawRec[o + 2];
              recData[q + 3] += rawRec[o + 3];
              recData[q + 4] += rawRec[o + 4];
            } else {
              // merged records keep site, type and the counts only, as merge-shared.ts makes them
              at.set(key, nRec);
              const q = nRec * STRIDE;
              for (let j = 0; j < 5; j++) recData[q + j] = rawRec[o + j];
              recLen[nRec++] = 5;
            }
          }
        }
        for (let c = firstChild[k]; c >= 0; c = nextSibling[c]) {
          const list = byMethod.get(rm[c]);
          if (list) list.push(c);
          else byMethod.set(rm[c], [c]);
        }
      }
      hasRecs = nRec > first;
      calls[i] = root ? 0 : sumCalls;
      samples[i] = sumSamples;
      for (const list of byMethod.values()) {
        if (list.length === 1) kids.push(list[0]);
        else {
          groups.push(list);
          kids.push(-groups.length);
        }
      }
    }
    recStart[i] = hasRecs ? first : -1 - first;
    for (let r = first; r < nRec; r++) {
      const q = r * STRIDE;
      if (isArray[recData[q + 1]]) {
        nArr += recData[q + 2];
        nElem += recData[q + 3];
      } else {
        nObj += recData[q + 2];
      }
      nBytes += recData[q + 4];
    }
    if (hasRecs) {
      allocations[i] = nArr + nObj;
      arrays[i] = nArr;
      objects[i] = nObj;
      elements[i] = nElem;
      bytes[i] = nBytes;
    }
    if (kids.length > 0) {
      if (kids.length > 16) kids.sort(byRankDesc);
      else if (kids.length > 1) {
        // short lists (most): a stable insertion sort, by descending rank as frameTree's sort
        for (let a = 1; a < kids.length; a++) {
          const v = kids[a];
          const r = rank[methodOf(v)];
          let b = a - 1;
          while (b >= 0 && rank[methodOf(kids[b])] < r) {
            kids[b + 1] = kids[b];
            b--;
          }
          kids[b + 1] = v;
        }
      }
      for (let k = 0; k < kids.length; k++) {
        stackGroup.push(kids[k]);
        stackParent.push(i);
        stackDepth.push(d + 1);
      }
    }
    i++;
  }
  const n = i;
  recStart[n] = nRec;
  // views of the arrays' first n slots (the merge made fewer nodes than the threads had): no copy
  const cut = (a: Float64Array): Float64Array => a.subarray(0, n);
  const tree = {
    n, maxDepth, method: method.subarray(0, n), parent: parent.subarray(0, n), depth: depth.subarray(0, n), end: new Int32Array(n),
    entryLine: entryLine.subarray(0, n),
    self: Object.fromEntries(VIEW_METRICS.map((k) => [k, cut(self[k])])) as MetricArrays,
    total: Object.fromEntries(VIEW_METRICS.map((k) => [k, new Float64Array(n)])) as MetricArrays,
  };
  for (let k = 0; k < n; k++) tree.end[k] = k + 1;
  rollUp(tree);
  return {
    ...tree,
    recs: { recStart: recStart.subarray(0, n + 1), recData: recData.subarray(0, nRec * STRIDE), recLen: recLen.subarray(0, nRec) },
  };
}

function metricArrays(n: number): MetricArrays {
  return Object.fromEntries(VIEW_METRICS.map((k) => [k, new Float64Array(n)])) as Record<ViewMetric, Float64Array>;
}

/** Siblings' order: a rank per method id by `class.method(desc)`, as frameTree ranks them. */
function methodRanks(file: ProfileFile, maxMethod: number): Int32Array {
  const methods = new Map(file.methods.map((m) => [m.id, m]));
  const rank = new Int32Array(maxMethod + 1);
  [...methods.keys()].filter((id) => id <= maxMethod).map((id) => {
    const m = methods.get(id)!;
    return [id, `${m.class}.${m.name}${m.desc}`] as const;
  }).sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[0] - b[0])).forEach(([id], k) => { rank[id] = k; });
  return rank;
}

function arrayTypes(file: ProfileFile): Uint8Array {
  let max = 0;
  for (const t of file.types) if (t.id > max) max = t.id;
  const out = new Uint8Array(max + 1);
  for (const t of file.types) if (t.array) out[t.id] = 1;
  return out;
}
