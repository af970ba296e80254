// Export to speedscope's file format (https://www.speedscope.app/file-format-schema.json): one "sampled"
// profile per thread whose samples are the allocating stacks, with the allocated type as the leaf frame
// (as in the collapsed format), weighted by the metric. Bytes are in unit "bytes", counts in unit "none".
import { ExportMetric, exportValue } from '../views/aggregate';
import { EXPORT_FRAMES_MAX, FOLDED_FRAME } from './collapsed';
import { recordsOf, walk } from '../profile/mct';
import { MctNode, Profile } from '../profile/types';

export interface SpeedscopeFrame {
  name: string;
  file?: string;
  line?: number;
}

export interface SpeedscopeProfile {
  type: 'sampled';
  name: string;
  unit: 'bytes' | 'none';
  startValue: number;
  endValue: number;
  samples: number[][];
  weights: number[];
}

export interface SpeedscopeFile {
  $schema: 'https://www.speedscope.app/file-format-schema.json';
  shared: { frames: SpeedscopeFrame[] };
  profiles: SpeedscopeProfile[];
  name: string;
  activeProfileIndex: number;
  exporter: string;
}

export function speedscope(profile: Profile, opts: { metric: ExportMetric; name?: string; exporter?: string }): SpeedscopeFile {
  const frames: SpeedscopeFrame[] = [];
  const methodFrame = new Map<number, number>();
  const typeFrame = new Map<number, number>();
  const frameOfMethod = (id: number): number => {
    let f = methodFrame.get(id);
    if (f === undefined) {
      const m = profile.methods.get(id);
      const fr: SpeedscopeFrame = { name: m ? `${m.class}.${m.name}` : `?${id}` };
      if (m?.file) fr.file = m.file;
      if (m?.line !== undefined) fr.line = m.line;
      f = frames.push(fr) - 1;
      methodFrame.set(id, f);
    }
    return f;
  };
  const frameOfType = (id: number): number => {
    let f = typeFrame.get(id);
    if (f === undefined) {
      f = frames.push({ name: `new ${profile.types.get(id)?.name ?? `?${id}`}` }) - 1;
      typeFrame.set(id, f);
    }
    return f;
  };
  let namedFrame: number | undefined;
  const frameOfName = (name: string): number => (namedFrame ??= frames.push({ name }) - 1);
  const unit = opts.metric === 'bytes' ? 'bytes' : 'none';
  const profiles = profile.threads.map((thread): SpeedscopeProfile => {
    const samples: number[][] = [];
    const weights: number[] = [];
    // calls deeper than the bound (collapsed.ts) add their weight to one sample per (ancestor at the bound, type)
    const folded = new Map<MctNode, { stack: number[]; byType: Map<number, number> }>();
    walk(thread.root, (node: MctNode, path) => {
      const recs = recordsOf(node);
      if (recs.length === 0) return;
      const deep = path.length > EXPORT_FRAMES_MAX;
      let byType: Map<number, number> | undefined;
      if (deep) {
        const at = path[EXPORT_FRAMES_MAX - 1];
        let f = folded.get(at);
        if (!f) {
          const stack = path.slice(0, EXPORT_FRAMES_MAX).map((n) => frameOfMethod(n.m as number));
          stack.push(frameOfName(FOLDED_FRAME));
          folded.set(at, (f = { stack, byType: new Map() }));
        }
        byType = f.byType;
      }
      const stack = deep ? [] : path.map((n) => frameOfMethod(n.m as number));
      for (const rec of recs) {
        const type = profile.types.get(rec[1]);
        if (!type) continue;
        const v = exportValue(type, rec, opts.metric);
        if (v === 0) continue;
        if (byType) { byType.set(rec[1], (byType.get(rec[1]) ?? 0) + v); continue; }
        const sample = stack.slice();
        sample.push(frameOfType(rec[1]));
        samples.push(sample);
        weights.push(v);
      }
    });
    for (const { stack, byType } of folded.values()) {
      for (const [typeId, v] of byType) {
        const sample = stack.slice();
        sample.push(frameOfType(typeId));
        samples.push(sample);
        weights.push(v);
      }
    }
    const total = weights.reduce((s, w) => s + w, 0);
    return { type: 'sampled', name: `${thread.name} (${opts.metric})`, unit, startValue: 0, endValue: total, samples, weights };
  });
  return {
    $schema: 'https://www.speedscope.app/file-format-schema.json',
    shared: { frames },
    profiles,
    name: opts.name ?? `HeapLens ${profile.file.meta.command ?? ''}`.trim(),
    // open on the thread that allocated the most
    activeProfileIndex: profiles.reduce((best, p, k) => (p.endValue > profiles[best].endValue ? k : best), 0),
    exporter: opts.exporter ?? `heaplens ${profile.file.meta.agentVersion ?? ''}`.trim(),
  };
}
