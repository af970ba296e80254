package io.heaplens.agent.start;

import io.heaplens.agent.core.Options;
import io.heaplens.runtime.Mode;

import java.util.ArrayList;
import java.util.List;

/**
 * What a mode (or an optional part) adds to the common start ({@link Launch}), at four points of AgentMain.start:
 * before the instrumenter warms up, before the transformer is installed, once the collector exists (before it
 * starts) and once it runs. Each default does nothing.
 */
interface Starter {
    default void configure(Launch l) {}

    default void install(Launch l) {}

    default void attach(Launch l) {}

    default void started(Launch l) {}

    /** The starters the options ask for, in the order their steps must run. */
    static List<Starter> forOptions(Options options) {
        List<Starter> s = new ArrayList<>();
        boolean accountsMode = options.mode.equals("accounts");
        if (accountsMode || !options.accounts.isEmpty()) s.add(new AccountsStarter(accountsMode));
        if (Mode.parse(options.mode) == Mode.LIFETIME) s.add(new LifetimeStarter());
        if (options.threads) s.add(new ThreadsStarter());
        if (options.portFile != null) s.add(new ChannelStarter());
        if (options.sampler.equals("jfr")) s.add(new JfrStarter());
        if (options.sampler.equals("jvmti")) s.add(new JvmtiStarter());
        return s;
    }
}
