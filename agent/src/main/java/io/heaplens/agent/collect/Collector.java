package io.heaplens.agent.collect;

import io.heaplens.agent.core.Options;
import io.heaplens.agent.core.Registry;
import io.heaplens.agent.instrument.TransformStats;
import io.heaplens.runtime.ThreadState;

import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;

/**
 * The collector thread: wakes every 250 ms, and every {@code interval} ms writes the profile — every thread's
 * MCT, dead threads included — atomically to disk. The shutdown hook writes the final profile. Both run with the
 * recorder guard up, so their own work is never profiled.
 */
public final class Collector {
    private static final long CYCLE_MILLIS = 250;
    private static final long STACK = 256L << 20;   // the writer recurses once per MCT level

    private final Path out;
    private final Options options;
    private final ProfileWriter writer;
    private final AgentInfo info;
    private final Registry registry;
    private final HeapGuard heapGuard;
    private int sequence;
    private long cycles;
    private volatile boolean finished;
    private volatile io.heaplens.agent.wire.ChannelServer channel;

    public Collector(Path out, Options options, Registry registry, TransformStats stats, Instrumentation inst, AgentInfo info) {
        this.out = out;
        this.options = options;
        this.info = info;
        this.registry = registry;
        this.heapGuard = new HeapGuard(stats);
        this.writer = new ProfileWriter(registry, stats, options, new TypeSizes(inst), info, heapGuard);
        this.inst = inst;
    }

    private final Instrumentation inst;
    /** How the final write is hooked into the JVM's exit: "system" or "thread" ({@link ExitHook}). */
    private String exitHook = "none";

    private volatile Runnable cycleTask = () -> { };

    /** Something to run on every collector cycle (on the collector thread). */
    public void onCycle(Runnable task) { cycleTask = task; }

    public void attachChannel(io.heaplens.agent.wire.ChannelServer c) { channel = c; }

    private volatile AccountsWriter accounts;

    /** Memory accounts: snapshots periodically, on request and at shutdown, written with every profile. */
    public void accounts(AccountsWriter a) {
        accounts = a;
        writer.accounts = a;
    }

    /** Writes the profile now (a snapshot requested over the channel, after a full GC if asked); returns the file. */
    public String snapshot(boolean gc) {
        AccountsWriter a = accounts;
        if (a != null) a.take("request", gc);
        MemorySampler m = memory;
        if (m != null) m.mark("snapshot");
        write(false);
        return out.toString();
    }

    public TypeSizes sizes() { return writer.sizes(); }

    /** The memory chart's sampler (null with memoryInterval=0). */
    private MemorySampler memory;

    /** Lifetime mode: its section in every write; its last GC and the still-reachable objects before the final one. */
    public void attachLifetimes(LifetimeWatcher w) { writer.lifetimes = w; }

    /**
     * The one-time JDK work the collector needs (the runtime MXBean, the charset encoders and file classes of the
     * first write) runs here, on the premain thread under the recorder's guard, before the program starts: done
     * later on the collector thread, it raced the program, and whichever thread initialised a JDK class first was
     * charged for it — counts varied from run to run.
     */
    public void prepare() { prepare(null); }

    /** @param steps verbose's start-up line, to which each part's milliseconds are added (null: not verbose) */
    public void prepare(StringBuilder steps) {
        long ts = System.nanoTime();
        try {
            info.jvmArgs = ManagementFactory.getRuntimeMXBean().getInputArguments();
        } catch (Throwable ignored) { }
        ts = step(steps, "runtime-bean", ts);
        if (io.heaplens.runtime.Mode.level(io.heaplens.runtime.Mode.get()) != io.heaplens.runtime.Mode.LEVEL_NONE) {
            heapGuard.install();
        } else {
            // paused (or sampled from JFR): the pools and GC listener wait for the first switch that adds probes
            heapGuard.link();
            io.heaplens.agent.control.ModeControl.beforeProbes(heapGuard::install);
        }
        ts = step(steps, "heap-guard", ts);
        if (options.memoryMillis > 0) {
            // the MXBeans load here, under the premain's guard, like the runtime bean above
            try {
                MemorySampler m = new MemorySampler(options.memoryMillis);
                m.listen();
                m.sample(System.currentTimeMillis());
                memory = m;
                writer.memory = m;
                MemorySampler.install(m);
            } catch (Throwable t) {
                if (options.verbose) System.err.println("heaplens: memory chart: " + t);
            }
        }
        ts = step(steps, "memory-chart", ts);
        MemoryReserve.hold(heapGuard.heapMax());
        MemoryReserve.releaseOnUncaughtOutOfMemory();
        ts = step(steps, "reserve", ts);
        write(false);                 // the file exists from the start, so even a JVM killed at once leaves one
        step(steps, "first-write", ts);
    }

