// The view state: what the user chose. Kept with getState/setState (VS Code) and across live updates:
// zoom and selection are method-id paths, which survive a rebuild of the tree.
import { ViewMetric, VIEW_METRICS } from '../core/views/frames';
import { TreeKind, TREE_KINDS } from '../core/profile/modes';

import { CALL_COLUMNS, CallSort } from '../core/views/call-table';
import { DIFF_NORMS, DiffNorm } from '../core/views/diff-normalise';
import { LifetimeGrouping, LIFETIME_GROUPINGS, SpaceKind } from '../core/views/lifetimes';

export type ViewName = 'flame' | 'calltree' | 'butterfly' | 'hotspots' | 'memory' | 'sites' | 'arrays' | 'threads' | 'diff' | 'accounts' | 'lifetimes' | 'heap';
export const VIEWS: ReadonlyArray<{ id: ViewName; label: string; key: string }> = [
  { id: 'flame', label: 'Flame tree', key: '1' },
  { id: 'calltree', label: 'Call tree', key: '9' },
  { id: 'butterfly', label: 'Callers & callees', key: '0' },
  { id: 'hotspots', label: 'Hot spots', key: 'h' },
  { id: 'memory', label: 'Memory', key: 'm' },
  { id: 'sites', label: 'Allocation sites', key: '2' },
  { id: 'arrays', label: 'Arrays', key: '3' },
  { id: 'threads', label: 'Threads', key: '4' },
  { id: 'diff', label: 'Diff', key: '5' },
  { id: 'accounts', label: 'Accounts', key: '6' },
  { id: 'lifetimes', label: 'Lifetimes', key: '7' },
  { id: 'heap', label: 'Heap', key: '8' },
];

export interface UiState {
  view: ViewName;
  /** which mode's data every view shows ('auto': exact counts when the profile has any) */
  data: TreeKind | 'auto';
  /** thread id, or -1 for all threads merged */
  thread: number;
  metric: ViewMetric;
  inverted: boolean;
  myCode: boolean;
  collapseRecursion: boolean;
  zoom: number[];
  selected: number[] | null;
  /** the context highlighted from the sites or arrays table */
  highlight: number[] | null;
  query: string;
  match: number;
  siteMetric: 'count' | 'bytes';
  siteFilter: string;
  siteSort: { key: string; desc: boolean };
  arrayCode: string | null;
  diffZoom: number[];
  /** Accounts view: the account whose classes are listed (null: the largest) */
  account: string | null;
  /** Accounts view: snapshot index shown (-1: the last) and the one the diff starts from (-1: the first) */
  accountsSnapshot: number;
  accountsFrom: number;
  /** Flame tree: colour frames by memory account instead of by package */
  colorByAccount: boolean;
  lifetimeBy: LifetimeGrouping;
  lifetimeSort: SpaceKind;
  /** the selected row's key in the Lifetimes table */
  lifetimeRow: string | null;
  /** Call tree table: the open rows as method paths (null: not chosen yet, the hottest path opens) and the sort */
  tableExpanded: number[][] | null;
  tableSort: CallSort;
  /** Callers & callees: the method shown (null: none picked yet) */
  focusMethod: number | null;
  /** Hot spots: open rows ("t<type>", "s<type>:<site>", "c<type>:<site>:<method path>") and the ranking */
  hotOpen: string[];
  hotMetric: 'allocations' | 'bytes';
  /** Hot spots: the type filter */
  hotFilter: string;
  /** Diff: absolute values, percent of each run's total, or per call of the chosen method */
  diffNorm: DiffNorm;
  /** Diff per call: the unit method's `class.name(desc)` (ids differ between the two files) */
  diffUnit: string | null;
}

export function defaultState(): UiState {
  return {
    view: 'flame', data: 'auto', thread: -1, metric: 'allocations', inverted: false, myCode: false, collapseRecursion: false,
    zoom: [], selected: null, highlight: null, query: '', match: -1, siteMetric: 'bytes', siteFilter: '',
    siteSort: { key: 'rank', desc: false }, arrayCode: null, diffZoom: [],
    account: null, accountsSnapshot: -1, accountsFrom: -1, colorByAccount: false,
    lifetimeBy: 'class', lifetimeSort: 'drag', lifetimeRow: null,
    tableExpanded: null, tableSort: { key: 'totalAllocations', desc: true }, focusMethod: null,
    hotOpen: [], hotMetric: 'bytes', hotFilter: '', diffNorm: 'absolute', diffUnit: null,
  };
}

