// The interval of each type's estimate in a profile whose samples the JVM chose (agent option sampler=jvmti: HotSpot's
// heap sampler; sampler=jfr: JFR's TLAB events): the agent states per type the estimated count and bytes with their
// standard deviations (agent.jfrTypes, docs/format.md).
import { Profile } from './types';

export interface TypeInterval {
  typeId: number;
  name: string;
  /** samples of this type (heap samples or TLAB events) */
  seen: number;
  count: number;
  countSd: number;
  bytes: number;
  bytesSd: number;
}

/** 95 % two-sided normal quantile: the intervals shown are estimate ± 1.96 σ. */
export const Z95 = 1.96;

/** The stated intervals per type, largest estimated bytes first; empty when the profile states none. */
export function typeIntervals(profile: Profile): TypeInterval[] {
  const rows = profile.file.agent?.jfrTypes;
  if (!Array.isArray(rows)) return [];
  const out: TypeInterval[] = [];
  for (const r of rows) {
    if (!Array.isArray(r) || r.length < 6 || !r.every((v) => typeof v === 'number' && Number.isFinite(v))) continue;
    const [typeId, seen, count, countSd, bytes, bytesSd] = r;
    out.push({ typeId, name: profile.types.get(typeId)?.name ?? `type #${typeId}`, seen, count, countSd, bytes, bytesSd });
  }
  return out.sort((a, b) => b.bytes - a.bytes || b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** "± 3.1 %" (95 %) of an estimate; "exact" when its σ is 0 (every allocation of the type was seen). */
export function plusMinus(value: number, sd: number): string {
  if (sd <= 0) return 'exact';
  if (value <= 0) return '± ?';
  const p = (Z95 * sd * 100) / value;
  return `± ${p < 10 ? p.toFixed(1) : p.toFixed(0)} %`;
}
