// Loads a `.heaplens` profile file; parsing and validation live in parse.ts (no file system, shared with the webview).
import * as fs from 'fs';
import { parseProfile, ProfileError } from './parse';
import { Profile } from './types';

export { parseProfile, ProfileError, validateProfile } from './parse';

/** Reads and validates a profile file; errors name the file. */
export function loadProfile(path: string): Profile {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a directory' : err.message;
    throw new ProfileError(`${path}: cannot read: ${why}`);
  }
  try {
    return parseProfile(text);
  } catch (e) {
    if (e instanceof ProfileError) throw new ProfileError(`${path}: ${e.message}`);
    throw e;
  }
}
