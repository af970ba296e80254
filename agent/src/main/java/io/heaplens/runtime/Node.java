package io.heaplens.runtime;

import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.Hidden;
import jdk.internal.vm.annotation.ForceInline;

/**
 * One method invocation context (Binder 2006 §2): all invocations of one method with the same call stack, on one
 * thread. Only its own thread mutates it; the collector reads it racily (counters are plain longs, tables are
 * replaced whole, so a reader always sees a consistent array).
 *
 * Kept small (80 bytes with compressed oops, 13 references or ints and two longs): a compiler makes a million of these
 * in seconds and every one survives every young collection (maven: 945,710 nodes, docs/benchmark.md "Round 10").
 * So the counts of the two tables live in the tables (see {@link #childIds}, {@link #records}), a fold node is
 * known by its method id, and a node with one child keeps it in {@link #lastChild} alone, without a table.
 */
public final class Node {
    public static final int ROOT = -1;
    public static final int FOLD = -2;

    public final int method;
    public final Node parent;
    public final ThreadState thread;
    public final int depth;

    public long calls;
    /** Calls made deeper than the depth limit below this node; their allocations are charged here. */
    public long folded;

    // Children: open addressing on method id, made at the second child (the first lives in lastChild alone: most
    // nodes of a deep tree have one child). The ids live in their own int[] (id + 1; 0 = empty), so probing reads one
    // compact array instead of dereferencing a node per step: on a tree of a million nodes each of those reads was a
    // cache miss, and the lookup dominated the cost of a call. childIds has one more entry than children: the last
    // one is the number of children.
    private Node[] children;
    private int[] childIds;
    /**
     * While {@link #children} is null: the only child (null: none). After: a one-entry cache, the child last looked
     * up (loops call the same callee again and again; the call-site cache below exists only once a node has two
     * children).
     */
    Node lastChild;

    /**
     * The call site (1-based, numbered per method by the instrumenter; 0 = none) this node's frame passed last:
     * every call in a profiled method stores its number here before the invoke. The callee's entry probe reads it
     * to find its node in {@link #siteChildren}, and a JDK allocation charged to this node happened inside the
     * call at this site (its line is the method's {@code calls} table in the profile, docs/format.md).
     */
    public int callSite;
    /**
     * This node's index in its thread's {@link ThreadState#slots} (-1 until first entered), and its parent's: the entry
     * and exit make a node current by storing an int (see {@link ThreadState#currentSlot}). A fold node has no slot: its
     * exit and handler write into its sink.
     */
    public int slot = -1, parentSlot;
    /**
     * The call site of the parent's method (its number, as {@link #callSite}) that first entered this node: the line
     * a caller frame shows in exports (docs/format.md, the node's {@code line}). Set once, when the node is made, so
     * the entry probe's fast path does not touch it; a child entered from two call sites keeps the first.
     */
    public int entrySite;
    /**
     * Inline caches for the call sites of this node's method, indexed by call-site number modulo the (power of two)
     * length: the child last entered from each site. A call site in one context almost always enters the same
     * callee (Hölzle, Chambers, Ungar 1991); a hit costs one array load and a compare instead of a hash lookup.
     * Only the owning thread reads or writes it.
     */
    Node[] siteChildren;

    /**
     * Allocation records, stride 4: key+1 (0 = empty slot), count, elements, bytes. Open addressing on key, a power
     * of two of slots, then one more stride that is always empty to readers (its key is 0) and holds the number of
     * records in its count ({@link #COUNT_FROM_END}). A key is the {@link Keys} key in its low 32 bits and, for
     * allocations charged from code without a node, the call site (or line) in its high 32 bits (see {@link #recordAt}).
     * A fold node has a table of one empty slot, so every allocation probe misses its fast path and lands in
     * {@link #recordProbing}, which charges the thread's current node: the probes need no fold check (a test C2 would
     * compile as a trap while nothing folds, docs/benchmark.md "Round 8").
     * The sites mode's flat nodes use the dense layout of {@link #recordDense} instead (no count stride).
     */
    long[] records;                   // read by Recorder.obj's fast path (Node.slot), written only here
    /** Where the record count is, counted from the end of {@link #records}. */
    private static final int COUNT_FROM_END = 3;
    /** Slots of a node's first record table: 84,314 of maven's 121,732 nodes with records have one. */
    private static final int FIRST_RECORD_SLOTS = 2;

