package io.heaplens.agent.collect;

/**
 * A little heap kept back for the profile's last write. A program that dies of OutOfMemoryError while it still holds
 * its whole heap (a static collection) leaves no room for the shutdown hook: the final write failed and only the last
 * periodic profile stayed on disk. The agent holds {@link #size} bytes from the start and lets them go when a thread
 * dies of an OutOfMemoryError (the JVM's exit path after it allocates: the uncaught-exception report, the thread's
 * exit, attaching the DestroyJavaVM thread, the shutdown hooks) and at the final write; the next allocation's
 * collection reclaims them. It comes out of the call trees' default share of the heap ({@code HeapGuard}), so the
 * agent's footprint in a program near its -Xmx stays what it was (the nearxmx fixture, 90% of -Xmx128m live, failed
 * 1 run in 5 under load when the reserve came on top).
 * <p>
 * The release on a dying thread is a default uncaught-exception handler, installed at start, that prints what the
 * JDK prints without one ({@code Exception in thread "main" ...}) or hands over to one installed before; a program
 * that installs its own replaces it (then only the final write releases the reserve). A program that catches the
 * OutOfMemoryError and goes on allocating uses the reserve up before it exits.
 */
public final class MemoryReserve {
    private static volatile byte[] reserve;
    private static volatile boolean released;

    private MemoryReserve() {}

    /**
     * The reserve for a heap of {@code heapMax} bytes: 1/128 of it, 1 to 4 MiB, and at least two G1 regions — G1
     * makes progress in a full heap only with a free region for new objects and one to copy survivors into (one
     * region of 1 MiB was measured too little for the write at -Xmx64m, two enough, 8 of 8 runs on JDK 17 and 25).
     * A little under the size, so the array (a humongous object under G1) takes exactly that many regions.
     */
    public static long size(long heapMax) {
        long s = heapMax <= 0 || heapMax == Long.MAX_VALUE ? 4L << 20 : Math.max(1L << 20, Math.min(4L << 20, heapMax / 128));
        return Math.max(s, 2 * g1RegionBytes()) - 64;
    }

    /** G1's region size, or 0 under another collector (or when the JVM does not say). */
    private static long g1RegionBytes() {
        try {
            com.sun.management.HotSpotDiagnosticMXBean hs =
                java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            if (!"true".equals(hs.getVMOption("UseG1GC").getValue())) return 0;
            return Long.parseLong(hs.getVMOption("G1HeapRegionSize").getValue());
        } catch (Throwable t) {
            return 0;
        }
    }

    static void hold(long heapMax) {
        try {
            reserve = new byte[(int) size(heapMax)];
        } catch (Throwable ignored) {
            // no room even for this: the agent runs without a reserve
        }
    }

    /** Releases the reserve when a thread dies of OutOfMemoryError (see the class comment). */
    static void releaseOnUncaughtOutOfMemory() {
        // Run the handler's own code once now, into nothing and with an error that releases nothing: the classes
        // that printing loads on first use (Throwable's print wrappers, the identity set against cycles) are then
        // loaded, and the handler's constants resolved (a string constant is made in the heap on first use). In a
        // full heap, loading a class through the transformer fails ("can't create byte array") and the report would
        // be lost.
        java.io.PrintStream nowhere = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        new DyingThreadReport(null).handle(Thread.currentThread(), new IllegalStateException("warm-up"), nowhere);
        OutOfMemoryError.class.getName();       // a class's name is made on first use too
        Thread.setDefaultUncaughtExceptionHandler(new DyingThreadReport(Thread.getDefaultUncaughtExceptionHandler()));
    }

    /** The default uncaught-exception handler: releases the reserve on OutOfMemoryError, then reports as the JDK does. */
    static final class DyingThreadReport implements Thread.UncaughtExceptionHandler {
        /** Tries of the report in a heap still full: each after a collection, so the released reserve is free again. */
        static final int TRIES = 3;
        private final Thread.UncaughtExceptionHandler previous;

        DyingThreadReport(Thread.UncaughtExceptionHandler previous) { this.previous = previous; }

        @Override
        public void uncaughtException(Thread t, Throwable e) {
            handle(t, e, System.err);
        }

        void handle(Thread t, Throwable e, java.io.PrintStream err) {
            if (e instanceof OutOfMemoryError) release();
            if (previous != null) {
                previous.uncaughtException(t, e);
                return;
            }
            // The printing runs JDK code with allocation probes, and a probe that grows a table in a full heap would
            // throw out of this handler: the report is the agent's work, recorded by nobody.
            io.heaplens.runtime.ThreadState ts = io.heaplens.runtime.ThreadState.current();
            ts.busy++;
            try {
                for (int attempt = 1; ; attempt++) {
                    try {
                        if ("java.lang.ThreadDeath".equals(e.getClass().getName())) return;   // the name: made on first use
                        if (attempt > 1) err.println();   // after a report cut short: a line of its own
                        report(t, e, err);
                        return;
                    } catch (OutOfMemoryError full) {
                        // Another thread (the agent's periodic write, the program's) took the released reserve before
                        // this one: without this, the JVM prints only "thrown from the UncaughtExceptionHandler"
                        // (1 run in 3 on JDK 25 under load). A collection, a pause for that thread, and again.
                        if (attempt == TRIES) return;
                        System.gc();
                        try {
                            Thread.sleep(20L * attempt);
                        } catch (InterruptedException stop) {
                            return;
                        }
                    }
                }
            } finally {
                ts.busy--;
            }
        }
    }

    /**
     * What java.lang.ThreadGroup prints when no default handler is set. The heap may still be full here (the released
     * reserve is reclaimed only by the next collection, and other threads allocate too), so the first line is printed
     * from strings that already exist, and a stack trace that cannot be built is left out rather than replaced by
     * the JVM's "thrown from the UncaughtExceptionHandler" line.
     */
    static void report(Thread t, Throwable e, java.io.PrintStream err) {
        err.print("Exception in thread \"");
        err.print(t.getName());
        err.print("\" ");
        try {
            e.printStackTrace(err);
        } catch (OutOfMemoryError again) {
            try {
                err.print(e.getClass().getName());
                String m = e.getMessage();
                if (m != null) { err.print(": "); err.print(m); }
                err.println();
            } catch (Throwable ignored) {
                // nothing more can be printed in this heap
            }
        }
    }

    /** Gives the reserve back to the heap; true the first time (when there was one). */
    static boolean release() {
        boolean had = reserve != null;
        reserve = null;
        if (had) released = true;
        return had;
    }

    static boolean released() { return released; }
}
