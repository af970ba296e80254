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
        // Print one stack trace now, into nothing: the classes that printing loads on first use (Throwable's
        // print wrappers, the identity set against cycles) are then loaded. In a full heap, loading a class
        // through the transformer fails ("can't create byte array") and the report would be lost.
        java.io.PrintStream nowhere = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        report(Thread.currentThread(), new OutOfMemoryError("warm-up"), nowhere);
        final Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler(new Thread.UncaughtExceptionHandler() {
            @Override
            public void uncaughtException(Thread t, Throwable e) {
                if (e instanceof OutOfMemoryError) release();
                if (previous != null) {
                    previous.uncaughtException(t, e);
                } else if (!"java.lang.ThreadDeath".equals(e.getClass().getName())) {
                    // The printing runs JDK code with allocation probes, and a probe that grows a table in a full
                    // heap would throw out of this handler: the report is the agent's work, recorded by nobody.
                    io.heaplens.runtime.ThreadState ts = io.heaplens.runtime.ThreadState.current();
                    ts.busy++;
                    try {
                        report(t, e, System.err);
                    } finally {
                        ts.busy--;
                    }
                }
            }
        });
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
