// Loads a `.heaplens` profile file; parsing and validation live in parse.ts (no file system, shared with the webview).
import * as fs from 'fs';
import * as zlib from 'zlib';
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
      text = zlib.gunzipSync(bytes) as unknown as Uint8Array;
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
    bytes = fs.readFileSync(path) as unknown as Uint8Array;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a directory' : err.message;
    throw new ProfileError(`${path}: cannot read: ${why}`);
  }
  try {
    return parseProfile(profileText(bytes));
  } catch (e) {
    if (e instanceof ProfileError) throw new ProfileError(`${path}: ${e.message}`);
    throw e;
  }
}
