// Loads a `.heaplens` profile file; parsing and validation live in parse.ts (no file system, shared with the webview).
import { FileProblem, readRegularFile } from './safe-file';
import { parseProfile, ProfileError } from './parse';
import { Profile } from './types';

export { parseProfile, ProfileError, validateProfile } from './parse';

/** Reads and validates a profile file; errors name the file. */
export function loadProfile(path: string): Profile {
  let text: string;
  try {
    text = readRegularFile(path);
  } catch (e) {
    if (e instanceof FileProblem) throw new ProfileError(`${path}: ${e.message}`);
    throw e;
  }
  try {
    return parseProfile(text);
  } catch (e) {
    if (e instanceof ProfileError) throw new ProfileError(`${path}: ${e.message}`);
    throw e;
  }
}
