// Measurement mode of the report (`#bench=1`): times the first paint and a series of zooms in the real
// page and writes the figures into the DOM (<pre id="heaplens-bench">) for scripts/measure-views.mjs.
// Each timed step ends with getImageData on the canvas, which forces the drawing to be rasterized.
import { pathOf } from '../core/views/frames';
import { App } from './app';
import { timings } from './timing';
import { TreePending } from './data';
import { whenParsed } from './load/built-tree';

function flush(): void {
  const c = document.querySelector<HTMLCanvasElement>('.view-flame canvas');
  c?.getContext('2d')?.getImageData(0, 0, 1, 1);
}

function stats(xs: number[]): { median: number; max: number; mean: number } {
  const s = [...xs].sort((a, b) => a - b);
  const r = (v: number): number => Math.round(v * 10) / 10;
  return { median: r(s[Math.floor(s.length / 2)] ?? 0), max: r(s[s.length - 1] ?? 0), mean: r(xs.reduce((a, b) => a + b, 0) / (xs.length || 1)) };
}

/** The longest tasks of the page's thread (PerformanceObserver 'longtask', ≥ 50 ms) since the page script started. */
const longTasks: Array<{ start: number; ms: number }> = [];
export function watchLongTasks(): void {
  try {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) longTasks.push({ start: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no long task timing in this browser
  }
}

/** Resolves once the flame tab draws the inverted tree (it may first wait for the tree: TreePending). */
async function invertedShown(app: App): Promise<void> {
  for (;;) {
    await app.settled();
    const s = app.state;
    try {
      const tree = app.data!.tree({ thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: true });
      if (app.flame.shownTree === tree) return;
    } catch (e) {
      if (!(e instanceof TreePending)) throw e;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** What the last inversion's build took, and where it was made. */
function invertSteps(): Record<string, unknown> {
  return { invert: timings.invert, flatten: timings.flatten, unpack: timings.unpack, builtAhead: !!timings.builtAhead, here: !!timings.invertedHere };
}

export async function runBench(app: App, scriptStart: number): Promise<void> {
  flush();
  const painted = performance.now();
  // the first paint's own figures (a resize repaints before they are read)
  const first = { ...app.flame.component.stats };
  // #invertAtPaint=1: the first inversion clicked right after the paint (before anything else; the records and the
  // worker may still be on their way), then back to the top-down tree for the figures below
  const s0 = app.state;
  let atPaint: { ms: number; steps: Record<string, unknown> } | undefined;
  if (/[#&]invertAtPaint=1/.test(location.hash)) {
    const t0 = performance.now();
    app.update({ inverted: true });
    await invertedShown(app);
    flush();
    atPaint = { ms: Math.round((performance.now() - t0) * 10) / 10, steps: invertSteps() };
    app.update({ inverted: s0.inverted });
    flush();
  }
  // the page's thread while loading: its longest task before the first paint (the parse and flattening run in the worker)
  // (a task is reported when it ends, and delivered later: the one that painted included)
  await new Promise((r) => setTimeout(r, 300));
  const before = longTasks.filter((t) => t.start + t.ms > scriptStart && t.start < painted);   // overlapping the load
  const s = app.state;
  const data = app.data!;
  const tree = data.tree({ thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: s.inverted });
  const out: Record<string, unknown> = {
    nodes: tree.n, maxDepth: tree.maxDepth,
    firstPaintMs: Math.round((painted - scriptStart) * 10) / 10,
    sinceNavigationMs: Math.round(painted),
    steps: { ...timings },
    worker: !!app.usesWorker,
    longestTaskMs: Math.round(Math.max(0, ...before.map((t) => t.ms))), longTasks: before.length,
    // every long task from the script's start until the bench begins (start since the script's start, duration)
    taskList: longTasks.filter((t) => t.start + t.ms > scriptStart).map((t) => [Math.round(t.start - scriptStart), Math.round(t.ms)]),
    firstLayoutMs: Math.round(first.layoutMs * 10) / 10, firstCanvasMs: Math.round(first.paintMs * 10) / 10, framesPainted: first.painted,
  };
  // zoom targets: the widest frames at depths 1…4, then back to the root each time
  const total = tree.total[s.metric];
  const targets: number[] = [];
  for (let depth = 1; depth <= 4; depth++) {
    const at: number[] = [];
    for (let i = 0; i < tree.n; i++) if (tree.depth[i] === depth) at.push(i);
    at.sort((a, b) => total[b] - total[a]);
    targets.push(...at.slice(0, 5));
  }
  const zoomIn: number[] = [];
  const zoomOut: number[] = [];
  for (const i of targets) {
    let t = performance.now();
    app.update({ zoom: pathOf(tree, i) });
    flush();
    zoomIn.push(performance.now() - t);
    t = performance.now();
    app.update({ zoom: [] });
    flush();
    zoomOut.push(performance.now() - t);
  }
  out.zooms = targets.length;
  out.zoomInMs = stats(zoomIn);
  out.zoomOutMs = stats(zoomOut);
  let t = performance.now();
  app.update({ metric: s.metric === 'bytes' ? 'objects' : 'bytes' });
  flush();
  out.metricSwitchMs = Math.round((performance.now() - t) * 10) / 10;
  t = performance.now();
  app.update({ query: 'm1' });
  flush();
  out.searchMs = Math.round((performance.now() - t) * 10) / 10;
  // the first inversion, clicked once the page is parsed (a report's call trees follow its script: the inverted tree is
  // built from them, by the worker ahead or on request) and timed until the inverted tree is drawn, not until the
  // page shows that it is building it
  await new Promise<void>((r) => whenParsed(r));
  app.update({ query: '' });
  flush();
  // #invertDelay=MS: clicked that long after the paint at the earliest (a user who looks first; the worker's build ahead done)
  const delay = Number(/[#&]invertDelay=(\d+)/.exec(location.hash)?.[1] ?? 0);
  const wait = painted + delay - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  // the page's long tasks between the paint and the click (what the work done ahead of a click costs the page)
  out.tasksBeforeClick = longTasks.filter((t) => t.start > painted).map((t) => [Math.round(t.start - scriptStart), Math.round(t.ms)]);
  if (atPaint) {
    out.invertClickedMs = 0;
    out.invertFirstMs = atPaint.ms;
    out.invertSteps = atPaint.steps;
  } else {
    // whether the inverted tree was made (ahead) before the click: then the figure is its draw alone
    out.invertReadyAtClick = app.data!.has({ thread: s.thread, myCode: s.myCode, collapseRecursion: s.collapseRecursion, inverted: true });
    t = performance.now();
    out.invertClickedMs = Math.round(t - painted);
    app.update({ inverted: true });
    await invertedShown(app);
    flush();
    out.invertFirstMs = Math.round((performance.now() - t) * 10) / 10;
    out.invertSteps = invertSteps();
  }
  // the call tree table: first showing (rows of the root's children), then opening the node with the most children
  t = performance.now();
  app.update({ inverted: false, view: 'calltree', tableExpanded: [] });
  await app.settled();
  document.body.offsetHeight;
  out.callTreeFirstMs = Math.round((performance.now() - t) * 10) / 10;
  let wide = 0;
  let most = 0;
  for (let i = 0; i < tree.n; i++) {
    let k = 0;
    for (let j = i + 1; j < tree.end[i]; j = tree.end[j]) k++;
    if (k > most) {
      most = k;
      wide = i;
    }
  }
  const path = pathOf(tree, wide);
  // open its ancestors first (not timed), then the node itself
  app.update({ tableExpanded: path.slice(0, -1).map((_, k) => path.slice(0, k + 1)) });
  t = performance.now();
  app.update({ tableExpanded: path.map((_, k) => path.slice(0, k + 1)) });
  document.body.offsetHeight;
  out.expandChildren = most;
  out.expandMs = Math.round((performance.now() - t) * 10) / 10;
  const pre = document.createElement('pre');
  pre.id = 'heaplens-bench';
  pre.textContent = JSON.stringify(out);
  document.body.append(pre);
}
