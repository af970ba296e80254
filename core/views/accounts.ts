// Memory accounts (Bouché et al. 2009 §4–5; docs/accounts.md, docs/format.md "accounts"): the snapshot series a profile
// carries, validated, as tables, and the leak suspects found by comparing snapshots. No vscode, no fs.
import { Z95 } from '../profile/estimates';
import { ProfileError } from '../profile/parse';
import { ProfileFile } from '../profile/types';

export type LivenessKind = 'off' | 'sampled' | 'exact';

export interface AccountRow {
  account: string;
  cls: string;
  allocatedObjects: number;
  allocatedBytes: number;
  /** undefined when liveness was off (the exact mode, or liveness=off) */
  liveObjects?: number;
  liveBytes?: number;
  /** live objects that survived at least one garbage collection */
  oldObjects?: number;
  /** the most collections a live object of this row survived */
  maxGenerations?: number;
  /**
   * 95 % interval of liveObjects: equal to it when every live object was tracked; around a sampled estimate,
   * never below the objects actually seen alive nor above those allocated.
   */
  liveLow?: number;
  liveHigh?: number;
}

export interface AccountSnapshot {
  seq: number;
  time: number;
  reason: string;
  gc: boolean;
  /** collections so far when it was taken */
  gcs: number;
  rows: AccountRow[];
}

export interface Accounts {
  /** the agent mode that produced the counts: "accounts" (flat, with liveness) or "exact" (from the call tree) */
  mode: string;
  names: string[];
  /** exactFirst (auto liveness): every object was tracked up to this many, then one in `every` */
  liveness: { kind: LivenessKind; every: number; exactFirst?: number; tracked: number; refunded: number };
  snapshots: AccountSnapshot[];
}

export const UNACCOUNTED = '(unaccounted)';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
// whole numbers up to 2^53−1 only: larger ones are not exact in a double and mean a corrupted file (parse.ts)
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
function fail(message: string): never {
  throw new ProfileError(`invalid profile: accounts: ${message}`);
}

/** The accounts section of a profile, or undefined when the launch defined no accounts. */
export function accountsOf(file: ProfileFile): Accounts | undefined {
  const raw = (file as unknown as Obj).accounts;
  if (raw === undefined) return undefined;
  if (!isObj(raw)) fail('"accounts" is not an object');
  if (!Array.isArray(raw.names) || !raw.names.every((n) => typeof n === 'string')) fail('"names" is not an array of strings');
  const names = raw.names as string[];
  const lv = raw.liveness;
  if (!isObj(lv) || !['off', 'sampled', 'exact'].includes(String(lv.kind)) || !isCount(lv.every)) {
    fail(`"liveness" is ${JSON.stringify(lv)}, expected { kind: off|sampled|exact, every }`);
  }
  const live = lv.kind !== 'off';
  if (!Array.isArray(raw.snapshots)) fail('"snapshots" is not an array');
  const snapshots = (raw.snapshots as unknown[]).map((s, i): AccountSnapshot => {
    if (!isObj(s) || !isCount(s.seq) || !isCount(s.time) || typeof s.reason !== 'string' || !Array.isArray(s.rows)) {
      fail(`snapshots[${i}] is not { seq, time, reason, rows }`);
    }
    const rows = (s.rows as unknown[]).map((r, k): AccountRow => {
      // live rows: 8 counts, or 9 with the number of sampled objects behind the estimate (files since auto liveness)
      const widthOk = Array.isArray(r) && (live ? r.length === 8 || r.length === 9 : r.length === 4);
      if (!widthOk || !isCount(r[0]) || typeof r[1] !== 'string' || !r.slice(2).every(isCount)) {
        fail(`snapshots[${i}].rows[${k}] is ${JSON.stringify(r)}, expected [account, class, ${live ? 6 : 2} counts]`);
      }
      const account = names[r[0] as number];
      if (account === undefined) fail(`snapshots[${i}].rows[${k}] names account ${r[0]}, which is not in "names"`);
      const row: AccountRow = { account, cls: r[1] as string, allocatedObjects: r[2] as number, allocatedBytes: r[3] as number };
      if (live) {
        const [liveObjects, liveBytes, oldObjects, maxGenerations] = r.slice(4, 8) as number[];
        // older files: without the 9th column, a sampled row's live objects are all sampled ones
        const sampled = r.length === 9 ? r[8] as number : lv.kind === 'sampled' ? Math.round(liveObjects / (lv.every as number || 1)) : 0;
        Object.assign(row, liveEstimate(row, liveObjects, liveBytes, oldObjects, sampled, lv.every as number));
        row.maxGenerations = maxGenerations;
      }
      return row;
    });
    return { seq: s.seq, time: s.time, reason: s.reason, gc: s.gc === true, gcs: isCount(s.gcs) ? s.gcs : 0, rows };
  });
  return {
    mode: typeof raw.mode === 'string' ? raw.mode : 'accounts',
    names,
    liveness: {
      kind: lv.kind as LivenessKind, every: lv.every as number,
      ...(isCount(lv.exactFirst) && lv.exactFirst > 0 ? { exactFirst: lv.exactFirst } : {}),
      tracked: isCount(lv.tracked) ? lv.tracked : 0, refunded: isCount(lv.refunded) ? lv.refunded : 0,
    },
    snapshots,
  };
}

