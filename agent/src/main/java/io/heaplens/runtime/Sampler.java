package io.heaplens.runtime;

import jdk.internal.vm.annotation.DontInline;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Calling traces for the sites and sampled modes. The sampled mode puts sample points on the thread's allocated
 * bytes as a Poisson process of mean spacing K (exponential intervals, as JEP 331, so periodic allocation
 * patterns are not aliased); an allocation that holds n points is sampled once, standing for n × K bytes.
 * That estimate is unbiased for every allocation size, with relative standard deviation √(K / B) for B bytes.
 * (Weighting a sample by the bytes since the previous one, as JEP 331 does, lets an allocation much larger
 * than K take the weight of the small objects before it: the benchmark measured luindex's small types 16–59 %
 * low that way.) Traces keep only the frames the exact mode would show (profiled methods and boundary
 * frames), so the trees look alike in every mode. A record is kept apart by the line of the innermost profiled frame
 * (as the exact mode keeps it by call site): the line that asked for the allocation.
 */
public final class Sampler {
    /** Maps a stack frame to a profiled method's id, or -1 to leave the frame out (implemented by the agent). */
    public interface Frames {
        int methodId(String className, String methodName, String descriptor);
        /** By name alone (the first profiled overload): for stacks walked while a class is being loaded. */
        int methodIdByName(String className, String methodName);

        /** The same, with the frame's class at hand (sampler=jvmti registers profiled classes no one transformed). */
        default int methodId(Class<?> cls, String className, String methodName, String descriptor) {
            return methodId(className, methodName, descriptor);
        }

        default int methodIdByName(Class<?> cls, String className, String methodName) {
            return methodIdByName(className, methodName);
        }
    }

    public static volatile Frames frames;

    /** Maps the frame that allocated a heap sample and the object's class to a record key (implemented by the agent). */
    public interface Sites {
        /** Returns -1 to drop the sample. */
        int key(String className, String methodName, String descriptor, int bci, int line, Class<?> type);
    }

    public static volatile Sites sites;
    public static volatile long meanBytes = 512 * 1024;
    /** Traces that could not be taken (their allocations were recorded at the tree's root). */
    public static long lostTraces;
    /** Why the first trace was lost (for the profile's agent section). */
    public static volatile String firstLoss;
    public static final int MAX_FRAMES = 1024;
    /** Frames are matched by descriptor, which JDK 25's walker gives only with class references retained. */
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private Sampler() {}

    static long nextInterval(ThreadState ts) {
        long x = ts.random;                  // xorshift64*
        x ^= x >>> 12; x ^= x << 25; x ^= x >>> 27;
        ts.random = x;
        double u = ((x * 0x2545F4914F6CDD1DL) >>> 11) * 0x1.0p-53;
        long v = (long) (-Math.log(1.0 - u) * meanBytes);
        return Math.max(1, v);
    }

    /**
     * Sites mode: a trace for the 1st, 2nd, 4th, … 16384th allocation of a site on a thread, then every 16384th.
     * Each trace walks the stack and looks its frames up: on h2 the walks (and the JIT compiling the walker) were
     * about half of what sites mode added, every 1024th allocation of the hot sites most of them (docs/benchmark.md
     * "Round 10"). The counts do not depend on this: every allocation is counted.
     */
    static final long TRACE_EVERY = 16384;

    static boolean wantsTrace(long n) {
        return n <= TRACE_EVERY ? (n & (n - 1)) == 0 : (n & (TRACE_EVERY - 1)) == 0;
    }

    @DontInline
    static void siteTrace(ThreadState ts, int key) {
        capture(ts, ts.siteTraces, key, 1, 0, 0);
    }

    /** Sampled mode: counts the allocation down; takes a sample when the interval is used up. */
    static void allocate(ThreadState ts, int key, long bytes, long elements) {
        long left = ts.sampleLeft - bytes;
        ts.sampleLeft = left;
        if (left <= 0) take(ts, key, bytes, elements);
    }

