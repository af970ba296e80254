package io.heaplens.agent.start;

import io.heaplens.agent.cache.StartCache;
import io.heaplens.agent.collect.AgentInfo;
import io.heaplens.agent.collect.Collector;
import io.heaplens.agent.collect.HeapGuard;
import io.heaplens.agent.control.ModeControl;
import io.heaplens.agent.control.Retransform;
import io.heaplens.agent.control.StartRedefinition;
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
    /** Set once the transformer is installed ({@link #afterInstall}): its process id sets up ProcessHandle's thread pool. */
    AgentInfo info;
    private final long startTime = System.currentTimeMillis();
    private final String layoutSource;
    final Registry registry;
    final TransformStats stats;
    final PackageFilter filter;
    final AccountPatterns patterns;
    final HeapLensTransformer transformer;
    private Sweep sweep;
    /** The start-up cache (null when off or unusable) and whether it supplied this start's tables and classes. */
    private StartCache startCache;
    /** The modes whose JDK classes the start-up cache holds (the mode is part of its key). */
    private static final java.util.Set<String> CACHED_MODES = java.util.Set.of("exact", "sites", "sampled");
    private boolean warm;
    Collector collector;

    Launch(Options options, Instrumentation inst) {
        this.options = options;
        this.inst = inst;
        ThreadState.maxDepth = options.maxDepth;
        if (options.maxNodesSet) ThreadState.maxNodes = options.maxNodes;
        ClassInstrumenter.skipLeaves = options.skipLeaves;
        ModeControl.start(Mode.parse(options.mode));
        layoutSource = LayoutProbe.measure(inst);
        registry = new Registry();
        Keys.resolver = registry;
        Sampler.frames = registry.samplerFrames();
        stats = new TransformStats();
        filter = new PackageFilter(options.include, options.exclude);
        transformer = new HeapLensTransformer(registry, filter, options.jdk, options.verbose, stats, inst);
        transformer.addReadEdges(ModuleLayer.boot().modules());
        patterns = new AccountPatterns(options.accounts);
    }

    /**
     * Opens the start-up cache for a start that instruments the JDK's classes with nothing but the mode's own probes
     * (exact, sites, sampled with the probe sampler), before anything registers an id: a warm start fills the empty
     * tables from it. Accounts and lifetimes add plans of their own to those classes and are not cached.
     * @return whether this start is warm (the instrumenter's warm-up is then not needed: no class is instrumented
     * at start)
     */
    boolean startCache() {
        if (!CACHED_MODES.contains(options.mode) || !options.accounts.isEmpty() || Mode.level(Mode.get()) == Mode.LEVEL_NONE) return false;
        long t0 = System.nanoTime();
        startCache = StartCache.open(options);
        if (startCache == null) return false;
        long t1 = System.nanoTime();
        warm = startCache.begin(registry);
        long t2 = System.nanoTime();
        if (warm) startCache.loadRecordedClasses();
        transformer.startCache(startCache);
        if (options.verbose) {
            System.err.println("heaplens: start-up cache read in " + (t1 - t0) / 1_000_000 + " ms, tables filled in " + (t2 - t1) / 1_000_000
                + " ms (" + registry.methodCount() + " methods, " + registry.siteCount() + " sites, " + registry.typeCount() + " types, " + io.heaplens.runtime.Keys.count() + " keys), classes loaded in " + (System.nanoTime() - t2) / 1_000_000 + " ms");
        }
        return warm;
    }

    /**
     * Installs the transformer at the mode's level and retransforms the classes loaded so far. A start with nothing to
     * instrument (paused, sampled from JFR) leaves the transformer out until the first switch that needs probes
     * (ModeControl): while one is installed, the JVM calls it for every class that loads, and must first rebuild the
     * class file of each class it takes from the class-data sharing archive.
     */
    void install() {
        transformer.level(Mode.level(Mode.get()));
        boolean instruments = transformer.level() != Mode.LEVEL_NONE;
        if (instruments) inst.addTransformer(transformer, true);
        sweep = new Sweep(inst, transformer, stats);
        ModeControl.install(inst, transformer, stats, sweep, instruments);
        long t0 = System.nanoTime();
        if (instruments) {
            // Started paused: nothing to retransform until the mode asks for probes (ModeControl).
            java.util.List<Class<?>> todo = transformer.retransformable(inst.getAllLoadedClasses(), false);
            // Warm: the cached bytes straight to the JVM, without rebuilding each class file first (StartRedefinition)
            if (warm) {
                int all = todo.size();
                todo = StartRedefinition.redefine(inst, transformer, startCache, todo, stats);
                if (options.verbose) System.err.println("heaplens: redefined " + (all - todo.size()) + " classes with the start-up cache's bytes in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            }
            Retransform.classes(inst, todo, stats);
            for (int round = 0; round < 3 && sweep.now() > 0; round++) { /* each round may load classes the next one catches */ }
        }
        if (options.verbose) System.err.println("heaplens: retransformed " + stats.retransformed + " classes in " + (System.nanoTime() - t0) / 1_000_000 + " ms (transformer " + stats.nanos / 1_000_000 + " ms)");
    }

    /**
     * What the start needs only once the transformer is installed: the facts every profile repeats and the default
     * node budget (from the heap's size). JDK classes the agent loads before the transformer are loaded and then
     * redefined by the retransformation, the JVM parsing each twice; loaded after it, they load once, with their
     * probes (from the start-up cache when warm). The budget reads the G1 region size through the platform MXBeans
     * (~150 JDK classes), the process id sets up ProcessHandle's thread pool (~40). Until then the premain thread
     * records nothing and the budget is the recorder's default, which is never lower.
     */
    void afterInstall() {
        if (!options.maxNodesSet) ThreadState.maxNodes = HeapGuard.defaultMaxNodes(options.maxNodes);
        info = new AgentInfo();
        info.startTime = startTime;
        info.layoutSource = layoutSource;
    }

    /** The agent has started: the start-up cache is written (cold) or let go (warm). */
    void startCacheDone() {
        if (startCache == null) return;
        transformer.startCache(null);
        boolean written = startCache.finish(registry);
        if (options.verbose && (warm || written)) {
            System.err.println("heaplens: start-up cache " + (warm ? "used (" + startCache.hits + " classes from it, " + startCache.misses + " transformed)" : "written") + ": " + startCache.file()
                + (warm ? "; " + startCache.leftOut + " unchanged classes not retransformed" + (written ? "; the classes it lacked added to it" : "") : ""));
            if (warm && !startCache.missed.isEmpty()) System.err.println("heaplens: start-up cache: transformed " + startCache.missed);
        }
    }

    /** The collector thread's writer of the profile file, which also sweeps for classes the transformer missed. */
    void collector() {
        Path out = Paths.get(options.out != null ? options.out : "heaplens-" + info.pid + ".heaplens").toAbsolutePath();
        collector = new Collector(out, options, registry, stats, inst, info);
        collector.onCycle(sweep);
    }
}
