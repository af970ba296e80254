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

/** Starts the agent once the recorder is on the bootstrap class path (see boot.Premain). */
public final class AgentMain {
    private AgentMain() {}

    public static void start(Options options, Instrumentation inst) {
        Sampler.meanBytes = options.sampleBytes;      // before this thread's state draws its first interval
        ThreadState.current().busy++;
        try {
            ThreadState.maxDepth = options.maxDepth;
            ThreadState.maxNodes = options.maxNodesSet ? options.maxNodes : io.heaplens.agent.collect.HeapGuard.defaultMaxNodes(options.maxNodes);
            ClassInstrumenter.skipLeaves = options.skipLeaves;
            ModeControl.start(Mode.parse(options.mode));
            AgentInfo info = new AgentInfo();
            info.layoutSource = LayoutProbe.measure(inst);
            Registry registry = new Registry();
            Keys.resolver = registry;
            Sampler.frames = registry.samplerFrames();
            TransformStats stats = new TransformStats();
            Path out = Paths.get(options.out != null ? options.out : "heaplens-" + info.pid + ".heaplens").toAbsolutePath();
            PackageFilter filter = new PackageFilter(options.include, options.exclude);
            HeapLensTransformer transformer = new HeapLensTransformer(registry, filter, options.jdk, options.verbose, stats, inst);
            transformer.addReadEdges(ModuleLayer.boot().modules());
            AccountPatterns patterns = new AccountPatterns(options.accounts);
            boolean accountsMode = options.mode.equals("accounts");
            if (accountsMode) {
                boolean live = !options.liveness.equals("off");
                boolean sampledFromStart = options.liveness.equals("sampled")
                    || (options.liveness.equals("auto") && options.liveExactFirst == 0);
                io.heaplens.runtime.Accounts.every = sampledFromStart ? options.liveEvery : 1;
                if (options.liveness.equals("auto")) {
                    io.heaplens.runtime.Accounts.exactFirst = options.liveExactFirst;
                    io.heaplens.runtime.Accounts.sampledEvery = options.liveEvery;
                }
                io.heaplens.runtime.Accounts.liveness = live;
                transformer.accounts(new io.heaplens.agent.instrument.AccountsPlan(patterns, live));
            }
            io.heaplens.agent.collect.LifetimeWatcher lifetimes = null;
            if (Mode.parse(options.mode) == Mode.LIFETIME) lifetimes = LifetimeMode.start(options, inst, filter);
            if (options.sampler.equals("jfr")) io.heaplens.agent.jfr.JfrSampling.start(registry, filter, inst, stats);
            transformer.level(Mode.level(Mode.get()));
            // Only a start that instruments needs the instrumenter's JDK classes loaded before its snapshot; a start
            // with nothing to instrument (paused, sampled from JFR) leaves them to its first switch, whose
            // retransformation sweeps up what loads meanwhile (ModeControl): ~40 ASM classes, run in the
            // interpreter, that a paused start would pay for and never use.
            if (transformer.level() != Mode.LEVEL_NONE) WarmUp.instrumenter();
            inst.addTransformer(transformer, true);
            Sweep sweep = new Sweep(inst, transformer, stats);
            ModeControl.install(inst, transformer, stats, sweep);
            long t0 = System.nanoTime();
            if (transformer.level() != Mode.LEVEL_NONE) {
                // Started paused: nothing to retransform until the mode asks for probes (ModeControl).
                Retransform.all(inst, transformer, stats);
                for (int round = 0; round < 3 && sweep.now() > 0; round++) { /* each round may load classes the next one catches */ }
            }
            if (options.verbose) System.err.println("heaplens: retransformed " + stats.retransformed + " classes in " + (System.nanoTime() - t0) / 1_000_000 + " ms (transformer " + stats.nanos / 1_000_000 + " ms)");
            Collector collector = new Collector(out, options, registry, stats, inst, info);
            collector.onCycle(sweep);
            if (!patterns.isEmpty()) {
                collector.accounts(new io.heaplens.agent.collect.AccountsWriter(patterns, accountsMode, options.liveness,
                    options.liveEvery, options.liveExactFirst, registry, collector.sizes(), inst));
                if (accountsMode && !options.liveness.equals("off")) io.heaplens.agent.collect.LivenessThread.start();
            }
            if (lifetimes != null) collector.attachLifetimes(lifetimes);
            collector.prepare();
            collector.start();
            if (options.threads) io.heaplens.agent.threads.ThreadsProfiler.start(options.cpuSampleMillis);
            if (options.portFile != null) Channel.open(options, registry, collector, info);
            io.heaplens.agent.jfr.JfrSampling.started();
        } finally {
            ThreadState.current().busy--;
        }
    }

}
