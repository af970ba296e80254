// The goals of the performance issue, evaluated for the heaplens configuration (reported, never asserted).
import { TARGETS as T } from './report.mjs';
import { max } from './stats.mjs';

export function targets(res, cfg) {
  if (!cfg) return null;
  const g = res.summary.geomeans[cfg];
  const out = [];
  const add = (name, goal, value, fmt, ok) => out.push({ name, goal, value, measured: value == null ? '–' : fmt(value), met: value == null ? null : ok(value) });
  const x = (v) => `${v.toFixed(2)}×`;
  add(`${cfg} wall time, geomean`, `≤ ${T.wallGeomean}×`, g?.wall, x, (v) => v <= T.wallGeomean);
  add(`${cfg} wall time, worst workload`, `≤ ${T.wallWorst}×`, g?.wallWorst, x, (v) => v <= T.wallWorst);
  add(`${cfg} peak RSS, worst workload`, `≤ ${T.rss}×`, g?.rssWorst, x, (v) => v <= T.rss);
  const s = res.startup?.configs?.[cfg];
  add(`${cfg} start-up added`, `≤ ${T.startupAdded} s`, s?.added, (v) => `${v.toFixed(3)} s`, (v) => v <= T.startupAdded);
  const errs = (res.accuracy || []).filter((a) => a.errorPct != null);
  const worst = max(errs.map((a) => Math.abs(a.errorPct)));
  add('estimated bytes vs HotSpot (-Xint), worst', `within ±${T.accuracyPct} %`, worst,
    (v) => `${v.toFixed(2)} % (${errs.map((a) => `${a.workload} ${a.errorPct >= 0 ? '+' : ''}${a.errorPct.toFixed(2)} %`).join(', ')})`,
    (v) => v <= T.accuracyPct);
  return out;
}
