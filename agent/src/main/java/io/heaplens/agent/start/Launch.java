package io.heaplens.agent.start;

import io.heaplens.agent.collect.AgentInfo;
import io.heaplens.agent.collect.Collector;
import io.heaplens.agent.collect.HeapGuard;
import io.heaplens.agent.control.ModeControl;
import io.heaplens.agent.control.Retransform;
import io.heaplens.agent.control.Sweep;
import io.heaplens.agent.core.AccountPatterns;
import io.heaplens.agent.core.Options;
import io.heaplens.agent.core.PackageFilter;
import io.heaplens.agent.core.Registry;
import io.heaplens.agent.instrument.ClassInstrumenter;
import io.heaplens.agent.instrument.HeapLensTransformer;
import io.heaplens.agent.instrument.TransformStats;
import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Mode;
import io.heaplens.runtime.Sampler;
import io.heaplens.runtime.ThreadState;

import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * What every mode starts with, and what the starters read: the recorder's limits, the mode, the JVM's layout, the id
 * tables, the transformer (built here, installed by {@link #install}) and the collector ({@link #collector}).
 */
final class Launch {
    final Options options;
    final Instrumentation inst;
    final AgentInfo info;
    final Registry registry;
    final TransformStats stats;
    final PackageFilter filter;
    final AccountPatterns patterns;
    final HeapLensTransformer transformer;
    private Sweep sweep;
    Collector collector;

    Launch(Options options, Instrumentation inst) {
        this.options = options;
        this.inst = inst;
        ThreadState.maxDepth = options.maxDepth;
        ThreadState.maxNodes = options.maxNodesSet ? options.maxNodes : HeapGuard.defaultMaxNodes(options.maxNodes);
        ClassInstrumenter.skipLeaves = options.skipLeaves;
        ModeControl.start(Mode.parse(options.mode));
        info = new AgentInfo();
        info.layoutSource = LayoutProbe.measure(inst);
        registry = new Registry();
        Keys.resolver = registry;
        Sampler.frames = registry.samplerFrames();
        stats = new TransformStats();
        filter = new PackageFilter(options.include, options.exclude);
        transformer = new HeapLensTransformer(registry, filter, options.jdk, options.verbose, stats, inst);
        transformer.addReadEdges(ModuleLayer.boot().modules());
        patterns = new AccountPatterns(options.accounts);
    }

    /** Installs the transformer at the mode's level and retransforms the classes loaded so far (none when paused). */
    void install() {
        transformer.level(Mode.level(Mode.get()));
        inst.addTransformer(transformer, true);
        sweep = new Sweep(inst, transformer, stats);
        ModeControl.install(inst, transformer, stats, sweep);
        long t0 = System.nanoTime();
        if (transformer.level() != Mode.LEVEL_NONE) {
            // Started paused: nothing to retransform until the mode asks for probes (ModeControl).
            Retransform.all(inst, transformer, stats);
            for (int round = 0; round < 3 && sweep.now() > 0; round++) { /* each round may load classes the next one catches */ }
        }
        if (options.verbose) System.err.println("heaplens: retransformed " + stats.retransformed + " classes in " + (System.nanoTime() - t0) / 1_000_000 + " ms (transformer " + stats.nanos / 1_000_000 + " ms)");
    }

    /** The collector thread's writer of the profile file, which also sweeps for classes the transformer missed. */
    void collector() {
        Path out = Paths.get(options.out != null ? options.out : "heaplens-" + info.pid + ".heaplens").toAbsolutePath();
        collector = new Collector(out, options, registry, stats, inst, info);
        collector.onCycle(sweep);
    }
}