    Node(int method, Node parent, ThreadState thread, int depth) {
        this.method = method;
        this.parent = parent;
        this.thread = thread;
        this.depth = depth;
        if (method == FOLD) records = new long[2 * 4];   // one empty slot, never matched; the count stride
    }

    /**
     * A stand-in returned when a call gets no node of its own (deeper than the depth limit, past the node budget, the
     * agent's own work, outside the exact mode); its {@link #thread} is a sink ({@link ThreadState#SINK}).
     */
    public boolean isFold() {
        return method == FOLD;
    }

    @Hidden
    public Node child(int mid) {
        return child(mid, true);
    }

    /** The child for method {@code mid}; when there is none, a new one if {@code mayCreate}, else null. */
    @ForceInline
    @Hidden
    Node child(int mid, boolean mayCreate) {
        Node last = lastChild;
        if (last != null && last.method == mid) return last;
        int[] ids = childIds;
        if (ids != null) {
            int mask = ids.length - 2, want = mid + 1;
            for (int i = mix(mid) & mask; ; i = (i + 1) & mask) {
                int id = ids[i];
                if (id == want) { Node c = children[i]; lastChild = c; return c; }
                if (id == 0) break;
            }
        }
        return mayCreate ? addChild(mid) : null;
    }

    /**
     * Remembers {@code c} as the child entered from call site {@code site}. The cache is direct-mapped on the site
     * number (a collision only costs a miss) and sized by the number of children (none below two: then {@link #lastChild} serves), 2–4 slots per child up to 64, so
     * a node with many call sites but few callees stays small; it starts empty again when it grows.
     */
    @Hidden
    void cacheChild(int site, Node c) {
        int[] ids = childIds;
        if (ids == null) return;          // one child: lastChild is the cache (most nodes of deep trees)
        int n = ids[ids.length - 1];
        Node[] ic = siteChildren;
        int want = Math.min(64, Integer.highestOneBit(n - 1) << 2);
        if (ic == null || ic.length < want) siteChildren = ic = new Node[want];
        ic[site & (ic.length - 1)] = c;
    }

    @DontInline
    @Hidden
    private Node addChild(int mid) {
        if ((++ThreadState.nodes & (ThreadState.CHECK_EVERY - 1)) == 0) ThreadState.checkGrowth();
        Node c = new Node(mid, this, thread, depth + 1);
        Node[] tab = children;
        int[] ids = childIds;
        if (tab == null) {
            Node only = lastChild;
            if (only == null) {           // the first child: no table
                lastChild = c;
                return c;
            }
            tab = new Node[4];
            ids = new int[4 + 1];
            insertChild(tab, ids, only);
        } else if ((ids[tab.length] + 1) * 2 > tab.length) {
            Node[] bigger = new Node[tab.length * 2];
            int[] biggerIds = new int[tab.length * 2 + 1];
            for (Node o : tab) if (o != null) insertChild(bigger, biggerIds, o);
            tab = bigger;
            ids = biggerIds;
        }
        insertChild(tab, ids, c);
        children = tab;               // publish after the slots are filled, before lastChild moves (see onlyChild)
        childIds = ids;
        lastChild = c;
        return c;
    }

    /** Puts {@code c} into a children table and counts it (the count is the id table's last entry). */
    @Hidden
    private static void insertChild(Node[] tab, int[] ids, Node c) {
        int mask = tab.length - 1;
        int i = mix(c.method) & mask;
        while (ids[i] != 0) i = (i + 1) & mask;
        tab[i] = c;
        ids[i] = c.method + 1;
        ids[tab.length]++;
    }

