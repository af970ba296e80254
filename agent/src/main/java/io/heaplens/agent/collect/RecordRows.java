package io.heaplens.agent.collect;

import io.heaplens.agent.core.Registry;
import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Node;

import java.util.ArrayList;
import java.util.List;

/**
 * A node's allocation records as the profile writes them: one row per (key, line, callee), where line is the source
 * line of the call in the node's method that the allocation happened inside (0: the allocation site's own line
 * applies) and callee the method that call invokes (-1: not known). The runtime keeps JDK allocations apart by
 * call-site number (exact tree) or line (trees built from stack traces, see Node#recordAt); two call sites with the
 * same line and callee become one row.
 */
public final class RecordRows {
    /**
     * Row layout: {key, line, count, elements, array bytes, callee, estimate}; the estimated bytes of the row (arrays:
     * their sum, objects: count × the class's size) are filled in by TreeWalker.
     */
    public static final int KEY = 0, LINE = 1, COUNT = 2, ELEMENTS = 3, BYTES = 4, CALLEE = 5, ESTIMATE = 6;

    public RecordRows() {}

    /**
     * The rows of {@code n}, in arrays this object owns and reuses: valid until the next call. A walk reads a node's
     * rows, hands them to its output and moves on, so one set of arrays serves every node: a new list, row arrays and
     * iterators per node were half of the collector's garbage (maven: 215–252 → 109–114 MB a run, docs/benchmark.md
     * "Round 14"), and that garbage made young collections more frequent while the trees grew.
     */
    public List<long[]> read(Node n, boolean callSites, Registry registry) {
        rows.clear();
        indexed = 0;
        long[] tab = n.recordsSnapshot();
        if (tab == null) return rows;
        Registry.MethodInfo m = n.method >= 0 ? registry.methodById(n.method) : null;
        int[] callLines = m != null ? m.callLines : null, callees = m != null ? m.callees : null;
        boolean merging = false;
        for (int b = 0; b < tab.length; b += 4) {
            long raw = tab[b];
            if (raw == 0) continue;
            raw -= 1;
            int key = (int) raw, at = (int) (raw >>> 32);
            int line = 0, callee = -1;
            if (at > 0 && m != null && registry.siteById(Keys.site(key)).method != n.method) {
                if (!callSites) line = at;
                else if (callLines != null && at <= callLines.length) {
                    line = Math.max(0, callLines[at - 1]);
                    if (line > 0 && callees != null && at <= callees.length) callee = callees[at - 1];
                }
            }
            long count = tab[b + 1], elements = tab[b + 2], bytes = tab[b + 3];
            // Until a record kept apart by call site shows up, no two rows can share key, line and callee (the table's
            // keys are distinct). After, a scan of the rows finds the one to merge into, and only a node with many rows
            // pays for an index.
            merging |= at != 0;
            int have = merging ? find(key, line, callee) : -1;
            if (have >= 0) {
                long[] r = rows.get(have);
                r[COUNT] += count; r[ELEMENTS] += elements; r[BYTES] += bytes;
            } else {
                add(key, line, count, elements, bytes, callee);
            }
        }
        return rows;
    }

    /** A fresh copy of {@code n}'s rows (tests and readers that keep them). */
    public static List<long[]> of(Node n, boolean callSites, Registry registry) {
        List<long[]> copy = new ArrayList<>();
        for (long[] r : new RecordRows().read(n, callSites, registry)) copy.add(r.clone());
        return copy;
    }

    private final ArrayList<long[]> rows = new ArrayList<>();
    /** Row arrays, reused from node to node (rows.get(i) == pool[i]). */
    private long[][] pool = new long[16][];
    /** Open addressing over the rows from index 0 to {@link #indexed} - 1: row index + 1, 0 = empty. */
    private int[] slots = new int[0];
    private int indexed;

    private void add(long key, long line, long count, long elements, long bytes, long callee) {
        int i = rows.size();
        if (i == pool.length) pool = java.util.Arrays.copyOf(pool, i * 2);
        long[] r = pool[i];
        if (r == null) pool[i] = r = new long[ESTIMATE + 1];
        r[KEY] = key; r[LINE] = line; r[COUNT] = count; r[ELEMENTS] = elements; r[BYTES] = bytes; r[CALLEE] = callee;
        r[ESTIMATE] = 0;
        rows.add(r);
    }

    /** The index of the row with this key, line and callee, or -1: a scan up to {@link #SCAN_ROWS} rows, above an index. */
    private int find(long key, long line, long callee) {
        int size = rows.size();
        if (size <= SCAN_ROWS) {
            for (int i = 0; i < size; i++) {
                long[] r = rows.get(i);
                if (r[KEY] == key && r[LINE] == line && r[CALLEE] == callee) return i;
            }
            return -1;
        }
        if (slots.length < 4 * size) {                // (re)build: at most a quarter full
            slots = new int[Integer.highestOneBit(8 * size - 1)];
            indexed = 0;
        } else if (indexed == 0) java.util.Arrays.fill(slots, 0);   // a new node's first look-up past the scan
        for (; indexed < size; indexed++) insert(indexed);
        int mask = slots.length - 1;
        for (int s = hash(key, line, callee) & mask; ; s = (s + 1) & mask) {
            int at = slots[s];
            if (at == 0) return -1;
            long[] r = rows.get(at - 1);
            if (r[KEY] == key && r[LINE] == line && r[CALLEE] == callee) return at - 1;
        }
    }

    private void insert(int i) {
        long[] r = rows.get(i);
        int mask = slots.length - 1;
        int s = hash(r[KEY], r[LINE], r[CALLEE]) & mask;
        while (slots[s] != 0) s = (s + 1) & mask;
        slots[s] = i + 1;
    }

    private static int hash(long key, long line, long callee) {
        long h = key * 0x9E3779B97F4A7C15L + line * 0xC2B2AE3D27D4EB4FL + callee * 0x165667B19E3779F9L;
        return (int) (h ^ (h >>> 29));
    }

    /** Up to this many rows a node's rows are merged by scanning them, above by a map. */
    static final int SCAN_ROWS = 32;

    /** What rows merge on: key, line and callee (a row of its own per distinct triple). */
    public static List<Long> mergeKey(long[] row) {
        return java.util.Arrays.asList(row[KEY], row[LINE], row[CALLEE]);
    }
}
