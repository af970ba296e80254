// Messages between the webview and its host (the extension's panel, or the HTML report's page script).
// The host sends data; the webview only asks (navigate, export, snapshot, a baseline to compare with):
// the host decides what to do.
import { ProfileFile } from '../profile/types';
import { Metric } from '../views/aggregate';
import type { HeapViewData } from './heap-rows';
import { TreeKind } from '../profile/modes';

export interface FrameRef {
  class: string;
  method: string;
  desc: string;
  /** source file name as the class file records it (e.g. `Parser.java`) */
  file?: string;
  line?: number;
}

export type HostMessage =
  /** a new profile to show (the view state is kept when `keepState` and the frames still exist): the file itself, or
   *  `json`, its JSON text (the webview's load worker parses it, off the page's thread; the HTML report's embedded data too) */
  /** `url`: a saved file's webview URI, whose bytes the page fetches itself (a gzipped file too); the host then sends no
   *  data at all (docs/views.md, "Loading: a saved profile fetched by the page") */
  | { type: 'profile'; profile?: ProfileFile; json?: string; url?: string; title: string; live: boolean; keepState?: boolean; built?: BuiltTree }
  /** the baseline the Diff view compares the profile with */
  | { type: 'baseline'; profile: ProfileFile; title: string }
  /** a line for the status bar of the view (e.g. "live · updated 12:03:04", "session ended") */
  | { type: 'status'; text: string; live?: boolean }
  /** a heap dump's analysis for the Heap view (shown at once when `reveal`) */
  | { type: 'heap'; heap: HeapViewData; reveal?: boolean }
  /** show one method's callers and callees (the editor's CodeLens), matched by signature in the profile shown */
  | { type: 'showMethod'; view: 'butterfly'; frame: { class: string; method: string; desc: string } };

/**
 * The first tree, built where the profile was read (extension/panels/first-tree.ts), for a profile sent as `json`
 * without its call trees (tree-split.ts): the page paints these columns, then parses `trees` for every other tree.
 */
export interface BuiltTree {
  /** the data the tree is of; `kinds` and `defaultKind`: what the whole profile holds (modes.ts) */
  kind: TreeKind;
  kinds: TreeKind[];
  defaultKind: TreeKind;
  /** core/views/frame-columns.ts encodeFrameColumns, and encodeFrameRecords (gzipped in a report, not in a panel's
   *  message); a panel posts them as Uint8Arrays, which VS Code carries as bytes */
  columns: Uint8Array;
  records: Uint8Array;
  /** the threads' call trees (tree-split.ts ThreadTrees[]) as JSON text */
  trees: string;
}

/** pprof: gzipped, both allocations (count) and bytes in one file (the metric picks nothing) */
export type ExportFormat = 'collapsed' | 'speedscope' | 'pprof';
export type ExportMetric = Metric | 'allocations' | 'samples';

export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'navigate'; frame: FrameRef }
  /** tree: the mode's data shown when the user exported (modes.ts); absent = the default.
   *  metric 'samples': the threads profile's CPU samples (cpu-export.ts) instead of allocations */
  | { type: 'export'; format: ExportFormat; metric: ExportMetric; tree?: TreeKind }
  /** a snapshot of the live session (`gc`: after a full garbage collection) */
  | { type: 'snapshot'; gc?: boolean }
  | { type: 'pickBaseline' }
  /** what keeps objects of this class alive: the host runs `heaplens.showRetention` when available */
  | { type: 'whyAlive'; className: string }
  /** the Heap view asks for the paths from GC roots to objects of a class */
  | { type: 'heapPaths'; className: string }
  /** "Take Heap Dump" */
  | { type: 'heapDump' }
  /** the page could not fetch the profile's `url`: the host sends the file as a message instead */
  | { type: 'fetchFailed'; message: string };

export function isHostMessage(v: unknown): v is HostMessage {
  if (typeof v !== 'object' || v === null) return false;
  const t = (v as { type?: unknown }).type;
  return t === 'profile' || t === 'baseline' || t === 'status' || t === 'heap' || t === 'showMethod';
}

export function isWebviewMessage(v: unknown): v is WebviewMessage {
  if (typeof v !== 'object' || v === null) return false;
  const t = (v as { type?: unknown }).type;
  if (t === 'whyAlive') return typeof (v as { className?: unknown }).className === 'string';
  if (t === 'fetchFailed') return typeof (v as { message?: unknown }).message === 'string';
  return t === 'ready' || t === 'navigate' || t === 'export' || t === 'snapshot' || t === 'pickBaseline' || t === 'heapPaths' || t === 'heapDump';
}
