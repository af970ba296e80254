// The live flame tree: a HeapLens panel that follows a running session through its live channel (the
// same LiveSource the CodeLens follows, extension/editor/sources.ts), throttled; never by re-reading the
// profile file the agent rewrites. When the run ends the panel keeps the last data and says so.
import type { LiveSource } from '../editor/sources';
import { ProfilePanels, ProfileView } from './panel';

export interface LiveViewOptions {
  /** the session's name, shown in the panel's title */
  name: string;
  /** minimum milliseconds between two updates of the view */
  intervalMs: () => number;
  snapshot?: (gc?: boolean) => void;
}

/** Shows (or brings to the front) the live flame tree of a session's source. */
export function showLive(panels: ProfilePanels, source: LiveSource, opts: LiveViewOptions): ProfileView | undefined {
  const first = source.profile();
  if (!first) return undefined;
  const key = `live:${source.sessionId}`;
  const had = panels.get(key);
  const view = panels.showProfile(first, { live: true, title: `${opts.name} (live)`, key, throttleMs: opts.intervalMs(), snapshot: opts.snapshot });
  if (had === view) return view;                      // already following
  let timer: NodeJS.Timeout | undefined;
  const push = (): void => {
    timer = undefined;
    const p = source.profile();
    if (p && !view.disposed) view.update(p);
  };
  // the newest data wins: one update per interval at most, the first one at the end of the interval
  const onUpdate = (): void => {
    if (!timer) timer = setTimeout(push, opts.intervalMs());
  };
  const onClose = (): void => {
    stop();
    setTimeout(() => {
      push();
      if (!view.disposed) view.status('the run ended: this is its last live data; the saved profile opens in the editor', false);
    }, 50);
  };
  const stop = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    source.live.off('update', onUpdate);
    source.live.off('close', onClose);
  };
  source.live.on('update', onUpdate);
  source.live.on('close', onClose);
  view.onDidDispose(stop);
  view.status('live: following the running program', true);
  return view;
}