/**
 * A row's live figures from what the agent counted: `sampled` of the live objects were tracked as a sample, each
 * standing for `every`; the rest were tracked one by one (exact). The estimate gets a 95 % interval from the
 * Poisson bounds of the sample count, and is kept between the objects seen alive and the objects allocated (a
 * sample scaled up can otherwise claim 32 live objects of a class allocated once).
 */
export function liveEstimate(row: AccountRow, liveObjects: number, liveBytes: number, oldObjects: number, sampled: number,
  every: number): Pick<AccountRow, 'liveObjects' | 'liveBytes' | 'oldObjects' | 'liveLow' | 'liveHigh'> {
  const cap = row.allocatedObjects;
  const exactPart = Math.max(0, liveObjects - sampled * every);
  if (sampled === 0 || every <= 1) {
    const n = Math.min(liveObjects, cap);
    return { liveObjects: n, liveBytes, oldObjects: Math.min(oldObjects, n), liveLow: n, liveHigh: n };
  }
  const seen = exactPart + sampled;
  const [lo, hi] = poissonInterval(sampled);
  const clamp = (v: number): number => Math.max(Math.min(seen, cap), Math.min(cap, v));
  const estimate = clamp(liveObjects);
  const scale = liveObjects > 0 ? estimate / liveObjects : 1;
  return {
    liveObjects: estimate,
    liveBytes: Math.round(liveBytes * scale),
    oldObjects: Math.min(Math.round(oldObjects * scale), estimate),
    liveLow: clamp(Math.floor(exactPart + lo * every)),
    liveHigh: clamp(Math.ceil(exactPart + hi * every)),
  };
}

/**
 * 95 % interval of a Poisson mean from one observed count k (Byar's approximation to the exact Garwood bounds,
 * within 1 % of them from k = 1 on). Used for a sample count: conservative for the agent's sampler, whose gaps
 * (uniform on 1..2n−1) vary less than a Poisson process's.
 */
export function poissonInterval(k: number): [number, number] {
  const z = Z95;
  const lo = k === 0 ? 0 : k * (1 - 1 / (9 * k) - z / (3 * Math.sqrt(k))) ** 3;
  const k1 = k + 1;
  const hi = k1 * (1 - 1 / (9 * k1) + z / (3 * Math.sqrt(k1))) ** 3;
  return [Math.max(0, lo), hi];
}

