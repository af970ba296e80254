package io.heaplens.agent.instrument;

import io.heaplens.agent.core.AccountPatterns;

/** The accounts mode's passes over a class the allocation instrumenter has handled: account switches, liveness. */
public final class AccountsPlan {
    private final AccountPatterns patterns;
    private final boolean liveness;

    public AccountsPlan(AccountPatterns patterns, boolean liveness) {
        this.patterns = patterns;
        this.liveness = liveness;
    }

    /**
     * @param original the class file as loaded
     * @param allocations the allocation instrumenter's output, null when it changed nothing
     * @return the class to define, null when unchanged
     */
    byte[] apply(String className, byte[] original, byte[] allocations) {
        byte[] out = allocations;
        if (liveness && out != null) {                   // no allocation site: nothing to watch
            byte[] b = LivenessProbes.apply(out);
            if (b != null) out = b;
        }
        int account = patterns.accountOf(className);
        if (account > 0) {
            byte[] b = AccountProbes.apply(out != null ? out : original, account);
            if (b != null) out = b;
        }
        return out;
    }
}
