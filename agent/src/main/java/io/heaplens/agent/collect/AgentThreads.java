package io.heaplens.agent.collect;

import io.heaplens.runtime.ThreadState;

/** The agent's own threads: never profiled, never shown. */
public final class AgentThreads {
    private AgentThreads() {}

    public static void markCurrent() {
        ThreadState ts = ThreadState.current();
        ts.busy++;
        ts.agentThread = true;
    }

    public static Thread start(String name, Runnable body) {
        Thread t = new Thread(null, () -> { markCurrent(); body.run(); }, name, 1L << 20);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
