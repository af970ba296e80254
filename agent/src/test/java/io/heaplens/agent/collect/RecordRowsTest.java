package io.heaplens.agent.collect;

import io.heaplens.agent.core.Registry;
import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Node;
import io.heaplens.runtime.Recorder;
import io.heaplens.runtime.ThreadState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * JDK allocations (the probes of code without a node) are kept apart by the call site the innermost profiled frame is
 * inside, and written as rows with that call's line and callee; call sites on one line with one callee merge.
 */
class RecordRowsTest {
    @Test
    void jdkAllocationsLandOnTheLineOfTheCallTheyWereMadeInside() throws Exception {
        Registry registry = new Registry();
        Keys.resolver = registry;
        Registry.MethodInfo caller = registry.method("t/Caller", "run", "()V");
        Registry.MethodInfo split = registry.method("java/lang/String", "split", "(Ljava/lang/String;)[Ljava/lang/String;");
        Registry.MethodInfo trim = registry.method("java/lang/String", "trim", "()Ljava/lang/String;");
        caller.profiled = true;
        caller.callLines = new int[] {10, 12, 12, 13};
        caller.callees = new int[] {trim.id, split.id, split.id, -1};
        int jdkKey = registry.singleKey(registry.site(split.id, 4, 3124, "new", "Ljava/util/ArrayList;"));
        int ownKey = registry.singleKey(registry.site(caller.id, 20, 11, "new", "Lt/Row;"));

        AtomicReference<Node> node = new AtomicReference<>();
        Thread t = new Thread(() -> {
            ThreadState ts = ThreadState.current();
            Node n = ts.root.child(caller.id);
            ts.setCurrent(n);
            n.callSite = 1; Recorder.jobj(jdkKey);                       // line 10, inside trim
            n.callSite = 2; Recorder.jobj(jdkKey); Recorder.jobj(jdkKey); // line 12, inside split
            n.callSite = 3; Recorder.jobj(jdkKey);                       // line 12 again, another call of split
            n.callSite = 4; Recorder.jarr(5, jdkKey, 4);                 // line 13, an invokedynamic: no callee
            Recorder.obj(n, ownKey);                                     // its own `new`: the site's line
            ts.setCurrent(ts.root);
            node.set(n);
        });
        t.start();
        t.join();

        List<String> rows = new ArrayList<>();
        for (long[] r : RecordRows.of(node.get(), true, registry)) {
            rows.add((r[RecordRows.KEY] == jdkKey ? "jdk" : r[RecordRows.KEY] == ownKey ? "own" : "?") + " line " + r[RecordRows.LINE]
                + " callee " + r[RecordRows.CALLEE] + " count " + r[RecordRows.COUNT] + " elements " + r[RecordRows.ELEMENTS]);
        }
        rows.sort(null);
        assertEquals(List.of(
            "jdk line 10 callee " + trim.id + " count 1 elements 0",
            "jdk line 12 callee " + split.id + " count 3 elements 0",
            "jdk line 13 callee -1 count 1 elements 5",
            "own line 0 callee -1 count 1 elements 0"), rows);

        // the trees built from stack traces hold the line itself in the key (no callee)
        List<String> traced = new ArrayList<>();
        for (long[] r : RecordRows.of(node.get(), false, registry)) traced.add(r[RecordRows.LINE] + "/" + r[RecordRows.COUNT]);
        traced.sort(null);
        assertEquals(List.of("0/1", "1/1", "2/2", "3/1", "4/1"), traced, "call-site numbers read as lines when not in the exact tree");
    }

