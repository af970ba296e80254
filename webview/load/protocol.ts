// Messages between the page and its load worker (webview/load/worker.ts). The page sends the profile as JSON text;
// the worker parses it, keeps the call trees, and answers with flattened trees as transferable typed arrays
// (tree-pack.ts), plus the profile without its call trees (the tables every view reads: methods, types, sites, …).
import { TreeKind } from '../../core/profile/modes';
import { ProfileFile } from '../../core/profile/types';
import { TreeOptions } from '../data';
import { PackedRecords, PackedTree } from './tree-pack';

export type LoadRequest =
  /** `text`: a profile file, or the HTML report's embedded data ({ title, profile, baseline?, tree? }) */
  /** `ahead`: build the other orientation's tree too once the first is sent (not for live updates, replaced each second) */
  /** `first` false: the page parsed the text itself and shows the first tree; the worker only builds ahead */
  /** `trees`: the threads' call trees as JSON text, when `text` has them left out (tree-split.ts) */
  /** `raw`: a saved file's bytes as the page fetched them (gzipped or not: fetch-profile.ts), `text` then '' */
  | { type: 'load'; seq: number; text: string; raw?: Uint8Array; trees?: string; title: string; kind: TreeKind | 'auto'; opts: TreeOptions; ahead: boolean; first: boolean }
  | { type: 'tree'; seq: number; id: number; kind: TreeKind; opts: TreeOptions };

export type LoadReply =
  | { type: 'progress'; seq: number; step: string }
  | {
    type: 'loaded'; seq: number;
    /** the profile with every thread's call trees left out (`root: {}`) */
    light: ProfileFile;
    kinds: TreeKind[];
    /** the tree shown when the user did not choose (modes.defaultTree of the whole profile) */
    defaultKind: TreeKind;
    /** the kind of `tree` */
    kind: TreeKind;
    tree: PackedTree;
    /** the report's baseline and its first tree (embedded data only) */
    baseline?: { title: string; profile: ProfileFile };
    reportTree?: TreeKind;
    /** the worker's step times (timing.ts) */
    timings: Record<string, number>;
    /** when the worker's steps of this load ended (epoch ms; the page marks them on its timeline: timing.ts mark) */
    marks?: Record<string, number>;
  }
  /** the first tree's allocation records, sent after it (the page paints without them) */
  | { type: 'recs'; seq: number; recs: PackedRecords }
  | { type: 'tree'; seq: number; id: number; kind: TreeKind; tree: PackedTree; timings: Record<string, number> }
  /** a fetched file's text as bytes (inflated), moved to the page after the first tree: the few uses that need the
   *  call trees themselves on the page (the diff) decode it there */
  | { type: 'bytes'; seq: number; bytes: Uint8Array }
  | { type: 'error'; seq: number; id?: number; message: string };
