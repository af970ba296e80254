// A profile the host already validated (parse.ts where the raw bytes came in, or built by LiveProfile):
// its id tables as maps, without checking it again. The webview and the host's exports use it; raw bytes
// never come here.
import { MethodEntry, Profile, ProfileFile, SiteEntry, TypeEntry } from './types';

export function trustedProfile(file: ProfileFile): Profile {
  return {
    file,
    types: new Map<number, TypeEntry>(file.types.map((t) => [t.id, t])),
    methods: new Map<number, MethodEntry>(file.methods.map((m) => [m.id, m])),
    sites: new Map<number, SiteEntry>(file.sites.map((s) => [s.id, s])),
    threads: file.threads,
  };
}
