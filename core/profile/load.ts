// Loads a `.heaplens` profile file; parsing and validation live in parse.ts (no file system, shared with the webview).
import * as zlib from 'zlib';
import { FileProblem, READ_MAX_BYTES, readRegularFileBytes } from './safe-file';
import { parseProfile, ProfileError } from './parse';
import { Profile } from './types';

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
