// The first paint from a profile's first section (core/profile/first-section.ts): a ProfileData that holds only the
// section's tree, under the options of the first view, while the whole file is still arriving. Every other tree is
// pending until the whole profile replaces it (ProfileData.partial: the other views say "loading…").
import { FirstSection } from '../../core/profile/first-section';
import { PROFILE_FORMAT, ProfileFile, Meta, TransformStats, AgentStats } from '../../core/profile/types';
import { checkSection, sectionCovers, sectionFrames, sectionMethods } from '../../core/views/first-frames';
import { ProfileData, treeKey } from '../data';
import { UiState } from '../state';

/**
 * Whether the section draws the view the page would show first: the flame tree, all threads, top-down, not zoomed,
 * under the section's metric (a first view under another metric waits for the whole file).
 */
export function sectionShows(s: FirstSection, state: UiState, width: number): boolean {
  const kind = state.data === 'auto' || !s.kinds.includes(state.data) ? s.tree : state.data;
  return state.view === 'flame' && state.thread === -1 && !state.myCode && !state.collapseRecursion && !state.inverted &&
    state.zoom.length === 0 && state.metric === s.metric && !state.colorByAccount && kind === s.tree && sectionCovers(s, width);
}

/** The section's data, or undefined when the head has no usable section or it does not draw the first view. */
export function sectionData(meta: Meta, first: unknown, title: string, state: UiState, width: number): ProfileData | undefined {
  const s = checkSection(first);
  if (!s || !sectionShows(s, state, width)) return undefined;
  const file: ProfileFile = {
    format: PROFILE_FORMAT, version: 1, meta, types: [], methods: sectionMethods(s), sites: [],
    threads: s.threads.map(([id, name]) => ({ id, name, daemon: false, alive: false, root: {} })),
    transform: {} as TransformStats, agent: {} as AgentStats,
  };
  const data = new ProfileData(file, title, {
    kinds: s.kinds, defaultKind: s.tree,
    request: () => undefined,           // answered by the whole profile, which replaces this data
    fullFile: () => {
      throw new Error('the profile is still loading');
    },
  }, s.tree, true);
  data.accept(s.tree, treeKey({ thread: -1, myCode: false, collapseRecursion: false, inverted: false }, false), sectionFrames(s));
  return data;
}
