package io.heaplens.agent.collect;

import io.heaplens.runtime.ThreadState;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.util.List;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;

/**
 * The memory chart's data (docs/format.md, "memory"): every {@code intervalMillis} on the collector thread, heap used,
 * committed and max, the bytes allocated by all threads so far and the collectors' cumulative counts and times; each
 * garbage collection from the JVM's GC notifications (its duration, collector, cause, heap before and after); and
 * marks (snapshots). Bounded: past {@link #MAX_SAMPLES} every other sample is dropped and the interval doubles, so a
 * long run keeps its whole history at a coarser step; past {@link #MAX_GCS} the oldest collections go.
 */
public final class MemorySampler {
    static final int MAX_SAMPLES = 4096;
    static final int MAX_GCS = 4096;
    static final int MAX_MARKS = 512;
    /** time, used, committed, max, allocated (-1: unknown), gcCount, gcMillis */
    static final int FIELDS = 7;

    private final MemoryMXBean heap = ManagementFactory.getMemoryMXBean();
    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
    private final java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private long intervalMillis;
    private long lastSample;

    private long[] samples = new long[MAX_SAMPLES * FIELDS];
    private int count;
    /** samples dropped from the front by thinning: a channel cursor below this restarts */
    private long thinned;
    private final long[][] gcs = new long[MAX_GCS][];
    private final String[][] gcNames = new String[MAX_GCS][];
    private long gcTotal;
    private final long[] markTimes = new long[MAX_MARKS];
    private final String[] markNames = new String[MAX_MARKS];
    private int marks;

    public MemorySampler(long intervalMillis) {
        this.intervalMillis = Math.max(50, intervalMillis);
    }

    /** Listens for GC notifications (HotSpot's com.sun.management.gc.notification); never fatal. */
    public void listen() {
        NotificationListener l = this::onGc;
        for (GarbageCollectorMXBean gc : collectors) {
            if (gc instanceof NotificationEmitter) {
                try { ((NotificationEmitter) gc).addNotificationListener(l, null, null); } catch (Throwable ignored) { }
            }
        }
    }

    /** Called every collector cycle: takes a sample when the interval has passed. */
    public void tick(long now) {
        if (now - lastSample < intervalMillis) return;
        lastSample = now;
        sample(now);
    }

    synchronized void sample(long now) {
        MemoryUsage u = heap.getHeapMemoryUsage();
        long gcCount = 0, gcMillis = 0;
        for (GarbageCollectorMXBean gc : collectors) {
            gcCount += Math.max(0, gc.getCollectionCount());
            gcMillis += Math.max(0, gc.getCollectionTime());
        }
        if (count == MAX_SAMPLES) thin();
        int o = count * FIELDS;
        samples[o] = now;
        samples[o + 1] = u.getUsed();
        samples[o + 2] = u.getCommitted();
        samples[o + 3] = u.getMax();
        samples[o + 4] = allocatedBytes();
        samples[o + 5] = gcCount;
        samples[o + 6] = gcMillis;
        count++;
    }

