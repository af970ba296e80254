package io.heaplens.agent.start;

import io.heaplens.agent.wire.Channel;

/** portFile=…: the live channel to the extension (docs/protocol.md), opened once the collector runs. */
final class ChannelStarter implements Starter {
    @Override public void started(Launch l) { Channel.open(l.options, l.registry, l.collector, l.info); }
}
