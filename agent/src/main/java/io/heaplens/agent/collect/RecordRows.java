package io.heaplens.agent.collect;

import io.heaplens.agent.core.Registry;
import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Node;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    private RecordRows() {}

    /**
     * @param callSites true for the exact tree (the key's high bits are call-site numbers of the node's method),
     *                  false for the trees built from stack traces (they are lines)
     */
    public static List<long[]> of(Node n, boolean callSites, Registry registry) {
        long[] tab = n.recordsSnapshot();
        List<long[]> rows = new ArrayList<>();
        if (tab == null) return rows;
        Registry.MethodInfo m = n.method >= 0 ? registry.methodById(n.method) : null;
        int[] callLines = m != null ? m.callLines : null, callees = m != null ? m.callees : null;
        boolean merging = false;
        Map<List<Long>, long[]> merged = null;
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
            long[] row = {key, line, tab[b + 1], tab[b + 2], tab[b + 3], callee, 0};
            // Until a record kept apart by call site shows up, no two rows can share key, line and callee (the table's
            // keys are distinct). After, a scan of the rows finds the one to merge into, and only a node with many rows
            // pays for a map: a boxed key per row was a sixth of the collector's garbage on maven.
            merging |= at != 0;
            if (!merging) { rows.add(row); continue; }
            if (merged == null && rows.size() > SCAN_ROWS) {
                merged = new HashMap<>();
                for (long[] r : rows) merged.put(mergeKey(r), r);
            }
            long[] have = merged != null ? merged.get(mergeKey(row)) : find(rows, row);
            if (have != null) {
                have[COUNT] += row[COUNT]; have[ELEMENTS] += row[ELEMENTS]; have[BYTES] += row[BYTES];
            } else {
                if (merged != null) merged.put(mergeKey(row), row);
                rows.add(row);
            }
        }
        return rows;
    }

    /** Up to this many rows a node's rows are merged by scanning them, above by a map. */
    static final int SCAN_ROWS = 32;

    /** The row with the same key, line and callee as {@code row}, or null. */
    private static long[] find(List<long[]> rows, long[] row) {
        for (int i = 0, size = rows.size(); i < size; i++) {
            long[] r = rows.get(i);
            if (r[KEY] == row[KEY] && r[LINE] == row[LINE] && r[CALLEE] == row[CALLEE]) return r;
        }
        return null;
    }

    /** What rows merge on: key, line and callee (a row of its own per distinct triple). */
    public static List<Long> mergeKey(long[] row) {
        return java.util.Arrays.asList(row[KEY], row[LINE], row[CALLEE]);
    }
}
