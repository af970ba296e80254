// Export to pprof (github.com/google/pprof, proto/profile.proto), the format continuous-profiling backends
// (Pyroscope, Parca, Grafana) and `go tool pprof` read. Encoded with the npm package pprof-format (Datadog's
// encoder), not hand-written protobuf; gzip is the caller's (Node's zlib, or the browser's CompressionStream).
//
// Two sample types: allocations (count: objects or arrays) and bytes (estimated, as everywhere). One sample per
// calling context and allocated type, as the collapsed and speedscope exports: its stack is, innermost first,
// `new TYPE` (so `pprof -top` ranks types by flat value), the allocation site (its method at the site's line),
// then the context's methods up to the thread's first profiled frame. A label `thread` keeps threads apart.
// A caller frame carries the line of its call (the child node's `line`, docs/format.md; 0 in files without it),
// and the innermost profiled frame of an allocation made inside a JDK call the line of that call (the record's
// line); every function has its first line (start_line) and its source file, as a package path (com/acme/Parser.java).
import { Profile as PprofProfile, StringTable } from 'pprof-format';
import { recordsOf, walk } from '../profile/mct';
import { MethodEntry, Profile } from '../profile/types';

export const PPROF_SAMPLE_TYPES = [{ type: 'allocations', unit: 'count' }, { type: 'bytes', unit: 'bytes' }] as const;

/** The pprof profile (not yet encoded) of the profile's root trees (pass withTree(...) for another mode's data). */
export function pprofOf(profile: Profile): PprofProfile {
  const strings = new StringTable();
  const s = (v: string): number => strings.dedup(v);
  const functions: { id: number; name: number; systemName: number; filename: number; startLine: number }[] = [];
  const locations: { id: number; line: { functionId: number; line: number }[] }[] = [];
  const fnIds = new Map<string, number>();
  const locIds = new Map<string, number>();

  const fn = (key: string, name: string, system: string, file: string, start: number): number => {
    let id = fnIds.get(key);
    if (id === undefined) {
      id = functions.length + 1;
      functions.push({ id, name: s(name), systemName: s(system), filename: s(file), startLine: start });
      fnIds.set(key, id);
    }
    return id;
  };
  const methodFn = (methodId: number): number => {
    const m = profile.methods.get(methodId);
    if (!m) return fn(`m${methodId}`, `?${methodId}`, `?${methodId}`, '', 0);
    return fn(`m${methodId}`, `${m.class}.${m.name}`, `${m.class}.${m.name}${m.desc}`, sourcePath(m), m.line ?? 0);
  };
  const loc = (fnId: number, line: number): number => {
    const key = `${fnId}:${line}`;
    let id = locIds.get(key);
    if (id === undefined) {
      id = locations.length + 1;
      locations.push({ id, line: [{ functionId: fnId, line }] });
      locIds.set(key, id);
    }
    return id;
  };

  const samples: { locationId: number[]; value: number[]; label: { key: number; str: number }[] }[] = [];
  const threadKey = s('thread');
  for (const thread of profile.threads) {
    const threadLabel = [{ key: threadKey, str: s(thread.name) }];
    walk(thread.root, (node, path) => {
      const recs = recordsOf(node);
      if (recs.length === 0) return;
      // callers, innermost first, each at the line of its call into the next frame (0 where the file has none);
      // callers[0], the node's own frame, is placed per record below
      const callers = path.map((n, i) => loc(methodFn(n.m as number), path[i + 1]?.line ?? 0)).reverse();
      for (const rec of recs) {
        const [siteId, typeId, count, , bytes] = rec;
        if (count === 0 && bytes === 0) continue;
        const type = profile.types.get(typeId);
        const site = profile.sites.get(siteId);
        const typeName = type?.name ?? `?${typeId}`;
        const typeLoc = loc(fn(`t${typeId}`, `new ${typeName}`, `new ${typeName}`, '', 0), 0);
        const stack = [typeLoc];
        const siteMethod = site?.method;
        const siteLine = site?.line ?? 0;
        if (siteMethod !== undefined && siteMethod === node.m) {
          stack.push(loc(methodFn(siteMethod), siteLine), ...callers.slice(1));   // the site is in the context's own method
        } else {
          if (siteMethod !== undefined) stack.push(loc(methodFn(siteMethod), siteLine));   // JDK or excluded code charged here
          // the node's frame at the line of the call the JDK allocated inside (the record's line)
          if (rec[5] && node.m !== undefined) stack.push(loc(methodFn(node.m), rec[5]), ...callers.slice(1));
          else stack.push(...callers);
        }
        samples.push({ locationId: stack, value: [count, bytes], label: threadLabel });
      }
    });
  }

  const meta = profile.file.meta;
  const comment = [s(`HeapLens ${meta.agentVersion ?? ''}: ${meta.command ?? ''}`.trim())];
  return new PprofProfile({
    sampleType: PPROF_SAMPLE_TYPES.map((t) => ({ type: s(t.type), unit: s(t.unit) })),
    sample: samples,
    location: locations,
    function: functions,
    stringTable: strings,
    timeNanos: BigInt(Math.round(meta.startTime ?? 0)) * 1_000_000n,
    durationNanos: BigInt(Math.max(0, Math.round((meta.writeTime ?? 0) - (meta.startTime ?? 0)))) * 1_000_000n,
    defaultSampleType: s('bytes'),
    comment,
  });
}

/** The encoded, uncompressed profile.proto bytes (pprof files are gzipped: see pprofGzip). */
export function pprofBytes(profile: Profile): Uint8Array {
  return pprofOf(profile).encode();
}

/** The source file as pprof shows it: the package's path and the file name, e.g. com/acme/Parser.java. */
function sourcePath(m: MethodEntry): string {
  if (!m.file) return '';
  const dot = m.class.lastIndexOf('.');
  return dot < 0 ? m.file : `${m.class.slice(0, dot).replace(/\./g, '/')}/${m.file}`;
}