/** How live counts were obtained, for labels: "exact", "sampled (1 in 32 objects on average, scaled)", "off". */
export function livenessLabel(a: Accounts): string {
  if (a.liveness.kind === 'sampled' && a.liveness.exactFirst) {
    return `exact for the first ${a.liveness.exactFirst.toLocaleString('en-US')} objects, then sampled (1 in ${a.liveness.every} on average, scaled; 95 % intervals)`;
  }
  if (a.liveness.kind === 'sampled') return `sampled (1 in ${a.liveness.every} objects on average, scaled; 95 % intervals)`;
  if (a.liveness.kind === 'exact') return 'exact';
  return a.mode === 'exact' ? 'off (exact mode: allocations only)' : 'off';
}

export function lastSnapshot(a: Accounts): AccountSnapshot | undefined {
  return a.snapshots[a.snapshots.length - 1];
}

/** Per account, the totals of one snapshot, ordered by live bytes (else allocated bytes), largest first. */
export interface AccountTotal {
  account: string;
  allocatedObjects: number;
  allocatedBytes: number;
  liveObjects?: number;
  liveBytes?: number;
  /** the sum of the rows' 95 % bounds: a conservative interval for the account */
  liveLow?: number;
  liveHigh?: number;
  rows: AccountRow[];
}

export function accountTotals(a: Accounts, s: AccountSnapshot | undefined = lastSnapshot(a)): AccountTotal[] {
  const live = a.liveness.kind !== 'off';
  const byName = new Map<string, AccountTotal>();
  for (const name of a.names) {
    byName.set(name, { account: name, allocatedObjects: 0, allocatedBytes: 0,
      ...(live ? { liveObjects: 0, liveBytes: 0, liveLow: 0, liveHigh: 0 } : {}), rows: [] });
  }
  for (const r of s?.rows ?? []) {
    const t = byName.get(r.account)!;
    t.allocatedObjects += r.allocatedObjects;
    t.allocatedBytes += r.allocatedBytes;
    if (live) {
      t.liveObjects! += r.liveObjects ?? 0;
      t.liveBytes! += r.liveBytes ?? 0;
      t.liveLow! += r.liveLow ?? r.liveObjects ?? 0;
      t.liveHigh! += r.liveHigh ?? r.liveObjects ?? 0;
    }
    t.rows.push(r);
  }
  const key = (t: AccountTotal | AccountRow): number => (live ? t.liveBytes ?? 0 : t.allocatedBytes);
  for (const t of byName.values()) t.rows.sort((x, y) => key(y) - key(x) || y.allocatedBytes - x.allocatedBytes || x.cls.localeCompare(y.cls));
  return [...byName.values()].sort((x, y) => key(y) - key(x) || y.allocatedBytes - x.allocatedBytes);
}

export const ACCOUNTS_HEADER = ['account', 'class', 'allocated_objects', 'allocated_bytes', 'live_objects', 'live_bytes',
  'live_low', 'live_high'];

const cell = (v: number | undefined): string => (v === undefined ? '' : String(v));

/** `report --format accounts`: one row per account and class from the last snapshot (live empty when off). */
export function accountsTsv(a: Accounts): string {
  const lines = [ACCOUNTS_HEADER.join('\t')];
  const s = lastSnapshot(a);
  const rows = [...(s?.rows ?? [])].sort((x, y) => x.account.localeCompare(y.account) || x.cls.localeCompare(y.cls));
  for (const r of rows) {
    lines.push([r.account, r.cls, r.allocatedObjects, r.allocatedBytes, cell(r.liveObjects), cell(r.liveBytes),
      cell(r.liveLow), cell(r.liveHigh)].join('\t'));
  }
  return lines.join('\n') + '\n';
}

export const SNAPSHOTS_HEADER = ['snapshot', 'time_ms', 'reason', 'gc', 'gcs', 'account', 'allocated_objects', 'allocated_bytes',
  'live_objects', 'live_bytes', 'liveness'];

