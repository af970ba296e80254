package io.heaplens.agent.collect;

/**
 * A little heap kept back for the profile's last write. A program that dies of OutOfMemoryError while it still holds
 * its whole heap (a static collection) leaves no room for the shutdown hook: the final write failed and only the last
 * periodic profile stayed on disk. The agent holds {@link #size} bytes from the start and lets them go when a thread
 * dies of an OutOfMemoryError (the JVM's exit path after it allocates: the uncaught-exception report, the thread's
 * exit, attaching the DestroyJavaVM thread, the shutdown hooks) and at the final write; the next allocation's
 * collection reclaims them. The program loses that much heap: 1/64 of it, between 256 KiB and 4 MiB.
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

    /** The reserve for a heap of {@code heapMax} bytes. */
    static int size(long heapMax) {
        long s = heapMax <= 0 || heapMax == Long.MAX_VALUE ? 4L << 20 : heapMax / 64;
        return (int) Math.max(256L << 10, Math.min(4L << 20, s));
    }

    static void hold(long heapMax) {
        try {
            reserve = new byte[size(heapMax)];
        } catch (Throwable ignored) {
            // no room even for this: the agent runs without a reserve
        }
    }

    /** Releases the reserve when a thread dies of OutOfMemoryError (see the class comment). */
    static void releaseOnUncaughtOutOfMemory() {
        final Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler(new Thread.UncaughtExceptionHandler() {
            @Override
            public void uncaughtException(Thread t, Throwable e) {
                if (e instanceof OutOfMemoryError) release();
                if (previous != null) {
                    previous.uncaughtException(t, e);
                } else if (!"java.lang.ThreadDeath".equals(e.getClass().getName())) {
                    // what java.lang.ThreadGroup prints when no default handler is set
                    System.err.print("Exception in thread \"" + t.getName() + "\" ");
                    e.printStackTrace(System.err);
                }
            }
        });
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
