package io.heaplens.agent.start;

import io.heaplens.agent.collect.LifetimeWatcher;
import io.heaplens.agent.core.Options;
import io.heaplens.agent.instrument.UseProbes;
import io.heaplens.runtime.Lifetimes;

import java.lang.instrument.Instrumentation;

/** Turns the lifetime mode on at launch (docs/lifetimes.md): use probes for the classes about to load, the watcher. */
final class LifetimeStarter implements Starter {
    private LifetimeWatcher watcher;

    @Override public void configure(Launch l) {
        Options options = l.options;
        Instrumentation inst = l.inst;
        Lifetimes.sampleEvery = options.sampleEvery;
        Lifetimes.sizer = new Lifetimes.Sizer() {
            @Override public long sizeOf(Object o) { return inst.getObjectSize(o); }
        };
        UseProbes.filter = l.filter;
        UseProbes.enabled = true;
        Lifetimes.instrumented = true;
        watcher = new LifetimeWatcher(options.lifetimePrecisionShare);
        watcher.start();
    }

    @Override public void attach(Launch l) { l.collector.attachLifetimes(watcher); }
}
