// What opening a profile in its editor needs from the host (is the file final? the agent's options), read without
// parsing the whole text: the top level's keys are walked, every value but `meta` skipped over (strings and brackets
// only), and `meta` alone is given to JSON.parse. The agent writes `format`, `version` and `meta` first
// (docs/format.md), so the file's first kilobytes hold them; other writers may put `meta` anywhere. No file system.
import { ProfileError } from './parse';
import { Meta, PROFILE_FORMAT, PROFILE_VERSION } from './types';

/** Outcome of a read: the meta object, or `more` when the text ends before `meta` does (a head of the file). */
export type MetaRead = { meta: Meta } | { more: true };

const SPACE = new Set([0x20, 0x0a, 0x0d, 0x09]);

/**
 * Reads `meta` from a profile's text, or from its first part (`more` when that part ends too soon). Throws a
 * ProfileError for a text that is not a profile: not an object, another `format`, a newer `version`, a `meta` that
 * is not an object, or (for a whole text) no `meta`.
 */
export function readMeta(text: string, whole: boolean): MetaRead {
  const r = readHead(text, whole, false);
  return 'more' in r ? r : { meta: r.meta };
}

/** Outcome of reading a profile's head: `meta` and, when asked for, its first section (undefined: the file has none). */
export type HeadRead = { meta: Meta; first?: unknown } | { more: true };

/**
 * Reads `meta` and, with `first`, the first section (first-section.ts) that writers put right after it: the section is
 * taken as absent once another key than format/version/meta comes before it, so a file without one is not read to its
 * end. The section's value is parsed, not checked (the caller does).
 */
export function readHead(text: string, whole: boolean, first: boolean): HeadRead {
  let meta: Meta | undefined;
  let i = 0;
  const n = text.length;
  const more = (): MetaRead => {
    if (whole) throw new ProfileError('not a HeapLens profile: the file is truncated or corrupted');
    return { more: true };
  };
  const skipSpace = (): void => {
    while (i < n && SPACE.has(text.charCodeAt(i))) i++;
  };
  /** Index after the string that starts at i (a quote), or -1 when the text ends first. */
  const stringEnd = (from: number): number => {
    for (let k = from + 1; k < n; k++) {
      const c = text.charCodeAt(k);
      if (c === 0x5c) k++;
      else if (c === 0x22) return k + 1;
    }
    return -1;
  };
  /** Index after the value that starts at i, or -1 when the text ends first. */
  const valueEnd = (from: number): number => {
    const c = text.charCodeAt(from);
    if (c === 0x22) return stringEnd(from);
    if (c !== 0x7b && c !== 0x5b) {
      let k = from;
      while (k < n && !SPACE.has(text.charCodeAt(k)) && text[k] !== ',' && text[k] !== '}') k++;
      return k < n ? k : -1;
    }
    let depth = 0;
    for (let k = from; k < n; k++) {
      const d = text.charCodeAt(k);
      if (d === 0x22) {
        k = stringEnd(k) - 1;
        if (k < 0) return -1;
      } else if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        if (--depth === 0) return k + 1;
      }
    }
    return -1;
  };
  const bad = (what: string): never => {
    throw new ProfileError(`not a HeapLens profile: ${what}`);
  };
  skipSpace();
  if (i >= n) return more();
  if (text[i] !== '{') bad('the top level is not a JSON object');
  i++;
  for (;;) {
    skipSpace();
    if (i >= n) return more();
    if (text[i] === '}') return meta ? { meta } : whole ? bad('it has no "meta" object') : more();
    if (text[i] === ',') {
      i++;
      skipSpace();
    }
    if (i >= n) return more();
    if (text[i] !== '"') bad(`unexpected ${JSON.stringify(text[i])} at offset ${i}`);
    const keyEnd = stringEnd(i);
    if (keyEnd < 0) return more();
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    // after meta: the section is read now, or the file has none before its large parts
    if (meta && key !== 'first') return { meta };
    i = keyEnd;
    skipSpace();
    if (i >= n) return more();
    if (text[i] !== ':') bad(`unexpected ${JSON.stringify(text[i])} at offset ${i}`);
    i++;
    skipSpace();
    if (i >= n) return more();
    const end = valueEnd(i);
    if (end < 0) return more();
    const raw = text.slice(i, end);
    i = end;
    if (key === 'first' && meta) {
      try {
        return { meta, first: JSON.parse(raw) as unknown };
      } catch {
        return { meta };              // a damaged section: the whole file decides (it is read anyway)
      }
    }
    if (key === 'format' || key === 'version' || key === 'meta') {
      let v: unknown;
      try {
        v = JSON.parse(raw);
      } catch (e) {
        bad(`its "${key}" is not valid JSON (${(e as Error).message})`);
      }
      if (key === 'format' && v !== PROFILE_FORMAT) bad(`"format" is ${JSON.stringify(v)}, expected "${PROFILE_FORMAT}"`);
      if (key === 'version' && (typeof v !== 'number' || v > PROFILE_VERSION)) {
        throw new ProfileError(`written by a newer HeapLens (format version ${JSON.stringify(v)}); this build reads version ${PROFILE_VERSION}`);
      }
      if (key === 'meta') {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) bad('its "meta" is not an object');
        if (!first) return { meta: v as Meta };
        meta = v as Meta;
      }
    }
  }
}
