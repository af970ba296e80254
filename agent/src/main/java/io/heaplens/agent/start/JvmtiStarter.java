package io.heaplens.agent.start;

import io.heaplens.agent.jvmti.JvmtiSampling;

/** sampler=jvmti: the sampled mode fed by HotSpot's heap sampler (JEP 331) through a native library (docs/modes.md). */
final class JvmtiStarter implements Starter {
    @Override public void install(Launch l) {
        if (JvmtiSampling.start(l.registry, l.filter, l.inst, l.stats, l.options.heapSampleBytes())) {
            io.heaplens.agent.jvmti.SampleRate.start(l.options.sampleRate);
        }
    }
}
