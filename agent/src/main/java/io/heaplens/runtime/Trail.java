package io.heaplens.runtime;

/**
 * sampler=jvmti: a thread's last heap-sample trace, outermost frame first, with what each depth gave (its method, the
 * innermost frame outside the agent so far, the innermost profiled frame so far, the sampled tree's node). Consecutive
 * samples on a thread share most of their outer frames, so a new trace resolves and walks only the frames past the
 * shared ones; the result is the full walk's (TrailTest checks it against one). Kept in the thread's state, touched
 * only by its thread.
 */
final class Trail {
    /** (JVMTI method id, bytecode index) pairs, outermost first; {@link HeapSampler#fill} writes them. */
    long[] frames = new long[2 * 64];
    /** Frames of the last trace; depths below it are valid in the arrays below, except {@link #node} (see {@link #nodes}). */
    int length;
    private HeapSampler.Method[] method = new HeapSampler.Method[64];
    /** Per depth: the innermost frame outside the agent up to it (null: none) and its bytecode index (≥ 0). */
    private HeapSampler.Method[] top = new HeapSampler.Method[64];
    private int[] topBci = new int[64];
    /**
     * Per depth: the depth of the innermost profiled frame up to it, -1 when none. Its line is looked up only for the
     * trace's end ({@link #line()}): a line table is scanned, and doing it at every depth made a sample dearer.
     */
    private int[] profiled = new int[64];
    /**
     * Per depth: the sampled tree's node after the frames up to it. Walked only for samples that are kept (a dropped
     * sample leaves no node behind, as the full walk did), so valid below {@link #nodes} only.
     */
    private Node[] node = new Node[64];
    private int nodes;

    /** Room for a trace of {@code n} frames (the shared frames stay where they are). */
    void ensure(int n) {
        if (2 * n <= frames.length) return;
        int cap = Math.max(2 * method.length, n);
        frames = java.util.Arrays.copyOf(frames, 2 * cap);
        method = java.util.Arrays.copyOf(method, cap);
        top = java.util.Arrays.copyOf(top, cap);
        topBci = java.util.Arrays.copyOf(topBci, cap);
        profiled = java.util.Arrays.copyOf(profiled, cap);
        node = java.util.Arrays.copyOf(node, cap);
    }

    /**
     * A new trace of {@code n} frames is in {@link #frames}, of which the first {@code same} are the previous trace's:
     * resolves the others (methods, their ids in the tree through {@code f}).
     */
    void update(int n, int same, Sampler.Frames f) {
        if (same < nodes) nodes = same;
        for (int d = same; d < n; d++) {
            HeapSampler.Method m = HeapSampler.resolve(frames[2 * d]);
            int bci = (int) frames[2 * d + 1];
            method[d] = m;
            HeapSampler.Method t = d == 0 ? null : top[d - 1];
            int tb = d == 0 ? -1 : topBci[d - 1], p = d == 0 ? -1 : profiled[d - 1];
            if (!m.agent) {
                t = m;
                tb = Math.max(0, bci);       // a native method's frame has no index (-1)
                int id = m.id;
                if (id == Integer.MIN_VALUE) {
                    Class<?> holder = m.holder();
                    m.id = id = holder == null ? -1 : f.methodId(holder, m.className, m.name, m.descriptor);
                }
                if (id >= 0) p = d;
            }
            top[d] = t;
            topBci[d] = tb;
            profiled[d] = p;
        }
        length = n;
    }

    /** The innermost frame outside the agent of the last trace; null when it has none. */
    HeapSampler.Method top() { return length == 0 ? null : top[length - 1]; }

    int topBci() { return length == 0 ? -1 : topBci[length - 1]; }

    /** The line of the last trace's innermost profiled frame with a line (a frame without one gives way), -1 when none. */
    int line() {
        for (int d = length == 0 ? -1 : profiled[length - 1]; d >= 0; d = d == 0 ? -1 : profiled[d - 1]) {
            int at = method[d].line((int) frames[2 * d + 1]);
            if (at >= 0) return at;
        }
        return -1;
    }

    /** The node of the last trace in the tree under {@code root} (always the same root for a trail), made if new. */
    Node node(Node root) {
        Node n = nodes == 0 ? root : node[nodes - 1];
        for (int d = nodes; d < length; d++) {
            HeapSampler.Method m = method[d];
            if (!m.agent && m.id >= 0) n = n.child(m.id);
            node[d] = n;
        }
        nodes = length;
        return n;
    }
}
