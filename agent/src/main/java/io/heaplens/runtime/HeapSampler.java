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
    /** HotSpot's sample events so far, all threads, kept or dropped (what the rate budget counts). */
    private static native long events();
    /** A frame's method: {declaring class, name, descriptor, int[] (bytecode index, line) pairs}; null when gone. */
    private static native Object[] method(long jmethodId);
    /**
     * During {@link #sample}: this thread's trace into {@code trail} as (method id, bytecode index) pairs, outermost
     * first, keeping the first {@code had} pairs where the new trace shares them; returns how many it shared, -1 when
     * there is no trace or the trail holds fewer than 2 n longs.
     */
    static native int fill(long[] trail, int had);

    /** A method of a sample's calling trace, resolved once per JVMTI method id (HotSpot never reuses one). */
    static final class Method {
        /** The JVMTI method id. */
        final long jid;
        /** Weak: a cached method must not keep its class from unloading. */
        private final java.lang.ref.WeakReference<Class<?>> holder;
        final String className, name, descriptor;
        final int[] lines;
        final boolean agent;
        /** The profiled method's id in the sampled tree, -1 for frames it leaves out; resolved at first use. */
        volatile int id = Integer.MIN_VALUE;
        /** The record keys of the allocations this method makes: (bytecode index, object's class) → key. */
        private volatile Site[] sites = new Site[4];
        private int siteCount;

        Method(long jid, Class<?> holder, String name, String descriptor, int[] lines) {
            this.jid = jid;
            this.holder = holder == null ? null : new java.lang.ref.WeakReference<>(holder);
            this.className = holder == null ? "?" : holder.getName();
            this.name = name;
            this.descriptor = descriptor;
            this.lines = lines == null ? new int[0] : lines;
            this.agent = className.startsWith("io.heaplens.");
        }

        /** The declaring class; null when unknown or unloaded. */
        Class<?> holder() { return holder == null ? null : holder.get(); }

        /** The source line of a bytecode index: the table entry that starts last at or before it; -1 without one. */
        int line(int bci) {
            int best = -1, at = -1;
            for (int i = 0; i + 1 < lines.length; i += 2) {
                if (lines[i] <= bci && lines[i] > at) { at = lines[i]; best = lines[i + 1]; }
            }
            return best;
        }

        /** The record key of an allocation of {@code type} at {@code bci} in this method; MIN_VALUE when not yet known. */
        int siteKey(int bci, Class<?> type) {
            Site[] t = sites;
            int mask = t.length - 1;
            for (int i = Site.hash(bci, type) & mask; ; i = (i + 1) & mask) {
                Site e = t[i];
                if (e == null) return Integer.MIN_VALUE;
                if (e.bci == bci && e.type.get() == type) return e.key;
            }
        }

        /** Remembers a site's key (readers see a slot empty or filled with a whole entry: its fields are final). */
        synchronized void addSite(int bci, Class<?> type, int key) {
            if (siteKey(bci, type) != Integer.MIN_VALUE) return;
            Site[] t = sites;
            if (2 * (siteCount + 1) > t.length) {
                Site[] bigger = new Site[t.length * 2];
                for (Site e : t) if (e != null) Site.put(bigger, e);
                t = bigger;
            }
            Site.put(t, new Site(bci, type, key));
            siteCount++;
            sites = t;
        }
    }

    /** An allocation site's record key; the class weakly, so the cache does not keep it from unloading. */
    private static final class Site {
        final int bci, key, hash;
        final java.lang.ref.WeakReference<Class<?>> type;

        Site(int bci, Class<?> type, int key) {
            this.bci = bci;
            this.key = key;
            this.hash = hash(bci, type);
            this.type = new java.lang.ref.WeakReference<>(type);
        }

        static int hash(int bci, Class<?> type) { return (bci * 0x9E3779B9) ^ System.identityHashCode(type); }

        static void put(Site[] t, Site e) {
            int mask = t.length - 1, i = e.hash & mask;
            while (t[i] != null) i = (i + 1) & mask;
            t[i] = e;
        }
    }

    /**
     * Methods by JVMTI id: open addressing on the id, no boxing. Read without a lock (a slot is empty or holds a whole
     * Method, whose fields are final; a table that grows is published whole); written under the class's lock.
     */
    private static volatile Method[] methods = new Method[1024];
    private static int methodCount;

    private static int slot(long id, int mask) {
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    private static Method cached(long id) {
        Method[] t = methods;
        int mask = t.length - 1;
        for (int i = slot(id, mask); ; i = (i + 1) & mask) {
            Method m = t[i];
            if (m == null) return null;
            if (m.jid == id) return m;
        }
    }

    static Method resolve(long id) {
        Method m = cached(id);
        return m != null ? m : resolveSlow(id);
    }

    private static synchronized Method resolveSlow(long id) {
        Method m = cached(id);
        if (m != null) return m;
        Object[] d = method(id);
        m = d == null ? new Method(id, null, "?", "()V", null)        // gone: an unloaded class
            : new Method(id, (Class<?>) d[0], (String) d[1], (String) d[2], (int[]) d[3]);
        define(m);
        return m;
    }

    /** Adds a resolved method (tests add their own, so no native call is made for them). */
    static synchronized void define(Method m) {
        Method[] t = methods;
        if (2 * (methodCount + 1) > t.length) {
            Method[] bigger = new Method[t.length * 2];
            for (Method e : t) if (e != null) put(bigger, e);
            t = bigger;
        }
        put(t, m);
        methodCount++;
        methods = t;
    }

    private static void put(Method[] t, Method m) {
        int mask = t.length - 1, i = slot(m.jid, mask);
        while (t[i] != null) i = (i + 1) & mask;
        t[i] = m;
    }

    private static volatile boolean ready;
    /** Whether samples are taken (only in the sampled mode); null before the first call. */
    private static Boolean enabled;
    /** K in bytes, as set in HotSpot now (the rate budget may have raised it above {@link #baseBytes}). */
    public static volatile long meanBytes = 64 * 1024;
    /** K as configured (option sampleBytes), and the largest K set so far. */
    public static volatile long baseBytes = 64 * 1024, maxBytes = 64 * 1024;
    /** The rate budget in samples a second (agent option sampleRate); 0: K stays fixed. */
    public static volatile int rateBudget;
    /** Samples recorded, and dropped (the agent's own work, a thread without a Java caller, another mode). */
    public static volatile long samples, dropped;

    /**
     * Loads the native library (from this class, so its natives bind to this class's loader), gets a JVMTI
     * environment and sets the interval; {@link #follow} then turns the event on, in every mode (see there).
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
            meanBytes = baseBytes = maxBytes = bytes;
            ready = true;
            return null;
        } catch (Throwable t) {     // UnsatisfiedLinkError (wrong OS or arch, missing file), IllegalCallerException (native access denied)
            return String.valueOf(t);
        }
    }

    public static boolean ready() { return ready; }

    /** HotSpot's sample events so far; 0 before the library is ready. */
    public static long eventCount() { return ready ? events() : 0; }

    /**
     * Sets K for every thread (the rate budget's changes). Each sample is weighed with the K its thread's distance
     * was drawn with, which the native side keeps per thread, so a change never biases the estimates.
     * @return whether HotSpot took it
     */
    public static synchronized boolean setInterval(long bytes) {
        if (!ready) return false;
        int b = (int) Math.min(Integer.MAX_VALUE, Math.max(1, bytes));
        if (interval(b) != 0) return false;
        meanBytes = b;
        if (b > maxBytes) maxBytes = b;
        return true;
    }

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
     * {@code frames}: the length of its calling trace, which {@link #fill} hands over; {@code k}: the mean interval
     * HotSpot drew this thread's distance to it with, which sets its chance of being sampled.
     */
    static void sample(Object o, long size, int frames, long k) {
        ThreadState ts = ThreadState.current();
        // The agent's own work (its threads, a probe's or the collector's allocations) is not the program's; and a
        // switch turns the event off only after the mode has changed.
        if (ts.busy != 0 || Mode.current() != Mode.SAMPLED) {
            dropped++;
            return;
        }
        Sampler.heapSample(ts, o, size, frames, k);
        samples++;
    }
}