    /**
     * Adds to one allocation record (count arrays/objects, their elements, arrays' bytes); returns the new count.
     * Inlined into every allocation probe, so it holds only the first probe of the hash table: the JIT compiles
     * instrumented code several times over (measured: the JIT threads were half of the exact mode's added CPU),
     * and a loop inlined at every allocation site made each compilation bigger.
     */
    @ForceInline
    @Hidden
    long record(int key, long count, long elements, long bytes) {
        return record((long) key, count, elements, bytes);
    }

    /**
     * An allocation made by code without a node of its own (the JDK), charged here: the record is kept apart per
     * call site this node's frame is inside ({@link #callSite}), so the line that asked for it is known
     * (docs/format.md, the AllocRecord's line). {@code at} is that call site's number (exact mode) or a source line
     * (the trees built from stack traces); 0 when none.
     */
    @ForceInline
    @Hidden
    long recordAt(int key, int at, long count, long elements, long bytes) {
        return record(key | (long) at << 32, count, elements, bytes);
    }

    /**
     * The record key of {@link #record}: the low 32 bits are the {@link Keys} key, the high 32 bits {@code at}.
     * The allocation probes' fast path, deliberately not {@code @ForceInline} and more than 35 bytes: C1 calls it,
     * C2 inlines it where hot (see {@link Recorder}).
     */
    @Hidden
    long record(long key, long count, long elements, long bytes) {
        long[] tab = records;
        if (tab != null) {
            int b = slot(tab, key);
            if (tab[b] == key + 1L) { tab[b + 2] += elements; tab[b + 3] += bytes; return tab[b + 1] += count; }
        }
        return recordProbing(key, count, elements, bytes);
    }

    /** The first slot of {@code key} in a record table (the one {@link #record} tries first). */
    @ForceInline
    @Hidden
    static int slot(long[] tab, long key) {
        return (mix(key) & ((tab.length >> 2) - 2)) << 2;
    }

