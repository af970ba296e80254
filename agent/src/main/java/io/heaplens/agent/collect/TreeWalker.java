package io.heaplens.agent.collect;

import io.heaplens.agent.core.Registry;
import io.heaplens.agent.core.Registry.MethodInfo;
import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Node;
import io.heaplens.runtime.ThreadState;

import java.io.IOException;
import java.util.List;

/**
 * The one walk over the threads' call trees (runtime.Node tables) behind the profile file, the live channel and the
 * memory accounts: it skips the agent's own threads and the empty mode trees, turns each node's records into rows
 * (RecordRows) with their estimated bytes (Tables.bytes), and hands each node to a {@link TreeOutput}.
 */
public final class TreeWalker {
    /** The trees of a thread, in the order they are walked (docs/format.md "Modes"). */
    public static final String ROOT = "root", SITES = "sites", SITE_TRACES = "siteTraces", SAMPLED = "sampled";

    private final Registry registry;
    private final TypeSizes sizes;
    /** Each node's rows, in arrays reused from node to node: an output uses them only inside its node call. */
    private final RecordRows rowReader = new RecordRows();

    public TreeWalker(Registry registry, TypeSizes sizes) {
        this.registry = registry;
        this.sizes = sizes;
    }

    /** Every tree of every application thread in {@code threads}. */
    public void all(ThreadState[] threads, TreeOutput out) throws IOException {
        for (ThreadState ts : threads) if (!ts.agentThread) thread(ts, out, false);
    }

    /** Only the exact call trees ({@link #ROOT}) of the application threads in {@code threads}. */
    public void roots(ThreadState[] threads, TreeOutput out) throws IOException {
        for (ThreadState ts : threads) if (!ts.agentThread) thread(ts, out, true);
    }

    /** Whether any application thread's {@code name} tree holds data (docs/format.md: the trees a profile offers). */
    public static boolean holds(ThreadState[] threads, String name) {
        for (ThreadState ts : threads) if (!ts.agentThread && !empty(treeOf(ts, name))) return true;
        return false;
    }

    static Node treeOf(ThreadState ts, String name) {
        switch (name) {
            case ROOT: return ts.root;
            case SITES: return ts.sites;
            case SITE_TRACES: return ts.siteTraces;
            default: return ts.sampled;
        }
    }

    private void thread(ThreadState ts, TreeOutput out, boolean rootOnly) throws IOException {
        out.beginThread(ts);
        tree(ts, ROOT, ts.root, out);
        if (!rootOnly) {
            // The other modes' structures, present once a mode wrote into them.
            if (!empty(ts.sites)) tree(ts, SITES, ts.sites, out);
            if (!empty(ts.siteTraces)) tree(ts, SITE_TRACES, ts.siteTraces, out);
            if (!empty(ts.sampled)) tree(ts, SAMPLED, ts.sampled, out);
        }
        out.endThread(ts);
    }

    private static boolean empty(Node n) {
        return n.recordsSnapshot() == null && n.onlyChild() == null && n.childrenSnapshot() == null;
    }

    private void tree(ThreadState ts, String name, Node root, TreeOutput out) throws IOException {
        out.beginTree(ts, name);
        node(root, null, name.equals(ROOT), out);
        out.endTree(ts, name);
    }

    /** @param callSites the exact tree: records kept apart by call-site number, not by line (RecordRows) */
    private void node(Node n, MethodInfo parent, boolean callSites, TreeOutput out) throws IOException {
        int callLine = 0;
        if (callSites && n.method >= 0 && parent != null) {
            int[] lines = parent.callLines;
            int at = n.entrySite;
            if (lines != null && at > 0 && at <= lines.length && lines[at - 1] > 0) callLine = lines[at - 1];
        }
        long[] records = n.recordsSnapshot();
        List<long[]> rows = null;
        if (records != null) {
            rows = rowReader.read(n, callSites, registry);
            for (int i = 0, size = rows.size(); i < size; i++) {      // no iterator: the agent's code has no escape analysis (kept out of C2)
                long[] r = rows.get(i);
                r[RecordRows.ESTIMATE] = Tables.bytes(registry.typeById(Keys.type((int) r[RecordRows.KEY])), sizes,
                    r[RecordRows.COUNT], r[RecordRows.BYTES]);
            }
        }
        Node only = n.onlyChild();                          // before the table: see Node.onlyChild
        Node[] children = only == null ? n.childrenSnapshot() : null;
        boolean hasChildren = only != null || children != null;
        out.node(n, callLine, records, rows, hasChildren);
        if (hasChildren) {
            MethodInfo self = n.method >= 0 ? registry.methodById(n.method) : null;
            if (only != null) node(only, self, callSites, out);
            else for (Node c : children) if (c != null) node(c, self, callSites, out);
        }
        out.endNode(n, hasChildren);
    }
}
