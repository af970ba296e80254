// Collapsed stacks ("folded" format read by flamegraph.pl, speedscope, inferno …):
//   frame;frame;…;frame;TYPE COUNT
// Frames are `package.Class.method` (binary class names, `$` kept), the last frame is the allocated type.
import { Metric, metricOf } from './aggregate';
import { recordsOf, walk } from './mct';
import { MctNode, Profile } from './types';

export interface CollapsedOptions {
  metric: Metric;
  /** prefix every stack with `thread:<name>` instead of summing identical stacks across threads */
  threads: boolean;
}

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
    walk(thread.root, (node, path) => {
      const recs = recordsOf(node);
      if (recs.length === 0) return;
      const stack = prefix.concat(path.map(frameOf)).join(';');
      for (const rec of recs) {
        const type = profile.types.get(rec[1]);
        if (!type) continue;
        const v = metricOf(type, rec, opts.metric);
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
