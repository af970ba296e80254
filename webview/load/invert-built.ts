// The inverted tree of a built first tree (the report's, a panel's), made on the page from the tree's typed arrays
// (core/views/invert-frames.ts): no call trees' JSON to parse, no worker to wait for. Only for the tree the built one
// inverts (all threads merged, nothing folded, the built mode's data) and only when no node has `folded` calls: the
// built columns do not carry them, and invertPruned weighs them.
import { FrameTree, methodRanks } from '../../core/views/frames';
import { invertFramesInSteps } from '../../core/views/invert-frames';
import { MethodEntry } from '../../core/profile/types';
import { TreeOptions } from '../data';
import { runInTasks } from '../tasks';
import { timings } from '../timing';
import { PackedRecords } from './tree-pack';

/** Above this many nodes the inversion runs in the load worker as before: a page task of its length would freeze the page. */
export const INVERT_HERE_BELOW = 400_000;

/** Whether the inverted tree asked for is the built top-down tree's, turned over. */
export function invertsBuilt(o: TreeOptions): boolean {
  return o.inverted && o.thread === -1 && !o.myCode && !o.collapseRecursion && !o.cpu;
}

/** Whether the call trees' text has a node with folded calls (`"folded": 0` is none). */
export function hasFoldedCalls(treesText: string): boolean {
  return /"folded":\s*[1-9]/.test(treesText);
}

/**
 * The inverted tree, or undefined when a frame names a method the table lacks (then the worker builds it). Made in
 * tasks of ~30 ms (webview/tasks.ts): in one task it held the page for 232–512 ms after the paint at 100,000 nodes.
 */
export async function invertBuilt(top: FrameTree, recs: PackedRecords, methods: ReadonlyMap<number, MethodEntry>): Promise<FrameTree | undefined> {
  const { recStart } = recs;
  const hasRecords = (i: number): boolean => {
    const s = recStart[i];
    if (s < 0) return false;
    const e = recStart[i + 1];
    return (e < 0 ? -1 - e : e) > s;
  };
  // its busy time (the slices' sum) is `invert`; one step: the inversion writes the flattened tree itself
  const tree = await runInTasks(invertFramesInSteps(top, methodRanks(methods), hasRecords), 'invert');
  timings.flatten = 0;
  timings.invertedHere = 1;
  delete timings.unpack;
  delete timings.builtAhead;
  return tree;
}
