package io.heaplens.agent;

import io.heaplens.agent.collect.AgentInfo;
import io.heaplens.agent.collect.Collector;
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
import java.util.ArrayList;
import java.util.List;

/** Starts the agent once the recorder is on the bootstrap class path (see boot.Premain). */
public final class AgentMain {
    private AgentMain() {}

    public static void start(Options options, Instrumentation inst) {
        Sampler.meanBytes = options.sampleBytes;      // before this thread's state draws its first interval
        ThreadState.current().busy++;
        try {
            ThreadState.maxDepth = options.maxDepth;
            ThreadState.maxNodes = options.maxNodes;
            ClassInstrumenter.skipLeaves = options.skipLeaves;
            ModeControl.start(Mode.parse(options.mode));
            AgentInfo info = new AgentInfo();
            info.layoutSource = LayoutProbe.measure(inst);
            Registry registry = new Registry();
            Keys.resolver = registry;
            Sampler.frames = registry::profiledMethodId;
            TransformStats stats = new TransformStats();
            Path out = Paths.get(options.out != null ? options.out : "heaplens-" + info.pid + ".heaplens").toAbsolutePath();
            HeapLensTransformer transformer = new HeapLensTransformer(registry,
                new PackageFilter(options.include, options.exclude), options.jdk, options.verbose, stats, inst);
            transformer.addReadEdges(ModuleLayer.boot().modules());
            WarmUp.instrumenter();
            inst.addTransformer(transformer, true);
            long t0 = System.nanoTime();
            retransformLoaded(inst, transformer, stats, options);
            Sweep sweep = new Sweep(inst, transformer, stats);
            for (int round = 0; round < 3 && sweep.now() > 0; round++) { /* each round may load classes the next one catches */ }
            if (options.verbose) System.err.println("heaplens: retransformed " + stats.retransformed + " classes in " + (System.nanoTime() - t0) / 1_000_000 + " ms (transformer " + stats.nanos / 1_000_000 + " ms)");
            Collector collector = new Collector(out, options, registry, stats, inst, info);
            collector.onCycle(sweep);
            collector.prepare();
            collector.start();
            if (options.threads) io.heaplens.agent.threads.ThreadsProfiler.start(options.cpuSampleMillis);
            if (options.portFile != null) Channel.open(options, registry, collector, info);
        } finally {
            ThreadState.current().busy--;
        }
    }

    /** JDK classes loaded before the agent get their allocation sites too. */
    private static void retransformLoaded(Instrumentation inst, HeapLensTransformer t, TransformStats stats, Options options) {
        List<Class<?>> todo = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (c.isArray() || c.isPrimitive() || c.isHidden() || !inst.isModifiableClass(c)) continue;
            String internal = c.getName().replace('.', '/');
            if (!t.wanted(internal, c.getClassLoader())) continue;
            todo.add(c);
        }
        int done = 0;
        // One batch: each retransformation request walks every loaded class once, so fewer requests are cheaper.
        for (int i = 0; i < todo.size(); i += 5000) {
            List<Class<?>> batch = todo.subList(i, Math.min(todo.size(), i + 5000));
            try {
                inst.retransformClasses(batch.toArray(new Class<?>[0]));
                done += batch.size();
            } catch (Throwable batchFailed) {
                for (Class<?> c : batch) {
                    try {
                        inst.retransformClasses(c);
                        done++;
                    } catch (Throwable one) {
                        stats.warn(c.getName() + ": could not be retransformed (" + one + "); its allocations are not counted");
                    }
                }
            }
        }
        stats.retransformed(done);
    }
}