    private static long step(StringBuilder steps, String name, long since) {
        long now = System.nanoTime();
        if (steps != null) steps.append(' ').append(name).append(' ').append((now - since) / 1_000_000);
        return now;
    }

    public void start() {
        Thread loop = new Thread(null, this::loop, "heaplens-collector", STACK);
        loop.setDaemon(true);
        loop.start();
        exitHook = ExitHook.register(inst, this::shutdown, SHUTDOWN_THREAD, STACK);
        if (options.verbose) System.err.println("heaplens: final write hooked as a " + exitHook + " shutdown hook");
    }

    private static final String SHUTDOWN_THREAD = "heaplens-shutdown";

    private void loop() {
        AgentThreads.markCurrent();
        lastWrite = lastSnapshot = System.currentTimeMillis();
        while (!finished) {
            try {
                Thread.sleep(CYCLE_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            cycles++;
            try {
                cycle();
            } catch (OutOfMemoryError e) {
                // the program filled the heap: the collector lives on (a later write may find room); the reserve
                // stays for the final write
            } catch (Throwable t) {
                if (options.verbose) System.err.println("heaplens: collector: " + t);
            }
        }
    }

    /** When the collector last wrote the profile and took an accounts snapshot (collector thread only). */
    private long lastWrite, lastSnapshot;

    private void cycle() {
        try { heapGuard.check(); } catch (Throwable t) { if (options.verbose) System.err.println("heaplens: heap guard: " + t); }
        registry.publishObjectSizes(writer.sizes()::sizeOf);
        MemorySampler m = memory;
        if (m != null) {
            try { m.tick(System.currentTimeMillis()); } catch (Throwable t) { if (options.verbose) System.err.println("heaplens: memory chart: " + t); }
        }
        try { cycleTask.run(); } catch (Throwable t) { if (options.verbose) System.err.println("heaplens: " + t); }
        io.heaplens.agent.wire.ChannelServer c = channel;
        if (c != null) {
            try { c.tick(); } catch (Throwable t) { if (options.verbose) System.err.println("heaplens: channel: " + t); }
        }
        AccountsWriter a = accounts;
        if (a != null && options.snapshotMillis > 0 && System.currentTimeMillis() - lastSnapshot >= options.snapshotMillis - CYCLE_MILLIS / 2) {
            try { a.take("periodic", options.snapshotGc); } catch (Throwable t) { if (options.verbose) System.err.println("heaplens: accounts: " + t); }
            lastSnapshot = System.currentTimeMillis();
        }
        // A large profile takes a while to write: never spend more than a fifth of the time writing it (a twentieth for a big one).
        long interval = waitAfterWrite(writeInterval(options, io.heaplens.runtime.Mode.get()), writer.lastWriteMillis, writer.lastBytes);
        if (System.currentTimeMillis() - lastWrite >= interval - CYCLE_MILLIS / 2) {
            write(false);
            lastWrite = System.currentTimeMillis();
        }
    }

    /**
     * A periodic write waits at least this many times as long as the previous one took: a write at most a fifth of the
     * time. A big profile waits {@link #WRITE_SHARE_BIG} times: checkstyle's exact profile (945,687 nodes, 43 MB of text,
     * ~0.44 s a write) was rewritten 28 times in a 52 s run, 7.6 s of the agent threads' CPU, a tenth of the whole run's
     * (docs/benchmark.md "Round 18"). Small profiles keep the fifth: under load their writes stretch to 100 ms and more,
     * and a cut channel's promise (test/reliability/survive.test.ts: the file is rewritten within 2.2 s) stands.
     * The live view does not read the file (the channel carries it); a longer wait only makes a killed JVM's file older.
     */
    static final int WRITE_SHARE = 5, WRITE_SHARE_BIG = 20;
    /** A profile written as this many bytes of text or more is big: a tree near its node budget (maven: 25–48 MB). */
    static final long BIG_PROFILE_BYTES = 16L << 20;

    /** The time from one periodic write to the next: the mode's interval, or longer when the last write was slow. */
    static long waitAfterWrite(long interval, long lastWriteMillis, long lastBytes) {
        return Math.max(interval, (lastBytes >= BIG_PROFILE_BYTES ? WRITE_SHARE_BIG : WRITE_SHARE) * lastWriteMillis);
    }

    /** Milliseconds between periodic writes when nothing else forces one. */
    static final long LOW_OVERHEAD_INTERVAL_MILLIS = 5000;

    /**
     * The periodic write rewrites the whole profile: in the low-overhead modes it was most of the agent's own CPU
     * (h2: 78 % of the agent threads' samples with sampler=jfr, 69 % in sites; docs/benchmark.md), and its cost grows
     * with the run's wall time, not with its work. Without an explicit interval sampled, sites and paused write every
     * 5 s (a killed JVM's profile is then up to 5 s old); exact keeps 1 s; the live channel is unaffected.
     */
    static long writeInterval(Options options, int mode) {
        if (options.intervalSet) return options.intervalMillis;
        boolean low = mode == io.heaplens.runtime.Mode.SAMPLED || mode == io.heaplens.runtime.Mode.SITES || mode == io.heaplens.runtime.Mode.PAUSED;
        return low ? Math.max(options.intervalMillis, LOW_OVERHEAD_INTERVAL_MILLIS) : options.intervalMillis;
    }

    private void shutdown() {
        MemoryReserve.release();      // the heap may be full to the last byte: the last write gets the reserve
        // Normally on the agent's heaplens-shutdown thread (ExitHook); if that thread could not start, on the exiting
        // thread: the JVM's DestroyJavaVM thread after main returned (the agent's from now on), or a program thread
        // that called System.exit, whose profile stays and which records nothing more (the JVM halts after the hooks).
        claimExitingThread();
        if (options.heapDumpAtExit != null && options.errors.isEmpty()) {
            try {
                io.heaplens.agent.heap.HeapDumps.Result r = io.heaplens.agent.heap.HeapDumps.dump(options.heapDumpAtExit, true, true);
                if (options.verbose) System.err.println("heaplens: heap dump written to " + r.file + " (" + r.bytes + " bytes, " + r.millis + " ms)");
            } catch (Throwable t) {
                System.err.println("heaplens: could not write the heap dump to " + options.heapDumpAtExit + ": " + t);
            }
        }
        AccountsWriter a = accounts;
        if (a != null) {
            try { a.take("shutdown", false); } catch (Throwable t) { System.err.println("heaplens: accounts: " + t); }
        }
        LifetimeWatcher lw = writer.lifetimes;
        if (lw != null) {
            try { lw.finish(); } catch (Throwable t) { System.err.println("heaplens: lifetimes: " + t); }
        }
        String drained = io.heaplens.agent.jfr.JfrSampling.drain(2000);   // JFR delivers its samples about once a second
        if (drained != null && options.verbose) System.err.println("heaplens: " + drained);
        write(true);
        io.heaplens.agent.wire.ChannelServer c = channel;
        if (c != null) c.exiting();
        if (options.verbose) System.err.println("heaplens: profile written to " + out + " (" + writer.lastBytes + " bytes, " + writer.lastWriteMillis + " ms, of which the first section and the trees' copy " + writer.lastSectionMillis + " ms)");
    }

    /** The thread doing the final work records nothing from now on (see {@link #shutdown} for which it can be). */
    private void claimExitingThread() {
        String name = Thread.currentThread().getName();
        if (options.verbose) System.err.println("heaplens: final write on thread " + name);
        if (SHUTDOWN_THREAD.equals(name) || "DestroyJavaVM".equals(name)) AgentThreads.markCurrent();
        else ThreadState.current().busy++;
    }

    private synchronized void write(boolean fin) {
        if (finished) return;
        ++sequence;
        Throwable failed = attempt(fin);
        // a full heap: with the reserve given back, the next allocation's collection makes room for one more try
        if (failed instanceof OutOfMemoryError && MemoryReserve.release()) failed = attempt(fin);
        if (failed != null) {
            System.err.println("heaplens: could not write the profile to " + out + ": "
                + (failed instanceof OutOfMemoryError ? "the heap is full" : String.valueOf(failed)));
        }
        if (fin) finished = true;
    }

    /** One write of the profile; what it threw, or null. */
    private Throwable attempt(boolean fin) {
        try {
            writer.write(out, fin, sequence, cycles);
            return null;
        } catch (Throwable t) {
            return t;
        }
    }
}
