// A profile file split into its call trees and the rest (methods, types, sites, meta, the threads' names, …): the
// HTML report embeds the two apart, so that the page reads the small rest at once and the trees only when a view needs
// them; the load worker hands the page the rest the same way.
import { ProfileFile, ThreadEntry } from './types';

/** One thread's call trees, one per mode that recorded one (modes.ts). */
export type ThreadTrees = Pick<ThreadEntry, 'root' | 'sites' | 'siteTraces' | 'sampled'>;

/** The file with every thread's trees left out (`root: {}`), and the trees, thread by thread in the file's order. */
export function splitTrees(file: ProfileFile): { light: ProfileFile; trees: ThreadTrees[] } {
  const trees: ThreadTrees[] = [];
  const threads = file.threads.map((t) => {
    const { root, sites, siteTraces, sampled, ...rest } = t;
    trees.push({ root, ...(sites ? { sites } : {}), ...(siteTraces ? { siteTraces } : {}), ...(sampled ? { sampled } : {}) });
    return { ...rest, root: {} };
  });
  // the first section (first-section.ts) is a digest of the trees: it goes with them, not into the light part
  const { first: _first, ...rest } = file as ProfileFile & { first?: unknown };
  return { light: { ...rest, threads }, trees };
}

/** The whole file again (a new object: `light` is left as it is). */
export function joinTrees(light: ProfileFile, trees: readonly ThreadTrees[]): ProfileFile {
  if (trees.length !== light.threads.length) throw new Error(`the call trees are for ${trees.length} threads, the profile has ${light.threads.length}`);
  return { ...light, threads: light.threads.map((t, i) => ({ ...t, ...trees[i] })) };
}
