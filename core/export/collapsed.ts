// Collapsed stacks ("folded" format read by flamegraph.pl, speedscope, inferno …):
//   frame;frame;…;frame;TYPE COUNT
// Frames are `package.Class.method` (binary class names, `$` kept), the last frame is the allocated type.
import { ExportMetric, exportValue } from '../views/aggregate';
import { recordsOf, walk } from '../profile/mct';
import { MctNode, Profile } from '../profile/types';

export interface CollapsedOptions {
  metric: ExportMetric;
  /** prefix every stack with `thread:<name>` instead of summing identical stacks across threads */
  threads: boolean;
}

/**
 * Frames an exported stack keeps: the agent's default maxDepth (4096) plus the thread's first frame, so a profile
 * the agent wrote with default options is never cut. Deeper calls (a hand-made or maxDepth-raised tree a million
 * calls deep) fold into their ancestor at this depth under one `[deeper calls folded]` frame: every line repeats
 * its whole stack, so without a bound a deep chain's export grows with the square of its depth.
 */
export const EXPORT_FRAMES_MAX = 4097;
export const FOLDED_FRAME = '[deeper calls folded]';

/** A frame may not contain the separator `;` nor a line break. */
function clean(frame: string): string {
  return frame.replace(/[;\r\n]/g, '_');
}

/** Collapsed-stack lines sorted lexicographically; lines whose count is 0 are left out. */
export function collapsed(profile: Profile, opts: CollapsedOptions): string[] {
  const sums = new Map<string, number>();
  const methodFrame = new Map<number, string>();
  const frameOf = (node: MctNode): string => {
    const id = node.m as number;
    let f = methodFrame.get(id);
    if (f === undefined) {
      const m = profile.methods.get(id);
      f = clean(m ? `${m.class}.${m.name}` : `?${id}`);
      methodFrame.set(id, f);
    }
    return f;
  };
  for (const thread of profile.threads) {
    const prefix = opts.threads ? [clean(`thread:${thread.name}`)] : [];
    const foldedStack = new Map<MctNode, string>();   // per ancestor at the depth bound: its stack + the folded frame
    walk(thread.root, (node, path) => {
      const recs = recordsOf(node);
      if (recs.length === 0) return;
      let stack: string;
      if (path.length <= EXPORT_FRAMES_MAX) stack = prefix.concat(path.map(frameOf)).join(';');
      else {
        const at = path[EXPORT_FRAMES_MAX - 1];
        let s = foldedStack.get(at);
        if (s === undefined) foldedStack.set(at, (s = prefix.concat(path.slice(0, EXPORT_FRAMES_MAX).map(frameOf), FOLDED_FRAME).join(';')));
        stack = s;
      }
      for (const rec of recs) {
        const type = profile.types.get(rec[1]);
        if (!type) continue;
        const v = exportValue(type, rec, opts.metric);
        if (v === 0) continue;
        const key = stack === '' ? clean(type.name) : `${stack};${clean(type.name)}`;
        sums.set(key, (sums.get(key) ?? 0) + v);
      }
    });
  }
  const lines: string[] = [];
  for (const [key, n] of sums) if (n !== 0) lines.push(`${key} ${n}`);
  return lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The collapsed text: one line per stack, newline-terminated (empty string when nothing was allocated). */
export function collapsedText(profile: Profile, opts: CollapsedOptions): string {
  const lines = collapsed(profile, opts);
  return lines.length ? lines.join('\n') + '\n' : '';
}
