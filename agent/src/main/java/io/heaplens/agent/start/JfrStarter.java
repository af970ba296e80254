package io.heaplens.agent.start;

import io.heaplens.agent.jfr.JfrSampling;

/** sampler=jfr: the sampled mode fed by HotSpot's JFR allocation samples instead of the agent's probes (docs/modes.md). */
final class JfrStarter implements Starter {
    @Override public void install(Launch l) { JfrSampling.start(l.registry, l.filter, l.inst, l.stats); }
}
