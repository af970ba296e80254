package io.heaplens.runtime;

import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;

/**
 * The probes the instrumenter inserts call these static methods. Kept tiny so the JIT inlines them.
 * Profiled methods hold their MCT node in a local and pass it; code without a node (the JDK, excluded packages)
 * calls the {@code j*} variants, which charge the innermost profiled node of the calling thread.
 * Nothing here calls instrumented code, so the probes never re-enter themselves.
 */
public final class Recorder {
    /**
     * Paused: probes return at once. A method entered while paused gets the shared stand-in node, whose exit does
     * nothing, so the tree stays consistent across pause and resume.
     */
    public static volatile boolean paused;
    private static final Node PAUSED = new Node(Node.FOLD, null, null, 0, true);

    private Recorder() {}

    // ---- method call tree -------------------------------------------------------------------------------
    @ForceInline
    public static Node enter(int method) {
        if (paused) return PAUSED;
        return ThreadState.current().enter(method);
    }

    /** At every return and in the method-wide exception handler: the caller's node becomes current again. */
    @ForceInline
    public static void exit(Node n) {
        if (!n.fold) n.thread.current = n.parent;
    }

    // ---- allocations in profiled methods ------------------------------------------------------------------
    @ForceInline
    public static void obj(Node n, int key) {
        if (paused) return;
        if (n.fold) n = n.thread.current;
        n.record(key, 1, 0, 0);
    }

    @ForceInline
    public static void arr(int length, Node n, int key, int elementSize) {
        if (paused) return;
        if (n.fold) n = n.thread.current;
        n.record(key, 1, length, Layout.arrayBytes(length, elementSize));
    }

    public static void multi(Node n, int key, int d1, int d2) { multiDims(n, key, new int[] {d1, d2}); }

    public static void multi(Node n, int key, int d1, int d2, int d3) { multiDims(n, key, new int[] {d1, d2, d3}); }

    @DontInline
    public static void multiDims(Node n, int key, int[] dims) {
        if (paused) return;
        if (n == null) {
            ThreadState ts = ThreadState.current();
            if (ts.busy != 0) return;
            n = ts.current;
        } else if (n.fold) {
            n = n.thread.current;
        }
        long[][] levels = MultiArrays.levels(dims);
        for (int i = 0; i < levels.length; i++) {
            long arrays = levels[i][0];
            if (arrays == 0) break;                       // nothing allocated at this level or below
            int k = key + i;
            n.record(k, arrays, levels[i][1], arrays * Layout.arrayBytes(dims[i], Keys.elementSize(k)));
        }
    }

    /** A call-site allocation (array clone, reflective or Unsafe array, Object.clone): the type is known at run time. */
    @DontInline
    public static void dyn(Object o, Node n, int site) {
        if (paused) return;
        if (o == null) return;
        ThreadState ts;
        if (n == null) {
            ts = ThreadState.current();
            if (ts.busy != 0) return;
            n = ts.current;
        } else {
            ts = n.thread;
            if (n.fold) n = ts.current;
        }
        Class<?> c = o.getClass();
        int key = Keys.dynamic(site, c, ts);
        if (key < 0) return;
        if (c.isArray()) {
            int len = java.lang.reflect.Array.getLength(o);
            n.record(key, 1, len, Layout.arrayBytes(len, Keys.elementSize(key)));
        } else {
            n.record(key, 1, 0, 0);
        }
    }

    // ---- allocations in code without a node (JDK, excluded packages) -----------------------------------
    /** Before a two-dimensional multianewarray in code without a node (the streaming path has no temporaries). */
    public static void jmulti(int d1, int d2, int key) {
        if (paused) return;
        if (d1 < 0 || d2 < 0) return;                     // the allocation is about to fail
        multiDims(null, key, new int[] {d1, d2});
    }

    @ForceInline
    public static void jobj(int key) {
        if (paused) return;
        ThreadState ts = ThreadState.current();
        if (ts.busy == 0) ts.current.record(key, 1, 0, 0);
    }

    @ForceInline
    public static void jarr(int length, int key, int elementSize) {
        if (paused) return;
        ThreadState ts = ThreadState.current();
        if (ts.busy == 0) ts.current.record(key, 1, length, Layout.arrayBytes(length, elementSize));
    }
}