    /**
     * The rest of {@link #record}: linear probing from the key's slot, or a new record. A fold node's allocation
     * comes here (its table never matches) and is charged to the thread's current node, by the call that node's
     * frame is inside, as an allocation in code without a node.
     */
    @DontInline
    @Hidden
    private long recordProbing(long key, long count, long elements, long bytes) {
        if (method == FOLD) return chargeCurrent((int) key, count, elements, bytes);
        long[] tab = records;
        if (tab != null) {
            int slots = (tab.length >> 2) - 1, mask = slots - 1;
            long k = key + 1L;
            for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
                int b = i << 2;
                long cur = tab[b];
                if (cur == k) { tab[b + 2] += elements; tab[b + 3] += bytes; return tab[b + 1] += count; }
                if (cur == 0) break;
            }
        }
        addRecord(key, count, elements, bytes);
        return count;
    }

    /**
     * The sites mode's flat per-thread node: the record of {@code key} lives at slot {@code key} (keys are dense, see
     * {@link Keys}), so an allocation is a bounds check and three adds, no hashing. The layout is the one of the
     * hashed records (key+1, count, elements, bytes), so readers scan both alike. Never mixed with {@link #record}.
     */
    @ForceInline
    @Hidden
    long recordDense(int key, long count, long elements, long bytes) {
        long[] tab = records;
        int b = key << 2;
        if (tab == null || b >= tab.length) tab = growDense(key);
        tab[b] = key + 1L;
        tab[b + 2] += elements;
        tab[b + 3] += bytes;
        return tab[b + 1] += count;
    }

    @DontInline
    @Hidden
    private long[] growDense(int key) {
        long[] old = records;
        int slots = Integer.highestOneBit(Math.max(key, 63)) << 1;          // a power of two above key, ≥ 64
        long[] tab = new long[slots * 4];
        if (old != null) System.arraycopy(old, 0, tab, 0, old.length);
        records = tab;                    // published whole: a reader sees the old or the new table
        return tab;
    }

    /** An allocation of a fold node, charged as {@link Recorder}'s j-probes charge code without a node. */
    @Hidden
    private static long chargeCurrent(int key, long count, long elements, long bytes) {
        ThreadState ts = ThreadState.current();
        if (ts.busy != 0) return count;                    // the agent's own work: not recorded
        Node c = ts.currentNode();
        c.recordAt(key, c.callSite, count, elements, bytes);
        return count;
    }

    @DontInline
    @Hidden
    private void addRecord(long key, long count, long elements, long bytes) {
        long[] tab = records;
        if (tab == null) tab = new long[(FIRST_RECORD_SLOTS + 1) * 4];
        else {
            int slots = (tab.length >> 2) - 1;
            if ((tab[tab.length - COUNT_FROM_END] + 1) * 2 > slots) tab = rehashRecords(tab, slots * 2);
        }
        int b = insertRecord(tab, key);
        tab[b + 1] = count; tab[b + 2] = elements; tab[b + 3] = bytes;
        tab[b] = key + 1L;
        tab[tab.length - COUNT_FROM_END]++;
        records = tab;
    }

    @Hidden
    private static long[] rehashRecords(long[] old, int slots) {
        long[] tab = new long[(slots + 1) * 4];
        for (int b = 0; b < old.length; b += 4) {
            if (old[b] == 0) continue;                     // empty, or the count stride
            int nb = insertRecord(tab, old[b] - 1);
            tab[nb + 1] = old[b + 1]; tab[nb + 2] = old[b + 2]; tab[nb + 3] = old[b + 3];
            tab[nb] = old[b];
        }
        tab[tab.length - COUNT_FROM_END] = old[old.length - COUNT_FROM_END];
        return tab;
    }

    @Hidden
    private static int insertRecord(long[] tab, long key) {
        int mask = (tab.length >> 2) - 2;
        int i = mix(key) & mask;
        while (tab[i << 2] != 0) i = (i + 1) & mask;
        return i << 2;
    }

    /** A record key's hash: the {@link Keys} key's own hash when {@code at} is 0, so plain records cost what they did. */
    @Hidden
    private static int mix(long key) {
        return mix((int) key ^ (int) (key >>> 32) * 0x85EBCA6B);
    }

    @Hidden
    private static int mix(int x) {
        x *= 0x9E3779B1;
        return x ^ (x >>> 16);
    }

    /** Sets every counter of this node to zero (a reset requested by the user; racy with the owning thread by design). */
    public void clear() {
        calls = 0;
        folded = 0;
        long[] tab = records;
        if (tab == null) return;
        for (int b = 0; b < tab.length; b += 4) {
            if (tab[b] == 0) continue;                     // empty, or the count stride: keep the count
            tab[b + 1] = 0; tab[b + 2] = 0; tab[b + 3] = 0;
        }
    }

    /**
     * For readers: the children table (may contain null slots) once this node has two children or more; null before
     * (see {@link #onlyChild}).
     */
    public Node[] childrenSnapshot() { return children; }

    /**
     * For readers: the child of a node with exactly one (null: none, or a children table, then see
     * {@link #childrenSnapshot}). It reads {@link #lastChild} before {@link #children}, and the owner publishes the
     * table before it moves lastChild, so a racing reader sees the first child alone or the whole table.
     */
    public Node onlyChild() {
        Node c = lastChild;
        return children == null ? c : null;
    }

    /**
     * The current record table, stride 4 (key+1, count, elements, bytes; key+1 == 0 is an empty slot). The key's low
     * 32 bits are the {@link Keys} key, its high 32 bits the call site or line of {@link #recordAt} (0: none).
     */
    public long[] recordsSnapshot() { return records; }
}
