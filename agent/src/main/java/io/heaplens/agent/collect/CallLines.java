package io.heaplens.agent.collect;

import java.util.Arrays;

/**
 * The profile's call lines as format version 2 writes them (docs/format.md, Node {@code line}): a node's line is
 * written only when it differs from the line last written for the same pair (parent's method, method), since the
 * same call made in another context is nearly always made from the same line (maven's profile: 30,693 of its
 * 945,229 lines are written; its gzip goes from 5.4 to 4.4 MB). An open-addressing map from the pair to that line,
 * primitive so that a write of a million nodes allocates nothing per node.
 */
final class CallLines {
    private static final long EMPTY = -1L;
    private long[] keys = new long[1 << 12];
    private int[] lines = new int[1 << 12];
    private int size;

    CallLines() { Arrays.fill(keys, EMPTY); }

    /** Forgets every pair: each profile write starts afresh, as its readers do. */
    void clear() {
        if (size == 0) return;
        Arrays.fill(keys, EMPTY);
        size = 0;
    }

    /**
     * Whether the node's line must be written: false when {@code line} equals the line last given for the pair (0, no
     * line, when none was), true otherwise, and then {@code line} becomes the pair's line (0 is written as -1).
     */
    boolean changes(int parentMethod, int method, int line) {
        long key = ((long) parentMethod << 32) | (method & 0xffffffffL);
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        for (long k; (k = keys[i]) != EMPTY; i = (i + 1) & mask) {
            if (k == key) {
                if (lines[i] == line) return false;
                lines[i] = line;
                return true;
            }
        }
        if (line == 0) return false;           // an unseen pair's line is 0 already
        keys[i] = key;
        lines[i] = line;
        if (++size * 2 > keys.length) grow();
        return true;
    }

    private static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldLines = lines;
        keys = new long[oldKeys.length * 2];
        lines = new int[oldKeys.length * 2];
        Arrays.fill(keys, EMPTY);
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            long k = oldKeys[j];
            if (k == EMPTY) continue;
            int i = mix(k) & mask;
            while (keys[i] != EMPTY) i = (i + 1) & mask;
            keys[i] = k;
            lines[i] = oldLines[j];
        }
    }
}