/** Accepts a stored state of an older build: unknown or ill-typed fields fall back to defaults. */
export function restoreState(v: unknown): UiState {
  const s = defaultState();
  if (typeof v !== 'object' || v === null) return s;
  const o = v as Record<string, unknown>;
  const pick = <K extends keyof UiState>(k: K, ok: (x: unknown) => boolean): void => {
    if (ok(o[k])) (s as unknown as Record<string, unknown>)[k] = o[k];
  };
  const isBool = (x: unknown): boolean => typeof x === 'boolean';
  const isPath = (x: unknown): boolean => Array.isArray(x) && x.every((n) => Number.isInteger(n));
  pick('view', (x) => VIEWS.some((w) => w.id === x));
  pick('data', (x) => x === 'auto' || (TREE_KINDS as readonly unknown[]).includes(x));
  pick('thread', (x) => Number.isInteger(x));
  pick('metric', (x) => (VIEW_METRICS as readonly unknown[]).includes(x));
  pick('inverted', isBool);
  pick('myCode', isBool);
  pick('collapseRecursion', isBool);
  pick('zoom', isPath);
  pick('selected', (x) => x === null || isPath(x));
  pick('highlight', (x) => x === null || isPath(x));
  pick('query', (x) => typeof x === 'string');
  pick('match', (x) => Number.isInteger(x));
  pick('siteMetric', (x) => x === 'count' || x === 'bytes');
  pick('siteFilter', (x) => typeof x === 'string');
  pick('siteSort', (x) => typeof x === 'object' && x !== null && typeof (x as { key?: unknown }).key === 'string');
  pick('arrayCode', (x) => x === null || typeof x === 'string');
  pick('diffZoom', isPath);
  pick('account', (x) => x === null || typeof x === 'string');
  pick('accountsSnapshot', (x) => Number.isInteger(x));
  pick('accountsFrom', (x) => Number.isInteger(x));
  pick('colorByAccount', isBool);
  pick('lifetimeBy', (x) => (LIFETIME_GROUPINGS as readonly unknown[]).includes(x));
  pick('lifetimeSort', (x) => x === 'lag' || x === 'drag' || x === 'void' || x === 'use');
  pick('lifetimeRow', (x) => x === null || typeof x === 'string');
  pick('tableExpanded', (x) => x === null || (Array.isArray(x) && x.every(isPath)));
  pick('tableSort', (x) => typeof x === 'object' && x !== null && (CALL_COLUMNS as readonly unknown[]).includes((x as { key?: unknown }).key)
    && typeof (x as { desc?: unknown }).desc === 'boolean');
  pick('focusMethod', (x) => x === null || Number.isInteger(x));
  pick('hotOpen', (x) => Array.isArray(x) && x.every((k) => typeof k === 'string'));
  pick('hotMetric', (x) => x === 'allocations' || x === 'bytes');
  pick('hotFilter', (x) => typeof x === 'string');
  pick('diffNorm', (x) => (DIFF_NORMS as readonly unknown[]).includes(x));
  pick('diffUnit', (x) => x === null || typeof x === 'string');
  return s;
}

/**
 * Deep links into the report: `#view=sites&thread=1&metric=bytes&q=count&inverted=1&mycode=1&recursion=1`
 * (`theme=light|dark` is read by the theme code). Applied over the stored state.
 */
export function hashState(hash: string): Partial<UiState> {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const raw: Record<string, unknown> = {};
  if (q.has('view')) raw.view = q.get('view');
  if (q.has('data')) raw.data = q.get('data');
  if (q.has('thread')) raw.thread = Number(q.get('thread'));
  if (q.has('metric')) raw.metric = q.get('metric');
  if (q.has('q')) raw.query = q.get('q');
  if (q.has('inverted')) raw.inverted = q.get('inverted') === '1';
  if (q.has('mycode')) raw.myCode = q.get('mycode') === '1';
  if (q.has('recursion')) raw.collapseRecursion = q.get('recursion') === '1';
  const valid = restoreState(raw) as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.keys(raw).map((k) => [k, valid[k]])) as Partial<UiState>;
}
