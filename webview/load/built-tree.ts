// The page's side of a first tree built where the profile was read (extension/panels/first-tree.ts): bytes in, the
// tree-pack.ts shapes out, so that the views take it as they take a tree from the load worker.
import { decodeFrameColumnsInSteps, decodeFrameRecords } from '../../core/views/frame-columns';
import { PackedRecords, PackedTree } from './tree-pack';
import { timings } from '../timing';
import { runInTasks } from '../tasks';

/** Base64 text to bytes: the browser's own decoder where it has one (Chromium 140+), else atob. */
export function fromBase64(text: string): Uint8Array {
  const native = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64;
  if (native) return native.call(Uint8Array, text);
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Base64 texts cut at multiples of 4 characters to the bytes of the whole (one part: fromBase64's own array). */
export function fromBase64Parts(parts: readonly string[]): Uint8Array {
  if (parts.length === 1) return fromBase64(parts[0]);
  const bytes = parts.map(fromBase64);
  const out = new Uint8Array(bytes.reduce((n, b) => n + b.byteLength, 0));
  let at = 0;
  for (const b of bytes) {
    out.set(b, at);
    at += b.byteLength;
  }
  return out;
}

/** Gunzips with the browser's DecompressionStream (native zlib; no library in the bundle). */
export async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The tree without its records (they follow: builtRecords); `inTasks`: decoded in slices, in tasks of their own. */
export async function builtColumns(bytes: Uint8Array, inTasks: boolean): Promise<PackedTree> {
  const steps = decodeFrameColumnsInSteps(bytes);
  if (inTasks) return runInTasks(steps, 'decodeColumns');
  const t0 = performance.now();
  let step = steps.next();
  while (!step.done) step = steps.next();
  timings.decodeColumns = Math.round((performance.now() - t0) * 10) / 10;
  return step.value;
}

/** The records, gzipped (a report's) or as they are (a panel's message: bytes in memory, not worth the host's gzip). */
export async function builtRecords(bytes: Uint8Array): Promise<PackedRecords> {
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;       // gzip's magic; encodeFrameRecords starts with "HFR1"
  return decodeFrameRecords(gzipped ? await gunzip(bytes) : bytes);
}

/** Runs `f` once the page is parsed (a report's trees and records follow its script), at once in a task otherwise. */
export function whenParsed(f: () => void): void {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => f(), { once: true });
  else setTimeout(f, 0);
}
