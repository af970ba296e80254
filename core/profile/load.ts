// Loads a `.heaplens` profile file; parsing and validation live in parse.ts (no file system, shared with the webview).
import * as zlib from 'zlib';
import { FileProblem, READ_MAX_BYTES, readRegularFileBytes, readRegularFileHead } from './safe-file';
import { readMeta } from './meta-read';
import { parseProfile, ProfileError } from './parse';
import { Meta, Profile } from './types';

export { parseProfile, ProfileError, validateProfile } from './parse';

/**
 * A profile file's JSON text: the agent gzips large final profiles (docs/format.md "Compression"); gzip is
 * recognised by its magic bytes, so either form loads alike.
 */
export function profileText(bytes: Uint8Array): string {
  let text = bytes;
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      // a small file can inflate to anything: the same cap as for a plain file
      text = zlib.gunzipSync(bytes, { maxOutputLength: READ_MAX_BYTES }) as unknown as Uint8Array;
    } catch (e) {
      throw new ProfileError(`the compressed profile is damaged: ${(e as Error).message}`);
    }
  }
  return new TextDecoder('utf-8').decode(text);
}

/** Reads and validates a profile file; errors name the file. */
export function loadProfile(path: string): Profile {
  let bytes: Uint8Array;
  try {
    bytes = readRegularFileBytes(path);
  } catch (e) {
    if (e instanceof FileProblem) throw new ProfileError(`${path}: ${e.message}`);
    throw e;
  }
  try {
    return parseProfile(profileText(bytes));
  } catch (e) {
    if (e instanceof ProfileError) throw new ProfileError(`${path}: ${e.message}`);
    throw e;
  }
}

/** How much of a file the meta read looks at first: the agent's `meta` is a few KB from the start. */
export const META_HEAD_BYTES = 64 * 1024;

/**
 * The start of a profile file's text, from its first bytes: a gzipped head is inflated as far as it goes (a cut
 * stream is not an error here). Decoding stops short of a character cut in two.
 */
export function profileHeadText(head: Uint8Array): string {
  let text = head;
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
    try {
      text = zlib.gunzipSync(head, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: READ_MAX_BYTES }) as unknown as Uint8Array;
    } catch (e) {
      throw new ProfileError(`the compressed profile is damaged: ${(e as Error).message}`);
    }
  }
  return new TextDecoder('utf-8').decode(text, { stream: true });
}

/**
 * A profile file's `meta` without parsing the whole file (meta-read.ts): from its first 64 KB, or, when `meta` is not
 * there (another writer put it later), from the whole text walked over; errors name the file.
 */
export function loadProfileMeta(path: string): Meta {
  try {
    const head = readRegularFileHead(path, META_HEAD_BYTES);
    const first = readMeta(profileHeadText(head), head.length < META_HEAD_BYTES);
    if ('meta' in first) return first.meta;
    const all = readMeta(profileText(readRegularFileBytes(path)), true);
    if ('meta' in all) return all.meta;
    throw new ProfileError('not a HeapLens profile: it has no "meta" object');
  } catch (e) {
    if (e instanceof FileProblem || e instanceof ProfileError) throw new ProfileError(`${path}: ${e.message}`);
    throw e;
  }
}
