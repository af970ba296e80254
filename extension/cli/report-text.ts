// The text report (`heaplens report FILE --format text`): a readable summary of one profile.
import { modeTimeline, TreeKind, treeLabel } from '../../core/profile/modes';
import { arraysByElementCode, selfTotals, threadTotals, topContexts, totals, totalsByType } from '../../core/views/aggregate';
import { crossCheckCtorAlloc } from '../../core/views/ctor-alloc';
import { frameName, mergeThreads } from '../../core/profile/mct';
import { bytes as fmtBytes, num, percent as share } from '../../core/format';
import { append, dateTime, shortPath, table } from './text-table';

const bytes = (v: number): string => fmtBytes(v, 'table');
const percent = (part: number, whole: number): string => (whole === 0 ? '-' : share(part / whole, 'table'));
import { ELEMENT_CODES, ElementCode, Profile } from '../../core/profile/types';
import { plusMinus, TypeInterval, typeIntervals } from '../../core/profile/estimates';

const ELEMENT_NAMES: Record<ElementCode, string> = {
  B: 'byte', C: 'char', D: 'double', F: 'float', I: 'int', J: 'long', S: 'short', Z: 'boolean', R: 'reference',
};

export interface TextReportOptions {
  contexts?: number;
  types?: number;
  /** Which mode's data the report shows (see modes.ts); printed in the header. */
  tree?: TreeKind;
  available?: TreeKind[];
}

