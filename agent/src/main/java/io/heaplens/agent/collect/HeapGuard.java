package io.heaplens.agent.collect;

import io.heaplens.agent.instrument.TransformStats;
import io.heaplens.runtime.ThreadState;

import java.lang.management.ManagementFactory;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;

/**
 * Keeps the agent's call trees from pushing the program over its -Xmx (docs/reliability.md "memory"). The trees
 * live on the program's heap and only grow; two bounds keep them small:
 * <ul>
 * <li>at start, a default node budget of {@link #SHARE} of the heap ({@link #defaultMaxNodes});</li>
 * <li>when the heap is still more than {@link #FULL} full after a garbage collection, the trees stop growing:
 *     the node budget is lowered to the nodes that exist, so new calling contexts fold into their callers (counts
 *     stay exact, as with maxNodes). Every collector's end-of-collection notification trips it at once (the
 *     occupancy after a young collection counts too: a nearly full old generation shows there first); the
 *     collector's cycle checks the pools' collection usage too.</li>
 * </ul>
 * Lowering {@code ThreadState.maxNodes} costs the probes nothing: they already compare against it.
 */
public final class HeapGuard implements NotificationListener {
    /** Heap occupancy after a collection above which the trees stop growing. */
    static final double FULL = 0.85;
    /** Share of the heap the default node budget may take. */
    static final long SHARE = 32;
    /** Bytes of one call-tree node with its small tables (measured: 861k nodes took about 180 MB). */
    public static final long NODE_BYTES = 200;

    private static final String GC_NOTIFICATION = "com.sun.management.gc.notification";
    /** The JVM thread (JDK 14 and later) that calls notification listeners. */
    static final String NOTIFICATION_THREAD = "Notification Thread";
    private final Set<String> heapPools = new HashSet<>();
    private volatile MemoryPoolMXBean[] heapPoolBeans = new MemoryPoolMXBean[0];
    private final TransformStats stats;
    private final long heapMax;
    private volatile long frozenAtNodes = -1;
    private volatile long frozenAtMillis;
    private final long start = System.currentTimeMillis();

    HeapGuard(TransformStats stats) {
        this.stats = stats;
        this.heapMax = Runtime.getRuntime().maxMemory();
    }

    /**
     * The node budget when the user sets none: 1/32 of the heap at {@link #NODE_BYTES} a node, less the memory reserve
     * kept for the last write ({@link MemoryReserve}) but never under 1/64 of the heap (small heaps: the reserve's
     * two regions would leave the trees nothing), at least 1,000 and at most a million.
     */
    public static int defaultMaxNodes(int optionDefault) {
        long max = Runtime.getRuntime().maxMemory();
        if (max <= 0 || max == Long.MAX_VALUE) return optionDefault;
        long share = Math.max(max / SHARE - MemoryReserve.size(max), max / (2 * SHARE));
        return (int) Math.max(1000, Math.min(optionDefault, share / NODE_BYTES));
    }

    private boolean installed, linked;

    /**
     * What the program threads call: the growth check (a no-op until {@link #install} lists the pools) and the
     * notification thread adopted. Made before {@code main} in every mode: linking a method reference is one-time JDK
     * work a program thread's own first lambda shares (docs/benchmark.md, "Start-up, Round 6").
     */
    synchronized void link() {
        if (linked) return;
        linked = true;
        ThreadState.growthCheck = this::check;
        // the thread that will build our notifications is ours from its first allocation on (ThreadState)
        ThreadState.adoptThreadsNamed(NOTIFICATION_THREAD);
    }

    /**
     * Asks every garbage collector to tell us the heap's occupancy after each collection (young ones too). At start
     * when the start instruments, else before the first switch to probes: the trees cannot grow while nothing is
     * instrumented. Runs once.
     */
    public synchronized void install() {
        if (installed) return;
        installed = true;
        link();
        try {
            List<MemoryPoolMXBean> beans = new java.util.ArrayList<>();
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP) { heapPools.add(pool.getName()); beans.add(pool); }
            }
            heapPoolBeans = beans.toArray(new MemoryPoolMXBean[0]);
            check();                       // loads what check needs now, not on a program thread in a full heap
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                if (gc instanceof NotificationEmitter) ((NotificationEmitter) gc).addNotificationListener(this, null, null);
            }
            // The first notification initialises GcInfoCompositeData, whose <clinit> loads the generic-signature
            // classes. Loaded there, on the JVM's Notification Thread while a pause retransformed the classes, JDK
            // 17.0.15 crashed once (SIGSEGV in DefaultMethods::generate_default_methods): load them now, before any
            // retransformation can run.
            try {
                Class.forName("com.sun.management.internal.GcInfoCompositeData", true, ClassLoader.getSystemClassLoader());
            } catch (Throwable ignored) {
                // not this JDK's layout: the first notification loads it, as before
            }
        } catch (Throwable t) {
            stats.warn("heap guard: no garbage collection notifications (" + t + "); checked every collector cycle only");
        }
    }

    @Override
    public void handleNotification(Notification n, Object handback) {
        ThreadState ts = null;
        boolean up = false;
        try {
            ts = ThreadState.current();
            // The JVM's "Notification Thread" builds these notifications for our listener: its work is the agent's,
            // so it is an agent thread (never profiled, never listed), not a thread of the program's.
            if (!ts.agentThread) AgentThreads.markCurrent();
            ts.busy++;
            up = true;
            if (frozenAtNodes >= 0 || !GC_NOTIFICATION.equals(n.getType()) || !(n.getUserData() instanceof CompositeData)) return;
            // com.sun.management.GarbageCollectionNotificationInfo, read as open data (no jdk.management types)
            CompositeData gcInfo = (CompositeData) ((CompositeData) n.getUserData()).get("gcInfo");
            TabularData after = (TabularData) gcInfo.get("memoryUsageAfterGc");
            long used = 0;
            for (Object row : after.values()) {
                CompositeData entry = (CompositeData) row;
                if (heapPools.contains(String.valueOf(entry.get("key")))) used += (Long) ((CompositeData) entry.get("value")).get("used");
            }
            if (used > heapMax * FULL) freeze();
        } catch (Throwable ignored) {
            // an unexpected notification layout: the collector cycle's check still runs
        } finally {
            if (up) ts.busy--;
        }
    }

    /**
     * Called every collector cycle, and by a program thread every few hundred new nodes ({@code
     * ThreadState.growthCheck}): the heap after the last collections, summed over the heap pools.
     */
    void check() {
        if (frozenAtNodes >= 0) return;
        long used = 0;
        for (MemoryPoolMXBean pool : heapPoolBeans) {
            MemoryUsage u = pool.getCollectionUsage();
            if (u != null) used += u.getUsed();
        }
        if (used > heapMax * FULL) freeze();
    }

    private synchronized void freeze() {
        if (frozenAtNodes >= 0) return;
        long nodes = ThreadState.nodes;
        if (ThreadState.maxNodes > nodes) ThreadState.maxNodes = nodes;
        frozenAtNodes = nodes;
        frozenAtMillis = System.currentTimeMillis() - start;
        stats.warn("the heap was more than " + (int) (FULL * 100) + "% full after a garbage collection " + frozenAtMillis
            + " ms after start: the call trees stopped growing at " + nodes + " nodes (new calling contexts fold into their callers; counts stay exact)");
    }

    public long heapMax() { return heapMax; }
    public long frozenAtNodes() { return frozenAtNodes; }
}
