package io.heaplens.agent.start;

import io.heaplens.agent.cache.StartCache;
import io.heaplens.agent.collect.AgentThreads;
import io.heaplens.agent.core.Options;
import io.heaplens.agent.core.Registry;

/**
 * Reads the start-up cache, fills the empty id tables from it and loads the classes it recorded, on an agent thread,
 * while the premain's thread builds the transformer, runs the starters (the heap sampler's library) and adds the JIT
 * directive: on two cores the reading overlaps those steps instead of following them (docs/benchmark.md "Start-up,
 * Round 8"). Only for a start whose use of the cache is settled before the starters run (exact, sites: see
 * {@link Launch#startCache}); joined before the transformer is installed, and nothing registers an id before that.
 */
final class CacheReader implements Runnable {
    private final Options options;
    private final Registry registry;
    private Thread thread;
    /** Set by {@link #run}, read after {@link #join}. */
    StartCache cache;
    boolean warm;
    long readNanos, fillNanos, loadNanos;

    CacheReader(Options options, Registry registry) {
        this.options = options;
        this.registry = registry;
    }

    /** Starts the reading on its own thread; where no thread can start, reads here and now. */
    CacheReader start() {
        try {
            Thread t = new Thread(null, this, "heaplens-start-cache", 1L << 20);
            t.setDaemon(true);
            t.start();
            thread = t;
        } catch (Throwable noThread) {
            thread = null;
            read();
        }
        return this;
    }

    @Override public void run() {
        AgentThreads.markCurrent();        // what the JDK allocates for it is the agent's, never the program's
        read();
    }

    /** The reading itself, on the calling thread. */
    void read() {
        try {
            long t0 = System.nanoTime();
            cache = StartCache.open(options);
            long t1 = System.nanoTime();
            readNanos = t1 - t0;
            if (cache == null) return;
            warm = cache.begin(registry);
            long t2 = System.nanoTime();
            fillNanos = t2 - t1;
            if (warm) cache.loadRecordedClasses();
            loadNanos = System.nanoTime() - t2;
        } catch (Throwable t) {
            // open and begin catch their own failures; anything before the tables were filled leaves the start
            // without the cache, as if there were none
            if (!warm) cache = null;
            if (options.verbose) System.err.println("heaplens: start-up cache not read (" + t + ")");
        }
    }

    /** Waits until the reading is done (its results are then visible here). */
    void join() {
        Thread t = thread;
        if (t == null) return;
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
