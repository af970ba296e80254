package io.heaplens.agent.start;

import io.heaplens.agent.core.Options;
import io.heaplens.agent.core.PackageFilter;
import io.heaplens.agent.collect.LifetimeWatcher;
import io.heaplens.agent.instrument.UseProbes;
import io.heaplens.runtime.Lifetimes;

import java.lang.instrument.Instrumentation;

/** Turns the lifetime mode on at launch (docs/lifetimes.md): use probes for the classes about to load, the watcher. */
final class LifetimeMode {
    private LifetimeMode() {}

    static LifetimeWatcher start(Options options, Instrumentation inst, PackageFilter filter) {
        Lifetimes.sampleEvery = options.sampleEvery;
        Lifetimes.sizer = new Lifetimes.Sizer() {
            @Override public long sizeOf(Object o) { return inst.getObjectSize(o); }
        };
        UseProbes.filter = filter;
        UseProbes.enabled = true;
        Lifetimes.instrumented = true;
        LifetimeWatcher w = new LifetimeWatcher(options.lifetimePrecisionShare);
        w.start();
        return w;
    }
}
