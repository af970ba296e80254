// The grouping behind both inverted trees (invertPruned over parsed nodes, invertFramesInSteps over a built tree's
// typed arrays): level 1 groups every context by its own method, each next level groups a group's contexts by their
// next caller. A caller group whose contexts' summed weight is below `minShare` is not opened: its contexts stay on the
// frame above (the chain of callers is cut there, its totals stay exact). Groups are ranges of one shared buffer of
// contexts (and, per context, the caller reached so far): splitting a range reorders it in place through a scratch
// buffer, so nothing is allocated per group.

/** Where the grouping puts its results: the caller's tree, in whatever form it builds. */
export interface CallerGroupsSink {
  /** Context `ctx` ends on frame `at` (its own values are summed there). */
  absorb(at: number, ctx: number): void;
  /** The child of frame `at` for `method`, made now (children are made in the order their groups are first met). */
  child(at: number, method: number): number;
}

/**
 * Groups `contexts` (node indexes of a pre-order tree: `parent[i]` is 0 for the root's children, `method[i]` a method id
 * ≥ 0) into caller chains under frame 0. Yields every `splitsPerStep` splits, so the page can run it in slices.
 */
export function* groupByCallers(parent: Int32Array, method: Int32Array, weight: Float64Array, contexts: readonly number[],
  minShare: number, sink: CallerGroupsSink, splitsPerStep = Infinity): Generator<void, void> {
  const count = contexts.length;
  const ctxBuf = Int32Array.from(contexts);
  const curBuf = Int32Array.from(contexts);
  const tmpCtx = new Int32Array(count);
  const tmpCur = new Int32Array(count);
  const key = new Int32Array(count);
  let maxMethod = 0;
  for (let i = 1; i < method.length; i++) if (method[i] > maxMethod) maxMethod = method[i];
  const slot = new Int32Array(maxMethod + 1).fill(-1);   // a method's group in the range being split
  // per split: its groups (at most one per context of the range), typed and allocated once
  const gMethod = new Int32Array(count + 1);
  const gSize = new Int32Array(count + 1);
  const gWeight = new Float64Array(count + 1);
  const gFill = new Int32Array(count + 1);
  let todo = new Int32Array(3 * 1024);                   // (frame, start, end) triples
  let todoLen = 0;
  const split = (at: number, s: number, e: number, top: boolean): void => {
    let groups = 0;
    for (let k = s; k < e; k++) {
      const up = top ? curBuf[k] : parent[curBuf[k]];
      if (up <= 0) {
        sink.absorb(at, ctxBuf[k]);      // the thread's first frame: the chain ends here
        key[k] = -1;
        continue;
      }
      curBuf[k] = up;
      const m = method[up];
      let g = slot[m];
      if (g < 0) {
        g = slot[m] = groups++;
        gMethod[g] = m;
        gSize[g] = 0;
        gWeight[g] = 0;
      }
      key[k] = g;
      gSize[g]++;
      gWeight[g] += weight[ctxBuf[k]];
    }
    for (let g = 0; g < groups; g++) slot[gMethod[g]] = -1;
    // kept groups get consecutive ranges from s on; a cut group's contexts stay on this frame
    let pos = s;
    for (let g = 0; g < groups; g++) {
      if (top || gWeight[g] >= minShare) {
        gFill[g] = pos;
        pos += gSize[g];
      } else gFill[g] = -1;
    }
    for (let k = s; k < e; k++) {
      const g = key[k];
      if (g < 0) continue;
      if (gFill[g] < 0) {
        sink.absorb(at, ctxBuf[k]);      // callers too small to see: the chain is cut here
        continue;
      }
      const to = gFill[g]++;
      tmpCtx[to] = ctxBuf[k];
      tmpCur[to] = curBuf[k];
    }
    for (let k = s; k < pos; k++) {
      ctxBuf[k] = tmpCtx[k];
      curBuf[k] = tmpCur[k];
    }
    for (let g = 0; g < groups; g++) {
      if (gFill[g] < 0) continue;
      if (todoLen + 3 > todo.length) {
        const more = new Int32Array(todo.length * 2);
        more.set(todo);
        todo = more;
      }
      todo[todoLen++] = sink.child(at, gMethod[g]);
      todo[todoLen++] = gFill[g] - gSize[g];
      todo[todoLen++] = gFill[g];
    }
  };
  split(0, 0, count, true);
  for (let splits = 1; todoLen > 0; splits++) {
    const e = todo[--todoLen];
    const s = todo[--todoLen];
    split(todo[--todoLen], s, e, false);
    if (splits % splitsPerStep === 0) yield;
  }
}

/** Runs {@link groupByCallers} to its end at once. */
export function groupByCallersNow(parent: Int32Array, method: Int32Array, weight: Float64Array, contexts: readonly number[],
  minShare: number, sink: CallerGroupsSink): void {
  const steps = groupByCallers(parent, method, weight, contexts, minShare, sink);
  while (!steps.next().done) { /* no slices: the caller wants the result now */ }
}
