// The flame tree's first tree, built where the profile is read (the report generator) instead of in the page: the
// page then paints from these columns (core/views/frame-columns.ts) without parsing the call trees, and parses them
// after the first paint for the other views. No `vscode` import: the CLI uses it.
import { gzipSync } from 'zlib';
import { defaultTree, TreeKind, treesIn, withTree } from '../../core/profile/modes';
import { Profile } from '../../core/profile/types';
import { encodeFrameColumns, encodeFrameRecords } from '../../core/views/frame-columns';
import { FrameTree, frameTree } from '../../core/views/frames';
import { mergeShared } from '../../core/views/merge-shared';

/** The tree the page shows first, as it would build it: `kind`'s data, all threads merged, no transform. */
export function firstFrameTree(profile: Profile, kind: TreeKind): FrameTree {
  const p = withTree(profile, kind);
  // as the page's ProfileData.root(-1): the shared merge, even of a single thread
  return frameTree(mergeShared(p.threads.map((t) => t.root)), p.methods, p.types);
}

/** What the report embeds: the kinds of data the page can switch between, and the first tree gzipped (none without trees). */
export interface EmbeddedFirstTree {
  kinds: TreeKind[];
  defaultKind: TreeKind;
  /** the data the tree is of (the report's `--tree`, or the default) */
  kind: TreeKind;
  /** encodeFrameColumns as it is: the page reads it before the first paint, where a gunzip (an asynchronous stream in a
   *  page) cost more than the larger text saved (a third of its size, for ~200 ms) */
  columns: Uint8Array;
  /** encodeFrameRecords, gzipped in a report (its size on disk); as they are in a panel's message, which travels as
   *  bytes in memory, where the gzip cost ~80 ms of the host's time before the first paint at 100,000 nodes */
  records: Uint8Array;
}

export function embeddedFirstTree(profile: Profile, wanted: TreeKind, gzip = true): EmbeddedFirstTree | undefined {
  const kinds = treesIn(profile);
  if (kinds.length === 0) return undefined;          // accounts or lifetime mode: no call tree to draw
  const kind = kinds.includes(wanted) ? wanted : defaultTree(profile);
  const tree = firstFrameTree(profile, kind);
  return { kinds, defaultKind: defaultTree(profile), kind, columns: encodeFrameColumns(tree), records: gzip ? new Uint8Array(gzipSync(encodeFrameRecords(tree))) : encodeFrameRecords(tree) };
}
