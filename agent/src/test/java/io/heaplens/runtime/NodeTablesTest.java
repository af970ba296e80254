package io.heaplens.runtime;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shapes a node's tables take to keep nodes small (docs/benchmark.md "Round 10"): one child without a table, the
 * record count in a stride readers see as empty, and a fold node's allocations charged to the thread's current node.
 * Nodes here are detached (no parent, no thread's tree), so their made-up method ids never reach another test's walk.
 */
class NodeTablesTest {
    private static Node detached(int method) {
        return new Node(method, null, ThreadState.current(), 1);
    }

    /** The children a reader finds: the only child, or the table's non-null entries. */
    private static Map<Integer, Node> children(Node n) {
        Map<Integer, Node> out = new HashMap<>();
        Node only = n.onlyChild();
        if (only != null) out.put(only.method, only);
        Node[] tab = n.childrenSnapshot();
        if (tab != null) for (Node c : tab) if (c != null) out.put(c.method, c);
        return out;
    }

    @Test
    void aNodeWithOneChildHasNoTableAndTheSecondMakesOneWithBoth() {
        Node n = detached(4_000_001);
        assertNull(n.onlyChild());
        assertNull(n.childrenSnapshot());
        Node first = n.child(4_000_002);
        assertSame(first, n.onlyChild());
        assertNull(n.childrenSnapshot(), "one child: no table");
        assertSame(first, n.child(4_000_002));
        Node second = n.child(4_000_003);
        assertNull(n.onlyChild());
        assertNotNull(n.childrenSnapshot());
        assertEquals(Map.of(4_000_002, first, 4_000_003, second), children(n));
        assertSame(first, n.child(4_000_002));
        assertSame(second, n.child(4_000_003));
        assertNull(n.child(4_000_004, false), "a lookup that may not create finds nothing");
    }

    @Test
    void manyChildrenAreAllFoundAfterTheTableGrows() {
        Node n = detached(4_000_010);
        Map<Integer, Node> made = new HashMap<>();
        for (int m = 0; m < 300; m++) made.put(5_000_000 + m * 7, n.child(5_000_000 + m * 7));
        for (Map.Entry<Integer, Node> e : made.entrySet()) assertSame(e.getValue(), n.child(e.getKey()));
        assertEquals(made, children(n));
        for (int site = 1; site < 100; site++) n.cacheChild(site, made.get(5_000_000));   // sized by the count
    }

    /** Reads a table as the collector does: every stride whose key is not 0. */
    private static Map<Long, long[]> records(Node n) {
        Map<Long, long[]> out = new HashMap<>();
        long[] tab = n.recordsSnapshot();
        for (int b = 0; tab != null && b < tab.length; b += 4) {
            if (tab[b] != 0) out.put(tab[b] - 1, new long[] {tab[b + 1], tab[b + 2], tab[b + 3]});
        }
        return out;
    }

    @Test
    void recordsKeepTheirCountsThroughGrowthAndTheCountStrideIsInvisible() {
        Node n = detached(4_000_020);
        n.record(5, 1, 0, 0);
        assertEquals(1, records(n).size());
        for (int round = 0; round < 3; round++) {
            for (int k = 0; k < 500; k++) n.record(k * 3, 1, k, 8 * k);
            for (int k = 0; k < 500; k++) n.recordAt(k * 3, 7, 2, 0, 0);
        }
        Map<Long, long[]> r = records(n);
        assertEquals(1001, r.size(), "500 keys, the same 500 at call site 7, and key 5");
        assertArrayEquals(new long[] {3, 3 * 10, 3 * 80}, r.get(30L));
        assertArrayEquals(new long[] {6, 0, 0}, r.get(30L | 7L << 32));
        assertArrayEquals(new long[] {1, 0, 0}, r.get(5L));
        n.clear();
        for (long[] v : records(n).values()) assertArrayEquals(new long[] {0, 0, 0}, v);
        n.record(30, 1, 0, 0);
        n.record(100_000, 1, 0, 0);
        assertArrayEquals(new long[] {1, 0, 0}, records(n).get(30L));
        assertArrayEquals(new long[] {1, 0, 0}, records(n).get(100_000L), "a new key after a clear");
        assertEquals(1002, records(n).size());
    }

    /** Run on a thread of its own marked as the agent's (as FoldExitTest), so its tree is never walked by other tests. */
    @Test
    void aFoldNodesAllocationsAreChargedToTheCurrentNodeByItsCallSite() throws Throwable {
        Throwable[] failed = {null};
        Thread t = new Thread(() -> {
            ThreadState.current().agentThread = true;
            try { foldAndAllocate(); } catch (Throwable e) { failed[0] = e; }
        });
        t.start();
        t.join();
        if (failed[0] != null) throw failed[0];
    }

    private static void foldAndAllocate() {
        ThreadState ts = ThreadState.current();
        Node caller = Recorder.enter(4_000_030);
        caller.callSite = 3;
        Node fold = ts.foldNode;
        assertTrue(fold.isFold());
        Recorder.obj(fold, 11);
        Recorder.obj(fold, 11);
        Recorder.arr(10, fold, 12, 4);
        Map<Long, long[]> r = records(caller);
        assertArrayEquals(new long[] {2, 0, 0}, r.get(11L | 3L << 32));
        assertArrayEquals(new long[] {1, 10, Layout.arrayBytes(10, 4)}, r.get(12L | 3L << 32));
        assertEquals(0, records(fold).size(), "nothing is ever written into a fold node's table");
        ts.busy++;
        try {
            Recorder.obj(fold, 11);                      // the agent's own work: not recorded
        } finally {
            ts.busy--;
        }
        assertArrayEquals(new long[] {2, 0, 0}, records(caller).get(11L | 3L << 32));
        Recorder.exit(caller);
    }
}
