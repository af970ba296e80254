package io.heaplens.runtime;

/**
 * The sampled mode fed by HotSpot's heap sampler (JEP 331; agent option sampler=jvmti, docs/modes.md). HotSpot puts
 * sample points on each thread's allocated bytes at exponentially distributed intervals of mean K and reports the
 * object that holds one through JVMTI's SampledObjectAlloc event; the native library (agent/src/main/c) calls
 * {@link #sample} on the allocating thread. No class is instrumented for this mode, and between samples it costs
 * nothing. A sample of s bytes stands for 1 / p allocations of its size, p = 1 − e^(−s/K): each allocation is sampled
 * independently with that chance (the argument is in docs/modes.md), so the estimate is Horvitz-Thompson's.
 */
public final class HeapSampler {
    private HeapSampler() {}

    /** 0 when ready, else a negative number or JVMTI error code (the native side's comment says which). */
    private static native int init();
    private static native int interval(int bytes);
    private static native int enable(boolean on);
    /** A frame's method: {declaring class, name, descriptor, int[] (bytecode index, line) pairs}; null when gone. */
    private static native Object[] method(long jmethodId);

    /** A method of a sample's calling trace, resolved once per JVMTI method id (HotSpot never reuses one). */
    static final class Method {
        final Class<?> holder;
        final String className, name, descriptor;
        final int[] lines;
        final boolean agent;
        /** The profiled method's id in the sampled tree, -1 for frames it leaves out; resolved at first use. */
        volatile int id = Integer.MIN_VALUE;

        Method(Class<?> holder, String name, String descriptor, int[] lines) {
            this.holder = holder;
            this.className = holder == null ? "?" : holder.getName();
            this.name = name;
            this.descriptor = descriptor;
            this.lines = lines == null ? new int[0] : lines;
            this.agent = className.startsWith("io.heaplens.");
        }

        /** The source line of a bytecode index: the table entry that starts last at or before it; -1 without one. */
        int line(int bci) {
            int best = -1, at = -1;
            for (int i = 0; i + 1 < lines.length; i += 2) {
                if (lines[i] <= bci && lines[i] > at) { at = lines[i]; best = lines[i + 1]; }
            }
            return best;
        }
    }

    private static final java.util.concurrent.ConcurrentHashMap<Long, Method> METHODS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Method GONE = new Method(null, "?", "()V", null);

    static Method resolve(long id) {
        Method m = METHODS.get(id);
        if (m != null) return m;
        Object[] d = method(id);
        m = d == null ? GONE : new Method((Class<?>) d[0], (String) d[1], (String) d[2], (int[]) d[3]);
        METHODS.put(id, m);
        return m;
    }

    private static volatile boolean ready;
    /** Whether samples are taken (only in the sampled mode); null before the first call. */
    private static Boolean enabled;
    /** K in bytes, as set in HotSpot. */
    public static volatile long meanBytes = 64 * 1024;
    /** Samples recorded, and dropped (the agent's own work, a thread without a Java caller, another mode). */
    public static volatile long samples, dropped;

    /**
     * Loads the native library (from this class, so its natives bind to this class's loader), gets a JVMTI
     * environment and sets the interval; the event stays off until {@link #follow} turns it on.
     * @return null when ready, else why not
     */
    public static synchronized String load(String library, long bytes) {
        try {
            System.load(library);
            int e = init();
            if (e == -1) return "this JVM offers no JVMTI 11 environment (JEP 331's heap sampling needs JDK 11+)";
            if (e != 0) return "JVMTI refused heap sampling (error " + e + (e == 99 ? ": not available in this JVM" : "") + ")";
            e = interval((int) Math.min(Integer.MAX_VALUE, Math.max(1, bytes)));
            if (e != 0) return "JVMTI refused the sampling interval " + bytes + " (error " + e + ")";
            meanBytes = bytes;
            ready = true;
            return null;
        } catch (Throwable t) {     // UnsatisfiedLinkError (wrong OS or arch, missing file), IllegalCallerException (native access denied)
            return String.valueOf(t);
        }
    }

    public static boolean ready() { return ready; }

    /**
     * Samples are taken exactly while the mode is sampled. HotSpot's event is turned on at the start, whatever the mode,
     * and stays on: turned on later, it would miss each thread's allocations until that thread's next TLAB refill
     * (docs/modes.md "sampler=jvmti"); in the other modes the native callback returns at once.
     */
    public static synchronized void follow(int mode) {
        if (!ready) return;
        boolean on = mode == Mode.SAMPLED;
        if (enabled != null && on == enabled) return;
        if (enable(on) == 0) enabled = on;
    }
    /**
     * The JVM's upcall, on the allocating thread, for an object of {@code size} bytes that holds a sample point;
     * {@code trace}: its calling trace as (JVMTI method id, bytecode index) pairs, innermost first.
     */
    static void sample(Object o, long size, long[] trace) {
        ThreadState ts = ThreadState.current();
        // The agent's own work (its threads, a probe's or the collector's allocations) is not the program's; and a
        // switch turns the event off only after the mode has changed.
        if (ts.busy != 0 || Mode.current() != Mode.SAMPLED) {
            dropped++;
            return;
        }
        Sampler.heapSample(ts, o, size, trace);
        samples++;
    }
}