    @DontInline
    private static void take(ThreadState ts, int key, long bytes, long elements) {
        long points = 0;                 // sample points inside this allocation: at least the one that ended here
        long left = ts.sampleLeft;
        while (left <= 0) {
            points++;
            left += nextInterval(ts);
        }
        ts.sampleInterval = ts.sampleLeft = left;
        long weight = points * meanBytes;                      // each point stands for K bytes on average
        double scale = (double) weight / Math.max(1, bytes);   // objects (and elements) this sample stands for
        capture(ts, ts.sampled, key, round(ts, scale), round(ts, elements * scale), weight);
    }

    /**
     * The chance that HotSpot's heap sampler (JEP 331) reports an allocation of {@code size} bytes when its sample
     * points have mean spacing {@code k}: 1 − e^(−s/K). Each allocation is sampled independently with this chance
     * (docs/modes.md "sampler=jvmti"), so a sample stands for 1 / p allocations (Horvitz-Thompson).
     */
    public static double inclusion(long size, long k) {
        return -Math.expm1(-(double) Math.max(1, size) / Math.max(1, k));
    }

    /** Horvitz-Thompson's variance contribution of one sample of weight 1 / p, per unit of its value squared. */
    public static double varianceFactor(double p) {
        return (1 - p) / (p * p);
    }

    /**
     * sampler=jvmti: the object HotSpot sampled on this thread, {@code size} bytes, with a calling trace of {@code depth}
     * frames, which {@link HeapSampler#fill} hands over. The site is the innermost frame outside the agent and its
     * bytecode index; the path keeps the profiled frames, as the probe sampler's walk does; the object stands for 1 / p
     * objects of its size (arrays: of its length), rounded stochastically, p set by {@code k}, the mean interval its
     * distance was drawn with; the per-type variances go to {@link Estimates}.
     */
    static void heapSample(ThreadState ts, Object o, long size, int depth, long k) {
        Frames f = frames;
        Sites s = sites;
        if (f == null || s == null) return;
        ts.busy++;                      // the look-ups allocate: none of it is the program's
        try {
            Trail trail = ts.trail;
            if (trail == null) ts.trail = trail = new Trail();
            int n = Math.min(depth, MAX_FRAMES);
            trail.ensure(n);
            int same = HeapSampler.fill(trail.frames, trail.length);
            if (same < 0) {                                   // no trace: forget the trail, drop the sample
                trail.update(0, 0, f);
                HeapSampler.dropped++;
                return;
            }
            trail.update(n, same, f);
            heapRecord(ts, trail, o, size, k, s);
        } finally {
            ts.busy--;
        }
    }

    /** The sample whose trace {@code trail} holds: its site's key, its node, its weights. */
    private static void heapRecord(ThreadState ts, Trail trail, Object o, long size, long k, Sites s) {
        HeapSampler.Method top = trail.top();
        if (top == null) {                                   // no Java frame at all: nothing to charge it to
            HeapSampler.dropped++;
            return;
        }
        int topBci = trail.topBci();
        Class<?> type = o.getClass();
        int key = top.siteKey(topBci, type);
        if (key == Integer.MIN_VALUE) {
            key = s.key(top.className, top.name, top.descriptor, topBci, top.line(topBci), type);
            top.addSite(topBci, type, key);
        }
        if (key < 0) {
            HeapSampler.dropped++;
            return;
        }
        long length = type.isArray() ? java.lang.reflect.Array.getLength(o) : 0;
        double p = inclusion(size, k);
        double w = 1 / p;
        long count = round(ts, w);
        long bytes = round(ts, size * w);
        Node node = trail.node(ts.sampled);
        node.recordAt(key, Math.max(0, trail.line()), count, count * length, bytes);
        double frac = w - Math.floor(w);
        double v = varianceFactor(p);
        Estimates.add(Keys.type(key), count, v + frac * (1 - frac), bytes, (double) size * size * v);
    }