    /** Past RecordRows.SCAN_ROWS rows a node's rows merge through a map: the same rows as by the scan. */
    @Test
    void manyCallSitesOnFewerLinesMergeAsTheyDoWithFewRows() throws Exception {
        Registry registry = new Registry();
        Keys.resolver = registry;
        Registry.MethodInfo caller = registry.method("t/Many", "run", "()V");
        Registry.MethodInfo split = registry.method("java/lang/String", "split", "(Ljava/lang/String;)[Ljava/lang/String;");
        caller.profiled = true;
        int lines = RecordRows.SCAN_ROWS + 8;              // 40 lines, each with two call sites: 80 sites
        caller.callLines = new int[2 * lines];
        caller.callees = new int[2 * lines];
        for (int s = 0; s < 2 * lines; s++) { caller.callLines[s] = 100 + s % lines; caller.callees[s] = split.id; }
        int jdkKey = registry.singleKey(registry.site(split.id, 4, 3124, "new", "Ljava/util/ArrayList;"));

        AtomicReference<Node> node = new AtomicReference<>();
        Thread t = new Thread(() -> {
            ThreadState ts = ThreadState.current();
            Node n = ts.root.child(caller.id);
            ts.setCurrent(n);
            for (int s = 1; s <= 2 * lines; s++) { n.callSite = s; Recorder.jobj(jdkKey); }
            n.callSite = 1; Recorder.jobj(jdkKey);       // site 1 (line 100) a second time
            ts.setCurrent(ts.root);
            node.set(n);
        });
        t.start();
        t.join();

        List<long[]> rows = RecordRows.of(node.get(), true, registry);
        assertEquals(lines, rows.size());
        long total = 0;
        for (long[] r : rows) {
            assertEquals(split.id, r[RecordRows.CALLEE]);
            assertEquals(r[RecordRows.LINE] == 100 ? 3 : 2, r[RecordRows.COUNT], "line " + r[RecordRows.LINE]);
            total += r[RecordRows.COUNT];
        }
        assertEquals(2 * lines + 1, total);
    }

    /**
     * One reader serves a whole walk: the rows of a node with many call sites, then of a small node, then of the big
     * one again read the same as fresh copies (the arrays and the merge index are reused, never carried over).
     */
    @Test
    void aReaderReusedFromNodeToNodeGivesEachNodesOwnRows() throws Exception {
        Registry registry = new Registry();
        Keys.resolver = registry;
        Registry.MethodInfo big = registry.method("t/Big", "run", "()V");
        Registry.MethodInfo small = registry.method("t/Small", "run", "()V");
        Registry.MethodInfo split = registry.method("java/lang/String", "split", "(Ljava/lang/String;)[Ljava/lang/String;");
        big.profiled = true;
        small.profiled = true;
        int lines = RecordRows.SCAN_ROWS + 20;
        big.callLines = new int[2 * lines];
        big.callees = new int[2 * lines];
        for (int s = 0; s < 2 * lines; s++) { big.callLines[s] = 100 + s % lines; big.callees[s] = split.id; }
        small.callLines = new int[] {7};
        small.callees = new int[] {split.id};
        int jdkKey = registry.singleKey(registry.site(split.id, 4, 3124, "new", "Ljava/util/ArrayList;"));
        int ownKey = registry.singleKey(registry.site(small.id, 9, 11, "new", "Lt/Row;"));

        AtomicReference<Node> bigNode = new AtomicReference<>(), smallNode = new AtomicReference<>();
        Thread t = new Thread(() -> {
            ThreadState ts = ThreadState.current();
            Node b = ts.root.child(big.id);
            ts.setCurrent(b);
            for (int s = 1; s <= 2 * lines; s++) { b.callSite = s; Recorder.jobj(jdkKey); }
            Node sm = ts.root.child(small.id);
            ts.setCurrent(sm);
            sm.callSite = 1; Recorder.jobj(jdkKey); Recorder.jobj(jdkKey);
            Recorder.obj(sm, ownKey);
            ts.setCurrent(ts.root);
            bigNode.set(b);
            smallNode.set(sm);
        });
        t.start();
        t.join();

        RecordRows reader = new RecordRows();
        for (Node n : new Node[] {bigNode.get(), smallNode.get(), bigNode.get()}) {
            List<String> reused = new ArrayList<>(), fresh = new ArrayList<>();
            for (long[] r : reader.read(n, true, registry)) reused.add(java.util.Arrays.toString(r));
            for (long[] r : RecordRows.of(n, true, registry)) fresh.add(java.util.Arrays.toString(r));
            reused.sort(null);
            fresh.sort(null);
            assertEquals(fresh, reused);
            assertEquals(n == smallNode.get() ? 2 : lines, reused.size());
        }
        long total = 0;
        for (long[] r : reader.read(bigNode.get(), true, registry)) {
            assertEquals(2, r[RecordRows.COUNT], "line " + r[RecordRows.LINE]);
            total += r[RecordRows.COUNT];
        }
        assertEquals(2 * lines, total);
        assertEquals(List.of("[" + jdkKey + ", 7, 2, 0, 0, " + split.id + ", 0]", "[" + ownKey + ", 0, 1, 0, 0, -1, 0]").stream().sorted().toList(),
            reader.read(smallNode.get(), true, registry).stream().map(java.util.Arrays::toString).sorted().toList());
    }
}
