package io.heaplens.agent.start;

import io.heaplens.agent.collect.AccountsWriter;
import io.heaplens.agent.collect.LivenessThread;
import io.heaplens.agent.core.Options;
import io.heaplens.agent.instrument.AccountsPlan;
import io.heaplens.runtime.Accounts;

/**
 * Memory accounts (docs/accounts.md, Bouché et al. 2009): the accounts mode's probes and liveness tracking, and — in
 * any mode with account patterns — the snapshots the collector takes and writes.
 */
final class AccountsStarter implements Starter {
    private final boolean accountsMode;

    AccountsStarter(boolean accountsMode) { this.accountsMode = accountsMode; }

    @Override public void configure(Launch l) {
        if (!accountsMode) return;
        Options o = l.options;
        boolean live = !o.liveness.equals("off");
        boolean sampledFromStart = o.liveness.equals("sampled") || (o.liveness.equals("auto") && o.liveExactFirst == 0);
        Accounts.every = sampledFromStart ? o.liveEvery : 1;
        if (o.liveness.equals("auto")) {
            Accounts.exactFirst = o.liveExactFirst;
            Accounts.sampledEvery = o.liveEvery;
        }
        Accounts.liveness = live;
        l.transformer.accounts(new AccountsPlan(l.patterns, live));
    }

    @Override public void attach(Launch l) {
        if (l.patterns.isEmpty()) return;
        Options o = l.options;
        l.collector.accounts(new AccountsWriter(l.patterns, accountsMode, o.liveness, o.liveEvery, o.liveExactFirst,
            l.registry, l.collector.sizes(), l.inst));
        if (accountsMode && !o.liveness.equals("off")) LivenessThread.start();
    }
}
