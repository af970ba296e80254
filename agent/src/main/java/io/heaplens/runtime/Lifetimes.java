package io.heaplens.runtime;

import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;

import java.lang.ref.ReferenceQueue;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The lifetime mode's probes (Pan 2001 (HUP)): object uses (get operations, Table 3/9), puts (Table 4), and the
 * byte clock. Identity lookups never loop over tracked objects (the drag-profiler report problem 3.1):
 * <ul>
 * <li>objects of profiled classes carry their record in a synthetic field ({@code $hl$rec}) that the
 *     instrumented code reads and hands to {@link #use(Object, long)}: an untracked object costs a field load and a
 *     null test;</li>
 * <li>arrays are looked up in an identity-keyed open-addressing table, behind a negative filter on the array's
 *     length: an untracked array whose length no tracked array has costs a length load and an array read.</li>
 * </ul>
 * Uses inside the object's own constructor are not seen (the record is attached when the constructor returns,
 * matching HUP's exclusion of the constructor invocation).
 */
public final class Lifetimes {
    /** Time: bytes allocated since the start (advanced by the allocation probes; racy, so approximate). */
    public static long clock;
    /** Every Nth object (on average; random intervals so periodic patterns are not aliased) is tracked. */
    public static volatile int sampleEvery = 1;
    /** Whether the classes were instrumented for this mode (it can only be chosen at launch). */
    public static volatile boolean instrumented;
    public static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();
    /** Estimates an object's size (Instrumentation.getObjectSize, set by the agent). */
    public interface Sizer { long sizeOf(Object o); }
    public static volatile Sizer sizer;

    private static int countdown = 1;
    private static long random = 0x9E3779B97F4A7C15L;
    private static final Object LOCK = new Object();
    /** Live records (not yet seen unreachable), a doubly linked list. */
    private static Life head;
    private static int live;
    public static long tracked, objectsSeen;

    /** Array identity table: open addressing on the identity hash; REMOVED marks deleted slots. */
    private static final Life REMOVED = new Life(null, -1, 0, 0, -1, 0, -1);
    private static volatile Life[] table = new Life[1024];
    private static int tableUsed;
    /** Negative filter: how many tracked arrays have each (length & 1023). */
    private static final int[] LENGTHS = new int[1024];

    private Lifetimes() {}

    // ---- the clock -------------------------------------------------------------------------------------------
    @ForceInline
    public static void tick(long bytes) {
        long c = clock + bytes;
        clock = c;
        if (c >= nextCheck) due();
    }

    /** Called by the thread whose allocation moves the clock past {@link #nextCheck} (the watcher's next GC point). */
    public interface Checkpoint { void due(); }
    public static volatile Checkpoint checkpoint;
    /** The clock at which the watcher wants to be called (it may force a GC for precision); set by the watcher. */
    public static long nextCheck = Long.MAX_VALUE;

    @DontInline
    private static void due() {
        ThreadState ts = ThreadState.current();
        if (ts.busy != 0) return;
        nextCheck = Long.MAX_VALUE;                        // one caller at a time; the watcher sets the next point
        Checkpoint cp = checkpoint;
        if (cp == null) return;
        ts.busy++;
        try {
            cp.due();
        } catch (Throwable t) {
            // a probe never throws into the program
        } finally {
            ts.busy--;
        }
    }

    // ---- allocation ------------------------------------------------------------------------------------------
    /** After a profiled class's constructor returned: the record to store in the object's field, or null. */
    @ForceInline
    public static Object born(Object o, int key) {
        if (--countdown > 0) return null;
        return sample(o, key, false);
    }

    /** After an array allocation in profiled code. */
    @ForceInline
    public static void bornArray(Object a, int key) {
        if (--countdown > 0) return;
        sample(a, key, true);
    }

    @DontInline
    private static Life sample(Object o, int key, boolean array) {
        countdown = nextInterval();
        if (o == null || Mode.current() != Mode.LIFETIME) return null;
        ThreadState ts = ThreadState.current();
        if (ts.busy != 0) return null;
        ts.busy++;
        try {
            Sizer s = sizer;
            long size = s != null ? s.sizeOf(o) : 16;
            int trace = trace();
            int hash = array ? System.identityHashCode(o) : 0;
            Life l = new Life(o, key, size, clock, trace, hash, array ? length(o) : -1);
            synchronized (LOCK) {
                l.next = head;
                if (head != null) head.prev = l;
                head = l;
                live++;
                tracked++;
                if (array) tableAdd(l);
            }
            return l;
        } catch (Throwable t) {
            return null;                                   // a probe never throws into the program
        } finally {
            ts.busy--;
        }
    }

    private static int nextInterval() {
        int n = sampleEvery;
        if (n <= 1) return 1;
        long x = random;                                   // xorshift64*: intervals uniform in [1, 2N-1], mean N
        x ^= x >>> 12; x ^= x << 25; x ^= x >>> 27;
        random = x;
        return 1 + (int) (((x * 0x2545F4914F6CDD1DL) >>> 33) % (2L * n - 1));
    }

    // ---- uses and puts on objects of profiled classes (the record comes from the object's field) --------------
    @ForceInline
    public static void use(Object rec, long site) { if (rec != null) ((Life) rec).use(site); }

    @ForceInline
    public static void put(Object rec, long site) { if (rec != null) ((Life) rec).put(site); }

    /**
     * A get operation on an operand of any type (checkcast, instanceof, monitorenter/exit, athrow): a tracked
     * object's record, or a tracked array; null and untracked objects are no use of anything.
     */
    @ForceInline
    public static void useAny(Object o, long site) {
        if (o instanceof Tracked) use(((Tracked) o).$hl$rec(), site);
        else if (o != null) arrayUse(o, site);
    }

    // ---- arrays ----------------------------------------------------------------------------------------------
    @ForceInline
    public static void arrayUse(Object a, long site) {
        int n = length(a);
        if (n >= 0 && LENGTHS[n & 1023] != 0) lookupUse(a, site, true);
    }

    @ForceInline
    public static void arrayPut(Object a, long site) {
        int n = length(a);
        if (n >= 0 && LENGTHS[n & 1023] != 0) lookupUse(a, site, false);
    }

    /** The length of any array (-1 for null), with the common types first: the JIT's type profile keeps one. */
    @ForceInline
    static int length(Object a) {
        if (a instanceof Object[]) return ((Object[]) a).length;
        if (a instanceof char[]) return ((char[]) a).length;
        if (a instanceof byte[]) return ((byte[]) a).length;
        if (a instanceof int[]) return ((int[]) a).length;
        if (a instanceof long[]) return ((long[]) a).length;
        if (a instanceof double[]) return ((double[]) a).length;
        if (a instanceof float[]) return ((float[]) a).length;
        if (a instanceof short[]) return ((short[]) a).length;
        if (a instanceof boolean[]) return ((boolean[]) a).length;
        return -1;
    }

    @DontInline
    private static void lookupUse(Object a, long site, boolean use) {
        Life l = find(a);
        if (l == null) return;
        if (use) l.use(site); else l.put(site);
    }

    private static Life find(Object a) {
        int h = System.identityHashCode(a);
        Life[] t = table;
        int mask = t.length - 1;
        for (int i = mix(h) & mask, probes = 0; probes < t.length; i = (i + 1) & mask, probes++) {
            Life l = t[i];
            if (l == null) return null;
            if (l != REMOVED && l.hash == h && l.get() == a) return l;
        }
        return null;
    }

    private static int mix(int h) { return (h * 0x9E3779B9) >>> 7; }

    private static void tableAdd(Life l) {               // under LOCK
        if ((tableUsed + 1) * 2 > table.length) rehash(table.length * 2);
        Life[] t = table;
        int mask = t.length - 1;
        int i = mix(l.hash) & mask;
        while (t[i] != null && t[i] != REMOVED) i = (i + 1) & mask;
        if (t[i] == null) tableUsed++;
        t[i] = l;
        LENGTHS[l.length & 1023]++;
    }

    private static void rehash(int size) {
        Life[] old = table, t = new Life[size];
        int used = 0;
        for (Life l : old) {
            if (l == null || l == REMOVED) continue;
            int i = mix(l.hash) & (size - 1);
            while (t[i] != null) i = (i + 1) & (size - 1);
            t[i] = l;
            used++;
        }
        tableUsed = used;
        table = t;
    }

    // ---- the watcher's side -------------------------------------------------------------------------------------
    /** Takes a record out of the live set (it was seen unreachable, or the program ends). */
    public static void retire(Life l) {
        synchronized (LOCK) {
            if (l.prev == null && l.next == null && head != l) return;    // already retired
            if (l.prev != null) l.prev.next = l.next; else head = l.next;
            if (l.next != null) l.next.prev = l.prev;
            l.prev = l.next = null;
            live--;
            if (l.array) {
                Life[] t = table;
                for (int i = mix(l.hash) & (t.length - 1), n = 0; t[i] != null && n < t.length; i = (i + 1) & (t.length - 1), n++) {
                    if (t[i] == l) {
                        t[i] = REMOVED;
                        LENGTHS[l.length & 1023]--;
                        break;
                    }
                }
            }
        }
    }

    /** The records still live, newest first. */
    public static Life[] liveRecords() {
        synchronized (LOCK) {
            Life[] out = new Life[live];
            int i = 0;
            for (Life l = head; l != null && i < out.length; l = l.next) out[i++] = l;
            return out;
        }
    }

    public static int liveCount() { synchronized (LOCK) { return live; } }

    /** Every live record is known reachable at this clock (a full GC it survived just completed). */
    /** After a forced GC that started at clock {@code at}: survivors were reachable then, the cleared ones were not. */
    public static void markReachable(long at) {
        synchronized (LOCK) {
            for (Life l = head; l != null; l = l.next) {
                if (l.get() != null) l.knownReachable = at;
                else if (l.seenCleared < 0) l.seenCleared = at;
            }
        }
    }

    // ---- traces -----------------------------------------------------------------------------------------------
    /** Class references retained: JDK 22+ gives frame descriptors only then. */
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final java.util.HashMap<Trace, Integer> TRACE_IDS = new java.util.HashMap<>();
    private static final java.util.ArrayList<long[]> TRACES = new java.util.ArrayList<>();

    private static final class Trace {
        final long[] frames;
        final int hash;
        Trace(long[] f) { frames = f; hash = java.util.Arrays.hashCode(f); }
        @Override public int hashCode() { return hash; }
        @Override public boolean equals(Object o) { return o instanceof Trace && java.util.Arrays.equals(frames, ((Trace) o).frames); }
    }

    /** The current calling trace (profiled frames, innermost first, each method id << 32 | line) as an id; -1 when none. */
    static int trace() {
        Sampler.Frames f = Sampler.frames;
        if (f == null) return -1;
        ThreadState ts = ThreadState.current();
        ts.busy++;
        try {
            long[] frames = WALKER.walk(new Walk(f));
            synchronized (TRACE_IDS) {
                Trace k = new Trace(frames);
                Integer id = TRACE_IDS.get(k);
                if (id == null) {
                    id = TRACES.size();
                    TRACES.add(frames);
                    TRACE_IDS.put(k, id);
                }
                return id;
            }
        } catch (Throwable t) {
            if (System.getProperty("heaplens.debug") != null) t.printStackTrace();
            return -1;
        } finally {
            ts.busy--;
        }
    }

    public static long[][] traces() {
        synchronized (TRACE_IDS) { return TRACES.toArray(new long[0][]); }
    }

    private static final class Walk implements Function<Stream<StackWalker.StackFrame>, long[]> {
        private final Sampler.Frames frames;
        Walk(Sampler.Frames frames) { this.frames = frames; }

        @Override
        public long[] apply(Stream<StackWalker.StackFrame> s) {
            long[] out = new long[16];
            int n = 0;
            java.util.Iterator<StackWalker.StackFrame> it = s.iterator();
            while (it.hasNext() && n < 256) {
                StackWalker.StackFrame fr = it.next();
                if (fr.getClassName().startsWith("io.heaplens.")) continue;
                int m = frames.methodId(fr.getClassName(), fr.getMethodName(), fr.getDescriptor());
                if (m < 0) continue;
                if (n == out.length) out = java.util.Arrays.copyOf(out, n * 2);
                out[n++] = ((long) m << 32) | (fr.getLineNumber() & 0xFFFFFFFFL);
            }
            return java.util.Arrays.copyOf(out, n);
        }
    }
}