    /** Unbiased stochastic rounding. */
    private static long round(ThreadState ts, double v) {
        long whole = (long) v;
        double frac = v - whole;
        if (frac > 0) {
            long x = ts.random;
            x ^= x >>> 12; x ^= x << 25; x ^= x >>> 27;
            ts.random = x;
            if (((x * 0x2545F4914F6CDD1DL) >>> 11) * 0x1.0p-53 < frac) whole++;
        }
        return whole;
    }

    private static void capture(ThreadState ts, Node tree, int key, long count, long elements, long bytes) {
        Frames f = frames;
        if (f == null) return;
        ts.busy++;                      // walking the stack runs JDK code: keep it out of the profile
        try {
            Collect walk = new Collect(f);
            int[] path = WALKER.walk(walk);
            Node n = tree;
            for (int i = path.length - 1; i >= 0; i--) {
                if (path[i] < 0) continue;
                n = n.child(path[i]);
            }
            n.recordAt(key, Math.max(0, walk.line), count, elements, bytes);
        } catch (Throwable t) {
            // A probe must never throw into the program. The stack cannot be walked everywhere (e.g. a thread
            // the JVM builds while it starts, with no Java caller): the allocation still counts, without a trace.
            tree.record(key, count, elements, bytes);
            if (lostTraces++ == 0) firstLoss = String.valueOf(t);
        } finally {
            ts.busy--;
        }
    }

    /**
     * Adds one sample taken elsewhere (the JFR sampler's consumer thread, which is the only writer of the sampled
     * trees in that configuration) to a thread's sampled tree; {@code path} is innermost first, -1 frames skipped;
     * {@code line}: the line of the innermost profiled frame, 0 when unknown.
     */
    public static void record(ThreadState ts, int[] path, int frames, int line, int key, long count, long elements, long bytes) {
        Node n = ts.sampled;
        for (int i = frames - 1; i >= 0; i--) {
            if (path[i] < 0) continue;
            n = n.child(path[i]);
        }
        n.recordAt(key, line, count, elements, bytes);
    }

    /** Innermost first; frames that are not profiled are -1. */
    private static final class Collect implements Function<Stream<StackWalker.StackFrame>, int[]> {
        private final Frames frames;
        /** The source line of the innermost profiled frame (the line that asked for the allocation), or -1. */
        int line = -1;

        Collect(Frames frames) { this.frames = frames; }

        /**
         * A frame's descriptor resolves its parameter and return types, which loads classes. While this thread is
         * loading a class (a loader frame on the stack), that could load the very class being defined, and the
         * outer definition then fails with "duplicate class definition" (luindex on JDK 25 under -Xverify:all did):
         * on such stacks, frames are matched by class and method name only.
         */
        @Override
        public int[] apply(Stream<StackWalker.StackFrame> s) {
            StackWalker.StackFrame[] seen = new StackWalker.StackFrame[16];
            int n = 0;
            boolean loading = false;
            java.util.Iterator<StackWalker.StackFrame> it = s.iterator();   // no lambdas: no linkage on a probe's path
            while (it.hasNext() && n < MAX_FRAMES) {
                StackWalker.StackFrame fr = it.next();
                if (n == seen.length) seen = java.util.Arrays.copyOf(seen, n * 2);
                seen[n++] = fr;
                if (!loading && isLoading(fr.getMethodName())) loading = true;
            }
            int[] out = new int[n];
            for (int i = 0; i < n; i++) {
                StackWalker.StackFrame fr = seen[i];
                String c = fr.getClassName();
                out[i] = c.startsWith("io.heaplens.") ? -1
                    : loading ? frames.methodIdByName(fr.getDeclaringClass(), c, fr.getMethodName())
                    : frames.methodId(fr.getDeclaringClass(), c, fr.getMethodName(), fr.getDescriptor());
                if (line < 0 && out[i] >= 0) line = fr.getLineNumber();
            }
            return out;
        }

        /** ClassLoader.loadClass/findClass/defineClass and the like, in the JDK's loaders and custom ones. */
        static boolean isLoading(String method) {
            return method.startsWith("loadClass") || method.startsWith("defineClass") || method.startsWith("findClass")
                || method.equals("findBootstrapClassOrNull") || method.equals("findLoadedClass");
        }
    }
}
