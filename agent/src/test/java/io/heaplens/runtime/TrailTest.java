package io.heaplens.runtime;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A trail that resolves and walks only the frames past those the previous trace shares gives, sample after sample,
 * what a full walk of each trace gives: the same site frame and index, line and node, and in the end the same tree
 * (no node for a dropped sample). Traces come from a random stack of made-up methods: profiled ones, with and without
 * line tables, frames the tree leaves out, the agent's own frames.
 */
class TrailTest {
    private static final int METHODS = 12;

    /** Method i: 0–3 the agent's, 4–6 not profiled, 7–11 profiled (11 without a line table). */
    private static HeapSampler.Method[] methods() {
        HeapSampler.Method[] ms = new HeapSampler.Method[METHODS];
        for (int i = 0; i < METHODS; i++) {
            Class<?> holder = i < 4 ? Sampler.class : String.class;
            int[] lines = i == 11 ? null : new int[] {0, 100 * i, 5, 100 * i + 1, 9, 100 * i + 2};
            ms[i] = new HeapSampler.Method(0x7E57_0000L + i, holder, (i >= 7 ? "p" : "n") + i, "()V", lines);
            HeapSampler.define(ms[i]);
        }
        return ms;
    }

    private static final Sampler.Frames FRAMES = new Sampler.Frames() {
        @Override public int methodId(String c, String m, String d) { return m.startsWith("p") ? 1000 + Integer.parseInt(m.substring(1)) : -1; }
        @Override public int methodIdByName(String c, String m) { return methodId(c, m, null); }
    };

    /** The full walk, as heapSample did it before the trail: {top method index, top bci, line} and the node. */
    private static Object[] fullWalk(long[] outerFirst, int n, Node root, boolean keep) {
        HeapSampler.Method top = null;
        int topBci = -1, line = -1;
        int[] path = new int[n];
        for (int i = 0; i < n; i++) {               // innermost first
            int d = n - 1 - i;
            HeapSampler.Method m = HeapSampler.resolve(outerFirst[2 * d]);
            int bci = (int) outerFirst[2 * d + 1];
            if (m.agent) { path[i] = -1; continue; }
            if (top == null) { top = m; topBci = Math.max(0, bci); }
            int id = m.id;
            if (id == Integer.MIN_VALUE) m.id = id = FRAMES.methodId(m.holder(), m.className, m.name, m.descriptor);
            path[i] = id;
            if (line < 0 && id >= 0) line = m.line(bci);
        }
        Node node = null;
        if (keep) {
            node = root;
            for (int i = n - 1; i >= 0; i--) if (path[i] >= 0) node = node.child(path[i]);
        }
        return new Object[] {top, topBci, line, node};
    }

    /** What HeapSampler.fill does in C: the pairs shared from the outer end, then the rest copied. */
    private static int fill(long[] trail, int had, long[] trace, int n) {
        int d = 0;
        while (d < had && d < n && trail[2 * d] == trace[2 * d] && trail[2 * d + 1] == trace[2 * d + 1]) d++;
        System.arraycopy(trace, 2 * d, trail, 2 * d, 2 * (n - d));
        return d;
    }

    private static List<Integer> path(Node n) {
        List<Integer> ids = new ArrayList<>();
        for (; n != null; n = n.parent) ids.add(n.method);
        return ids;
    }

    private static String shape(Node n) {
        StringBuilder b = new StringBuilder().append(n.method).append('(');
        List<String> kids = new ArrayList<>();
        Node[] cs = n.childrenSnapshot();
        if (cs != null) { for (Node c : cs) if (c != null) kids.add(shape(c)); }
        else if (n.onlyChild() != null) kids.add(shape(n.onlyChild()));
        kids.sort(null);
        return b.append(String.join(",", kids)).append(')').toString();
    }

    @Test
    void sharedFramesGiveWhatTheFullWalkGives() {
        HeapSampler.Method[] ms = methods();
        ThreadState ts = ThreadState.current();
        Node fullRoot = new Node(Node.ROOT, null, ts, 0), trailRoot = new Node(Node.ROOT, null, ts, 0);
        Trail trail = new Trail();
        SplittableRandom r = new SplittableRandom(18);
        long[] stack = new long[2 * 300];
        int depth = 0, shared = 0, samples = 0;
        for (int step = 0; step < 200_000; step++) {
            int op = r.nextInt(10);
            if ((op < 4 || depth == 0) && depth < 300) {     // a call
                stack[2 * depth] = ms[r.nextInt(METHODS)].jid;
                stack[2 * depth + 1] = r.nextInt(4) == 0 ? -1 : r.nextInt(12);   // -1: a native frame
                depth++;
            } else if (op < 8) {
                depth--;                                     // a return
            } else {
                if (depth > 0 && r.nextBoolean()) stack[2 * depth - 1] = r.nextInt(12);   // the innermost frame moved on
                boolean keep = r.nextInt(5) != 0;            // a sample whose site is dropped leaves no node
                trail.ensure(depth);
                int same = fill(trail.frames, trail.length, stack, depth);
                shared += same;
                trail.update(depth, same, FRAMES);
                Object[] want = fullWalk(stack, depth, fullRoot, keep);
                String at = "sample " + samples + " (" + depth + " frames, " + same + " shared)";
                assertSame(want[0], trail.top(), at);
                assertEquals(want[1], trail.topBci(), at);
                assertEquals(want[2], trail.line(), at);
                if (keep) assertEquals(path((Node) want[3]), path(trail.node(trailRoot)), at);
                samples++;
            }
        }
        assertEquals(shape(fullRoot), shape(trailRoot));
        assertTrue(samples > 15_000, samples + " samples");
        assertTrue(shared > samples * 10L, "the traces share frames: " + shared + " over " + samples + " samples");
    }
}
