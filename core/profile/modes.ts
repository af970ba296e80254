// The agent's modes keep separate data per thread (docs/format.md, "Thread"): the exact call tree, exact
// per-site counts (sites mode), sampled traces of those sites, and the sampled mode's estimates. Every other
// model function reads `thread.root`; `withTree` presents one of the other trees in its place, so all views
// and reports work on any mode's data, and `treeLabel` says what the numbers are.
import { MctNode, Profile, ThreadEntry } from './types';

export type TreeKind = 'exact' | 'sites' | 'traces' | 'sampled';
export const TREE_KINDS: readonly TreeKind[] = ['exact', 'sites', 'traces', 'sampled'];

const FIELD: Record<TreeKind, 'root' | 'sites' | 'siteTraces' | 'sampled'> = {
  exact: 'root', sites: 'sites', traces: 'siteTraces', sampled: 'sampled',
};

const LABEL: Record<TreeKind, string> = {
  exact: 'exact counts per calling context (exact mode)',
  sites: 'exact counts per allocation site, no calling context (sites mode)',
  traces: 'calling traces sampled per allocation site: counts are samples, not allocations (sites mode)',
  sampled: 'ESTIMATES scaled from sampled allocations (sampled mode)',
};

/** What the numbers of `kind`'s tree are; the sampled tree says which sampler fed it (meta.sampler). */
export function treeLabel(kind: TreeKind, profile?: Profile): string {
  const meta = profile?.file.meta;
  const modes = meta ? meta.modes?.map((m) => m.mode) ?? [meta.mode] : [];
  if (modes.length > 0 && modes.every((m) => m === 'paused')) return 'nothing counted: the run stayed paused from start to end (paused mode)';
  const imported = profile?.file.meta.imported;
  if (imported?.from === 'jfr' && kind === 'sampled') return `ESTIMATES from a JFR recording's allocation samples (${imported.estimator})`;
  if (imported?.from === 'jfr' && kind === 'traces') {
    return 'JFR old-object samples: objects still alive when the recording ended; counts are samples, not allocations';
  }
  if (kind === 'sampled' && profile?.file.meta.sampler === 'jvmti') {
    return "ESTIMATES from sampled allocations (sampled mode: HotSpot's heap sampling, each sample weighted by 1 / its chance of being taken"
      + `${raised(profile.file.meta)})`;
  }
  if (kind === 'sampled' && profile?.file.meta.sampler === 'jfr') {
    return 'ESTIMATES from sampled allocations (sampled mode: JFR TLAB samples, each weighted by 1 / its chance of being seen)';
  }
  return LABEL[kind];
}

/** KiB with no decimals below 10 MiB, else MiB: the sampling interval as the user set it (e.g. "64 KiB"). */
function kib(bytes: number): string {
  return bytes >= 10 * 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

/** sampler=jvmti's rate budget raised the interval while the program allocated fast: say so, and how far. */
function raised(meta: Profile['file']['meta']): string {
  const base = meta.sampleBytes, max = meta.sampleBytesMax;
  if (base === undefined || max === undefined || !(max > base)) return '';
  return `; a sample every ${kib(base)} allocated on average, raised up to every ${kib(max)} while the program allocated fast`
    + ' to keep the profiler\'s cost low: fewer samples, so wider ± ranges';
}

export function treeOf(thread: ThreadEntry, kind: TreeKind): MctNode | undefined {
  return thread[FIELD[kind]];
}

function hasData(node: MctNode | undefined): boolean {
  return !!node && ((node.a?.length ?? 0) > 0 || (node.c?.length ?? 0) > 0);
}

/** The trees that hold data in this profile, in the order of TREE_KINDS. */
export function treesIn(profile: Profile): TreeKind[] {
  return TREE_KINDS.filter((k) => profile.threads.some((t) => hasData(treeOf(t, k))));
}

/** The tree to show when the user did not choose: exact data when there is any, else the first other mode's. */
export function defaultTree(profile: Profile): TreeKind {
  const present = treesIn(profile);
  if (present.length === 0 || present.includes('exact')) return 'exact';
  return present.includes('sampled') ? 'sampled' : present.includes('sites') ? 'sites' : present[0];
}

/** The same profile with `kind`'s tree standing in each thread's `root` (threads without it get an empty root). */
export function withTree(profile: Profile, kind: TreeKind): Profile {
  if (kind === 'exact') return profile;
  const threads = profile.threads.map((t) => ({ ...t, root: treeOf(t, kind) ?? {} }));
  return { ...profile, threads, file: { ...profile.file, threads }, shown: kind };
}

/** The mode timeline as text, e.g. "exact from 10:00:01, sampled from 10:00:09". */
export function modeTimeline(profile: Profile): string {
  const modes = profile.file.meta.modes;
  if (!modes || modes.length === 0) return profile.file.meta.mode;
  const by = profile.file.meta.sampler === 'jfr' ? ' (JFR)' : profile.file.meta.sampler === 'jvmti' ? " (HotSpot's heap sampler)" : '';
  return modes.map((m) => `${m.mode}${m.mode === 'sampled' ? by : ''} from ${new Date(m.since).toISOString().slice(11, 19)}${
    m.retransformed !== undefined ? ` (${m.retransformed} classes re-instrumented in ${m.retransformMillis} ms)` : ''}`).join(', ');
}
