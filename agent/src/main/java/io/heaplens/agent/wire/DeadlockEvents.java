package io.heaplens.agent.wire;

import io.heaplens.agent.threads.ThreadsProfiler;

/** Sends each new deadlock to the client as {"type":"event","event":"deadlock","deadlock":{…}} (docs/protocol.md). */
final class DeadlockEvents implements ThreadsProfiler.DeadlockListener {
    private final ChannelServer server;

    DeadlockEvents(ChannelServer server) { this.server = server; }

    @Override
    public void deadlock(final ThreadsProfiler.Deadlock d) {
        server.send(ChannelServer.deadlockEvent(d));
    }
}
