// The status bar's figures in the accounts mode: that mode records no call tree, so the live channel's
// counts stay 0; the accounts' own counts are in the snapshots the agent writes into the profile file.
// Read at most every few seconds, only in that mode. No `vscode` import.
import { accountsOf, accountTotals, UNACCOUNTED } from '../../core/views/accounts';
import { loadProfile } from '../../core/profile/load';

export interface AccountedFigures {
  /** allocations charged to the named accounts (the unaccounted rest left out) */
  objects: number;
  bytes: number;
  /** live now, when liveness is tracked */
  liveObjects?: number;
  liveBytes?: number;
  accounts: number;
}

/** The last accounts snapshot's totals over the named accounts; undefined while the file has none yet. */
export function accountedFigures(profileFile: string): AccountedFigures | undefined {
  let accounts;
  try {
    accounts = accountsOf(loadProfile(profileFile).file);
  } catch {
    return undefined;              // being rewritten, or not there yet: the next read gets a whole one
  }
  if (!accounts || accounts.snapshots.length === 0) return undefined;
  const named = accountTotals(accounts).filter((t) => t.account !== UNACCOUNTED);
  const live = accounts.liveness.kind !== 'off';
  const sum = (f: (t: typeof named[number]) => number | undefined): number => named.reduce((s, t) => s + (f(t) ?? 0), 0);
  return {
    objects: sum((t) => t.allocatedObjects), bytes: sum((t) => t.allocatedBytes), accounts: named.length,
    ...(live ? { liveObjects: sum((t) => t.liveObjects), liveBytes: sum((t) => t.liveBytes) } : {}),
  };
}