    /** Bytes allocated by all live threads so far (HotSpot's ThreadMXBean; -1 where the JVM does not say). */
    private long allocatedBytes() {
        try {
            if (threads instanceof com.sun.management.ThreadMXBean) {
                com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) threads;
                if (t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled()) return t.getTotalThreadAllocatedBytes();
            }
        } catch (Throwable ignored) { }
        return -1;
    }

    /** Keeps every other sample and doubles the interval: the whole run stays, at a coarser step. */
    private void thin() {
        int keep = 0;
        for (int i = 0; i < count; i += 2, keep++) System.arraycopy(samples, i * FIELDS, samples, keep * FIELDS, FIELDS);
        thinned += count - keep;
        count = keep;
        intervalMillis *= 2;
    }

    /** A mark on the time line (a snapshot was taken). */
    public synchronized void mark(String what) {
        if (marks == MAX_MARKS) return;
        markTimes[marks] = System.currentTimeMillis();
        markNames[marks++] = what;
    }

    private void onGc(Notification n, Object handback) {
        if (!"com.sun.management.gc.notification".equals(n.getType()) || !(n.getUserData() instanceof CompositeData)) return;
        // the JDK's notification thread runs this: guard it so the agent's own reading is not profiled
        ThreadState ts = ThreadState.current();
        ts.busy++;
        try {
            CompositeData d = (CompositeData) n.getUserData();
            CompositeData info = (CompositeData) d.get("gcInfo");
            long duration = ((Number) info.get("duration")).longValue();
            long before = usedOf((TabularData) info.get("memoryUsageBeforeGc"));
            long after = usedOf((TabularData) info.get("memoryUsageAfterGc"));
            // gcInfo's startTime is from JVM start: the notification's time stamp is epoch milliseconds at its end
            long time = n.getTimeStamp() - duration;
            record(time, duration, String.valueOf(d.get("gcName")), String.valueOf(d.get("gcCause")), before, after);
        } catch (Throwable ignored) {
            // a JVM without these fields: no collection details, the cumulative counts still come with the samples
        } finally {
            ts.busy--;
        }
    }

    synchronized void record(long time, long duration, String name, String cause, long before, long after) {
        int k = (int) (gcTotal % MAX_GCS);
        gcs[k] = new long[] {time, duration, before, after};
        gcNames[k] = new String[] {name, cause};
        gcTotal++;
    }

    private static long usedOf(TabularData t) {
        long sum = 0;
        for (Object row : t.values()) {
            CompositeData r = (CompositeData) row;
            Object v = r.get("value");
            if (v instanceof CompositeData) sum += ((Number) ((CompositeData) v).get("used")).longValue();
        }
        return sum;
    }

    /** The whole section for the profile file. */
    public synchronized void write(Json j) throws IOException {
        j.name("memory").begin('{').field("intervalMillis", intervalMillis);
        body(j, 0, Math.max(0, gcTotal - MAX_GCS), 0);
        j.end('}');
    }

    /** Where a channel client is: the next sample, collection and mark it has not seen. */
    public static final class Cursor {
        long sample, gc;
        int mark;
    }

    /** The samples, collections and marks after the cursor (for a delta frame); false when there is nothing new. */
    public synchronized boolean writeSince(Json j, Cursor c) throws IOException {
        long firstSample = thinned;          // samples are numbered from the start; thinning renumbers what is left
        if (c.sample < firstSample) c.sample = firstSample;
        long nextSample = thinned + count;
        if (c.sample >= nextSample && c.gc >= gcTotal && c.mark >= marks) return false;
        j.name("memory").begin('{').field("intervalMillis", intervalMillis).field("restart", c.sample == firstSample && firstSample > 0);
        body(j, (int) Math.min(count, Math.max(0, c.sample - thinned)), Math.max(c.gc, Math.max(0, gcTotal - MAX_GCS)), c.mark);
        j.end('}');
        c.sample = nextSample;
        c.gc = gcTotal;
        c.mark = marks;
        return true;
    }

    private void body(Json j, int fromSample, long fromGc, int fromMark) throws IOException {
        j.name("samples").begin('[');
        long[] row = new long[FIELDS];
        for (int i = fromSample; i < count; i++) {
            System.arraycopy(samples, i * FIELDS, row, 0, FIELDS);
            j.numbers(row);
        }
        j.end(']');
        j.name("gcs").begin('[');
        for (long g = fromGc; g < gcTotal; g++) {
            int k = (int) (g % MAX_GCS);
            long[] v = gcs[k];
            j.begin('[').value(v[0]).value(v[1]).value(gcNames[k][0]).value(gcNames[k][1]).value(v[2]).value(v[3]).end(']');
        }
        j.end(']');
        j.name("marks").begin('[');
        for (int i = fromMark; i < marks; i++) j.begin('[').value(markTimes[i]).value(markNames[i]).end(']');
        j.end(']');
    }

    /** How many samples are held (tests). */
    synchronized int samples() { return count; }

    synchronized long intervalMillis() { return intervalMillis; }

    private static volatile MemorySampler current;

    /** The running sampler (null when memoryInterval=0): the live channel sends its news with every delta. */
    public static MemorySampler get() { return current; }

    public static void install(MemorySampler s) { current = s; }
}