export function reportText(profile: Profile, opts: TextReportOptions = {}): string {
  const out: string[] = [];
  const section = (title: string): void => {
    out.push('', title, '='.repeat(title.length));
  };
  const meta = profile.file.meta;
  const jvm = meta.jvm ? `${meta.jvm.name ?? '?'} ${meta.jvm.version ?? '?'} (${meta.jvm.vendor ?? '?'})` : '?';
  out.push(meta.imported ? `HeapLens profile (format version ${profile.fileVersion ?? profile.file.version}, imported from a JFR recording)`
    : `HeapLens profile (format version ${profile.fileVersion ?? profile.file.version}, agent ${meta.agentVersion ?? '?'})`);
  out.push(`JVM:       ${jvm}${meta.pid !== undefined ? `, pid ${meta.pid}` : ''}`);
  out.push(`Command:   ${meta.command ?? '?'}`);
  out.push(`Mode:      ${modeTimeline(profile)}`);
  if (opts.tree) {
    const others = opts.available?.filter((k) => k !== opts.tree) ?? [];
    out.push(`Data:      ${treeLabel(opts.tree, profile)}${others.length ? ` — also in this file: ${others.join(', ')} (--tree)` : ''}`);
  }
  out.push(`Started:   ${dateTime(meta.startTime)}`);
  if (meta.imported) {
    // a JFR recording: its time span and events, not an agent's writes
    out.push(`Recorded:  until ${dateTime(meta.writeTime)} (${((meta.writeTime - meta.startTime) / 1000).toFixed(2)} s of events)`);
    out.push(`Imported:  from the JFR recording ${meta.imported.file}: ${Object.entries(meta.imported.events).map(([k, n]) => `${n} ${k.replace(/^jdk\./, '')}`).join(', ')}`);
  } else {
    out.push(`Written:   ${dateTime(meta.writeTime)} (write #${meta.sequence ?? '?'}, after ${((meta.writeTime - meta.startTime) / 1000).toFixed(2)} s)`);
    out.push(`Final:     ${meta.final ? 'yes (written at JVM shutdown)' : 'no (a periodic write: the JVM was running or was killed)'}`);
  }

  const all = totals(profile);
  section('Totals');
  out.push(`objects ${num(all.objects)}, arrays ${num(all.arrays)}, array elements ${num(all.elements)}, est. bytes ${num(all.bytes)} (${bytes(all.bytes)})`);

  const merged = mergeThreads(profile);
  const nContexts = opts.contexts ?? 15;
  section(`Top ${nContexts} contexts by objects (self, all threads)`);
  const ctx = topContexts(profile, { metric: 'objects', by: 'self', limit: nContexts, root: merged });
  append(out, table(['objects', 'arrays', 'est. bytes', 'context'], ctx.map((c) => {
    const t = selfTotals(profile, c.path[c.path.length - 1]);
    return [num(t.objects), num(t.arrays), num(t.bytes), shortPath(c.path.map((n) => frameName(profile, n)))];
  }), ['r', 'r', 'r', 'l']));
  if (ctx.length === 0) out.push('(no objects allocated in profiled contexts)');

  const nTypes = opts.types ?? 20;
  section(`Top ${nTypes} types by est. bytes`);
  const types = totalsByType(profile).slice(0, nTypes);
  // sampler=jvmti and jfr state each type's interval: shown with the sampled tree, whose numbers they are
  const stated = (opts.tree ?? meta.mode) === 'sampled' ? new Map(typeIntervals(profile).map((t) => [t.typeId, t])) : new Map<number, TypeInterval>();
  if (stated.size) {
    append(out, table(['type', 'objects/arrays', '95 %', 'elements', 'est. bytes', '95 %', 'share'], types.map((t) => {
      const i = stated.get(t.type.id);
      return [t.type.name, num(t.count), i ? plusMinus(i.count, i.countSd) : '', t.type.array ? num(t.elements) : '', num(t.bytes),
        i ? plusMinus(i.bytes, i.bytesSd) : '', percent(t.bytes, all.bytes)];
    }), ['l', 'r', 'r', 'r', 'r', 'r', 'r']));
    out.push(`(95 %: the interval the agent states for each estimate, ± 1.96 σ over the whole run; docs/modes.md "sampler=${meta.sampler === 'jfr' ? 'jfr' : 'jvmti'}")`);
  } else {
    append(out, table(['type', 'objects/arrays', 'elements', 'est. bytes', 'share'], types.map((t) => [
      t.type.name, num(t.count), t.type.array ? num(t.elements) : '', num(t.bytes), percent(t.bytes, all.bytes),
    ]), ['l', 'r', 'r', 'r', 'r']));
  }

  section('Arrays by element type');
  const arrays = arraysByElementCode(profile);
  append(out, table(['code', 'element', 'arrays', 'elements', 'avg length', 'est. bytes'], ELEMENT_CODES.map((code) => {
    const s = arrays[code];
    return [code, ELEMENT_NAMES[code], num(s.arrays), num(s.elements), s.arrays ? (s.elements / s.arrays).toFixed(1) : '-', num(s.bytes)];
  }), ['l', 'l', 'r', 'r', 'r', 'r']));

  section('Threads');
  append(out, table(['thread', 'state', 'objects', 'arrays', 'elements', 'est. bytes'], threadTotals(profile).map(({ thread, totals: t }) => [
    thread.name, `${thread.alive ? 'alive' : 'ended'}${thread.daemon ? ', daemon' : ''}`,
    num(t.objects), num(t.arrays), num(t.elements), num(t.bytes),
  ]), ['l', 'l', 'r', 'r', 'r', 'r']));

  const tr = profile.file.transform;
  section('Instrumentation');
  out.push(`classes transformed ${num(tr.classesTransformed ?? 0)}, skipped ${num(tr.classesSkipped ?? 0)}, failed ${num(tr.classesFailed ?? 0)}, retransformed ${num(tr.retransformed ?? 0)}; methods profiled ${num(tr.methodsProfiled ?? 0)}; allocation sites ${num(tr.sites ?? 0)}`);
  out.push(`transform failures: ${tr.failures.length === 0 ? 'none' : tr.failures.length}`);
  for (const f of tr.failures) out.push(`  ${f.class} (loader ${f.loader}): ${f.error}`);
  out.push(`transform warnings: ${tr.warnings.length === 0 ? 'none' : tr.warnings.length}`);
  for (const w of tr.warnings) out.push(`  ${w}`);

  section('Constructor analysis');
  const ctorWarnings = [...profile.methods.values()].filter((m) => m.ctorWarning);
  out.push(`warnings: ${ctorWarnings.length === 0 ? 'none' : ctorWarnings.length}`);
  for (const m of ctorWarnings) out.push(`  ${m.class}.${m.name}${m.desc}: ${m.ctorWarning}`);
  const mismatches = crossCheckCtorAlloc(profile, merged);
  out.push(mismatches.length === 0
    ? 'cross-check: object counts from constructor calls agree with allocation sites for every profiled class'
    : `cross-check: ${mismatches.length} context/class pairs differ between constructor calls and allocation sites`);
  for (const m of mismatches.slice(0, 10)) {
    out.push(`  ${m.cls} in ${shortPath(m.path.map((n) => frameName(profile, n)))}: constructors ${m.byConstructors}, sites ${m.bySites}`);
  }
  out.push('', 'Byte figures are estimates from the running JVM\'s object layout; counts are exact.');
  return out.join('\n') + '\n';
}
