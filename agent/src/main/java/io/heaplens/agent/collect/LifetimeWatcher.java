package io.heaplens.agent.collect;

import io.heaplens.runtime.Life;
import io.heaplens.runtime.Lifetimes;

import java.io.IOException;
import java.lang.ref.Reference;
import java.util.BitSet;

/**
 * Observes tracked objects becoming unreachable (Pan 2001 (HUP) §2.2, the drag-profiler report §1.1): the GC clears each record's weak
 * reference and enqueues it; the check points below take it off the queue.
 *
 * <p>Precision. An object is known reachable at its allocation, its last use or put, and at the start of every
 * forced full GC its reference survived ({@code knownReachable}). It is known unreachable at the start of the
 * latest forced GC it did not survive, or else when its reference is dequeued. The unreachable time recorded is
 * that upper bound; the precision reported is the largest gap between the two bounds over all objects.
 *
 * <p>Cycle. Young collections find short-lived objects for free; older ones need a full GC. It is forced by the
 * thread whose allocation moves the byte clock {@code target} bytes past the previous forced GC (a compare in
 * the clock probe, so the distance does not depend on this thread being scheduled), and only while tracked
 * objects are live. The target adapts to the overhead budget (the drag-profiler report problem 4.2: no cycle size for the user
 * to tune): after each forced GC the target becomes the allocation rate times the spacing that keeps forced GCs
 * at {@link #BUDGET} of the run time (mean GC duration / BUDGET), never below {@link #MIN_TARGET}; and no GC is
 * forced while forced GCs have already taken more than BUDGET of the time since the start.
 */
public final class LifetimeWatcher implements Lifetimes.Checkpoint {
    static final double BUDGET = 0.1;
    static final long MIN_TARGET = 64 * 1024, START_TARGET = 1024 * 1024;

    private final LifetimeTable table = new LifetimeTable();
    private final long startNanos = System.nanoTime();
    private long target = START_TARGET;
    /** Start clock of the latest forced GC whose survivors are marked (-1: none yet). */
    private long lastGc = -1;
    private long gcNanos, forcedGcs, precision;
    private boolean finished;

    public LifetimeTable table() { return table; }

    /**
     * No thread of its own: the queue is polled by the allocating thread at each check point, so a reference is
     * stamped at most one target after it was enqueued, however the scheduler treats a watcher thread (on a loaded
     * machine a separate thread stamped objects many megabytes late).
     */
    public void start() {
        Lifetimes.checkpoint = this;
        Lifetimes.nextCheck = target;
    }

    /** On the allocating thread, when the clock passed the next check point. */
    @Override
    public synchronized void due() {
        if (finished) return;
        poll();                                             // what young GCs found since: stamped now, not later
        long now = Lifetimes.clock;
        // A hard cap as well: the spacing below is an estimate, and GCs that ran long (a loaded machine) must not
        // push the overhead past the budget; the precision then degrades, and the file says by how much.
        boolean affordable = gcNanos <= BUDGET * (System.nanoTime() - startNanos);
        if (affordable && Lifetimes.liveCount() > 0 && now - Math.max(0, lastGc) >= target / 2) forceGc();
        Lifetimes.nextCheck = Lifetimes.clock + target;
    }

    private void poll() {
        Reference<?> r;
        while ((r = Lifetimes.QUEUE.poll()) != null) retire((Life) r, Lifetimes.clock);
    }

    private void forceGc() {
        long g = Lifetimes.clock, t0 = System.nanoTime();
        System.gc();
        gcNanos += System.nanoTime() - t0;
        forcedGcs++;
        Lifetimes.markReachable(g);                         // the survivors were reachable at g
        lastGc = g;
        // Bytes between forced GCs such that their time stays at BUDGET of the run: the program's allocation rate
        // times the time one GC may be spaced by (its mean duration / BUDGET), never below MIN_TARGET.
        double elapsed = Math.max(1, System.nanoTime() - startNanos);
        double rate = Lifetimes.clock / elapsed;                          // bytes per ns
        double spacing = (double) gcNanos / forcedGcs / BUDGET;           // ns
        target = Math.max(MIN_TARGET, (long) (rate * spacing));
    }

    private void retire(Life l, long dequeued) {
        if (l.unreachable >= 0) return;
        long lastKnown = Math.max(l.knownReachable, Math.max(l.lastUse, l.lastPut));
        // Not marked by the latest forced GC: that GC (or an earlier one) cleared it, so it was unreachable at its start.
        long u = lastGc >= 0 && l.knownReachable < lastGc ? Math.min(lastGc, dequeued) : dequeued;
        u = Math.max(u, lastKnown);
        l.unreachable = u;
        precision = Math.max(precision, u - lastKnown);
        Lifetimes.retire(l);
        table.add(l);
    }

    /** At exit: one last full GC, then every object still reachable is reachable until the end. */
    public synchronized void finish() {
        if (finished) return;
        try {
            if (Lifetimes.liveCount() > 0) {
                forceGc();
                Reference<?> r;
                while ((r = Lifetimes.QUEUE.remove(50)) != null) retire((Life) r, Lifetimes.clock);
            }
        } catch (Throwable ignored) { }
        long end = Lifetimes.clock;
        for (Life l : Lifetimes.liveRecords()) {
            if (l.unreachable >= 0) continue;
            l.unreachable = Math.max(end, Math.max(l.lastUse, l.lastPut));
            l.reachableAtExit = true;
            Lifetimes.retire(l);
            table.add(l);
        }
        finished = true;
    }

    public void write(Json j, BitSet sites, BitSet types, BitSet methods) throws IOException {
        long prec, tgt, gcs, gcMs;
        synchronized (this) { prec = precision; tgt = target; gcs = forcedGcs; gcMs = gcNanos / 1_000_000; }
        j.name("lifetimes").begin('{')
            .field("sampleEvery", Lifetimes.sampleEvery).field("clock", Lifetimes.clock).field("precision", prec)
            .field("precisionTarget", tgt).field("forcedGcs", gcs).field("forcedGcMillis", gcMs)
            .field("tracked", Lifetimes.tracked).field("live", Lifetimes.liveCount()).field("complete", finished);
        table.write(j, Lifetimes.traces(), sites, types, methods);
        j.end('}');
    }
}