/** `--snapshots`: per snapshot and account, the totals (the series behind the chart). */
export function snapshotsTsv(a: Accounts): string {
  const lines = [SNAPSHOTS_HEADER.join('\t')];
  const start = a.snapshots[0]?.time ?? 0;
  for (const s of a.snapshots) {
    for (const t of accountTotals(a, s).sort((x, y) => x.account.localeCompare(y.account))) {
      lines.push([s.seq, s.time - start, s.reason, s.gc, s.gcs, t.account, t.allocatedObjects, t.allocatedBytes,
        cell(t.liveObjects), cell(t.liveBytes), a.liveness.kind].join('\t'));
    }
  }
  return lines.join('\n') + '\n';
}

export interface LeakSuspect {
  account: string;
  cls: string;
  /** live objects at each snapshot (0 where the class had none) */
  series: number[];
  /** live objects that survived at least one collection, at each snapshot: what the rule looks at */
  oldSeries: number[];
  growthObjects: number;
  growthBytes: number;
  liveObjects: number;
  liveBytes: number;
  maxGenerations: number;
  /** steps of the series where the survivors rose / fell */
  rises: number;
  falls: number;
}

/**
 * Leak suspects: (account, class) pairs whose live objects that survived a collection keep rising. Over the
 * snapshots' steps, split into an earlier and a later half: the count rises at least once in each half, never
 * falls in the later half, and ends above where it started; and all live objects of the pair end above where they
 * started too (the growth the view shows), by more than sampling can explain (the first snapshot's interval and
 * the last one's do not overlap). Objects no collection has seen yet are left out, so garbage made since the last
 * collection does not look like growth. Ranked by evidence: series that never fell first, then by growth in live
 * bytes.
 */
export function leakSuspects(a: Accounts): LeakSuspect[] {
  // The snapshot at shutdown is the program's teardown (shutdown hooks, the JVM's exit work), not its steady
  // behaviour: a jump there is not a trend, so it is left out when the run has enough others.
  const last = a.snapshots[a.snapshots.length - 1];
  const snapshots = a.snapshots.length > 3 && last.reason === 'shutdown' ? a.snapshots.slice(0, -1) : a.snapshots;
  if (a.liveness.kind === 'off' || snapshots.length < 3) return [];
  const keys = new Map<string, { account: string; cls: string }>();
  for (const s of snapshots) for (const r of s.rows) keys.set(`${r.account}\0${r.cls}`, { account: r.account, cls: r.cls });
  const index = snapshots.map((s) => new Map(s.rows.map((r) => [`${r.account}\0${r.cls}`, r])));
  const out: LeakSuspect[] = [];
  for (const [k, { account, cls }] of keys) {
    const rows = index.map((m) => m.get(k));
    const old = rows.map((r) => r?.oldObjects ?? 0);
    const steps = old.length - 1;
    const mid = Math.floor(steps / 2);
    let earlyUp = 0, lateUp = 0, lateDown = 0, falls = 0;
    for (let i = 1; i <= steps; i++) {
      const d = old[i] - old[i - 1];
      if (d < 0) falls++;
      if (i <= mid) { if (d > 0) earlyUp++; } else if (d > 0) lateUp++; else if (d < 0) lateDown++;
    }
    if (earlyUp === 0 || lateUp === 0 || lateDown > 0 || old[steps] <= old[0]) continue;
    const first = rows[0], end = rows[steps]!;
    // A leak grows the live set, not only its old part: old objects that rise while all live objects fall are
    // short-lived objects being promoted (a young generation emptying), which the growth column would show negative.
    // With sampled liveness the growth must also exceed the estimates' noise.
    const firstHigh = first?.liveHigh ?? first?.liveObjects ?? 0;
    const lastLow = end.liveLow ?? end.liveObjects ?? 0;
    if ((end.liveObjects ?? 0) <= (first?.liveObjects ?? 0) || lastLow <= firstHigh) continue;
    out.push({
      account, cls, series: rows.map((r) => r?.liveObjects ?? 0), oldSeries: old,
      growthObjects: (end.liveObjects ?? 0) - (first?.liveObjects ?? 0),
      growthBytes: (end.liveBytes ?? 0) - (first?.liveBytes ?? 0),
      liveObjects: end.liveObjects ?? 0, liveBytes: end.liveBytes ?? 0, maxGenerations: end.maxGenerations ?? 0,
      rises: earlyUp + lateUp, falls,
    });
  }
  return out.sort((x, y) => Number(x.falls > 0) - Number(y.falls > 0) || y.growthBytes - x.growthBytes
    || y.growthObjects - x.growthObjects || x.cls.localeCompare(y.cls));
}

/** "rose in 9 of 12 steps, never fell" — the evidence behind a suspect, in words. */
export function suspectEvidence(s: LeakSuspect): string {
  const steps = s.oldSeries.length - 1;
  return `rose in ${s.rises} of ${steps} steps, ${s.falls === 0 ? 'never fell' : `fell in ${s.falls}`}`;
}

export const SUSPECTS_HEADER = ['account', 'class', 'live_objects', 'live_bytes', 'growth_objects', 'growth_bytes', 'max_generations',
  'evidence', 'live_series'];

/** `--suspects`: the leak suspects with their evidence, strongest first. */
export function suspectsTsv(a: Accounts): string {
  const lines = [SUSPECTS_HEADER.join('\t')];
  for (const s of leakSuspects(a)) {
    lines.push([s.account, s.cls, s.liveObjects, s.liveBytes, s.growthObjects, s.growthBytes, s.maxGenerations, suspectEvidence(s),
      s.series.join(',')].join('\t'));
  }
  return lines.join('\n') + '\n';
}

/** Snapshot diff: per account and class, the change in live (else allocated) objects and bytes from a to b. */
export interface AccountDelta {
  account: string;
  cls: string;
  objects: number;
  bytes: number;
}

export function snapshotDiff(a: Accounts, from: AccountSnapshot, to: AccountSnapshot): AccountDelta[] {
  const live = a.liveness.kind !== 'off';
  const val = (r: AccountRow | undefined): [number, number] =>
    (r === undefined ? [0, 0] : live ? [r.liveObjects ?? 0, r.liveBytes ?? 0] : [r.allocatedObjects, r.allocatedBytes]);
  const before = new Map(from.rows.map((r) => [`${r.account}\0${r.cls}`, r]));
  const after = new Map(to.rows.map((r) => [`${r.account}\0${r.cls}`, r]));
  const out: AccountDelta[] = [];
  for (const k of new Set([...before.keys(), ...after.keys()])) {
    const [o0, b0] = val(before.get(k)), [o1, b1] = val(after.get(k));
    if (o0 === o1 && b0 === b1) continue;
    const [account, cls] = k.split('\0');
    out.push({ account, cls, objects: o1 - o0, bytes: b1 - b0 });
  }
  return out.sort((x, y) => Math.abs(y.bytes) - Math.abs(x.bytes) || x.cls.localeCompare(y.cls));
}

/**
 * The account of a class (binary name, `a.b.C$D`) under the accounts' patterns, as the agent decides it: the most
 * specific matching pattern (longest package; the exact name beats the wildcard for the same package); 0 when none.
 */
export function accountIndexOf(names: readonly string[], className: string): number {
  const dot = className.lastIndexOf('.');
  const pkg = dot < 0 ? '' : className.slice(0, dot);
  let best = -1, id = 0;
  for (let i = 1; i < names.length; i++) {
    const p = names[i];
    let score = -1;
    if (p.endsWith('.*')) {
      const base = p.slice(0, -2);
      if (pkg === base || pkg.startsWith(base + '.')) score = base.length * 2;
    } else if (pkg === p) {
      score = p.length * 2 + 1;
    }
    if (score > best) { best = score; id = i; }
  }
  return id;
}
