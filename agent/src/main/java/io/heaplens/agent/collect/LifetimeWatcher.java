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
 * thread whose allocation moves the byte clock {@code target} bytes past the previous check point (a compare in
 * the clock probe, so the distance does not depend on this thread being scheduled), and only while tracked
 * objects are live. A due GC is never skipped: that is what makes the precision at most the largest target used,
 * which the file states as {@code precisionTarget} (before, a GC skipped for the time cap left gaps of 30 MB under
 * a stated 11.7 MB target). How the target is chosen:
 * <ul>
 * <li>time budget (default; the drag-profiler report problem 4.2: no cycle size for the user to tune): after each
 *     forced GC the target becomes the allocation rate times the spacing that keeps forced GCs at {@link #BUDGET}
 *     of the run time (mean GC duration / BUDGET), never below {@link #MIN_TARGET}, and up to twice as far
 *     while the forced GCs so far are over BUDGET. The file states the share reached (forced GCs' time and the
 *     run's): a short run can end over BUDGET, since its first GCs come before the rate is known;</li>
 * <li>a share of the bytes allocated ({@code lifetimePrecision=1%}): the target is that share of the clock, so the
 *     precision ends at most that share of all bytes allocated, whatever the forced GCs cost (the file and the view
 *     say what they cost).</li>
 * </ul>
 */
public final class LifetimeWatcher implements Lifetimes.Checkpoint {
    static final double BUDGET = 0.1;
    static final long MIN_TARGET = 64 * 1024, START_TARGET = 1024 * 1024;

    private final LifetimeTable table = new LifetimeTable();
    private final long startNanos = System.nanoTime();
    /** 0: the time budget chooses the target; else the share of the bytes allocated so far (0.01 = 1 %). */
    private final double share;
    private long target;
    /** The largest target used so far: the precision the mode guarantees. */
    private long maxTarget;
    /** The clock of the next check point. */
    private long scheduled;
    /** Start clock of the latest forced GC whose survivors are marked (-1: none yet). */
    private long lastGc = -1;
    private long gcNanos, forcedGcs, precision;
    private boolean finished;

    public LifetimeWatcher(double share) {
        this.share = share;
        this.target = share > 0 ? MIN_TARGET : START_TARGET;
        this.maxTarget = target;
    }

    public LifetimeTable table() { return table; }

    /**
     * No thread of its own: the queue is polled by the allocating thread at each check point, so a reference is
     * stamped at most one target after it was enqueued, however the scheduler treats a watcher thread (on a loaded
     * machine a separate thread stamped objects many megabytes late).
     */
    public void start() {
        Lifetimes.checkpoint = this;
        scheduled = target;
        Lifetimes.nextCheck = target;
    }

    /** On the allocating thread, when the clock passed the next check point. */
    @Override
    public synchronized void due() {
        if (finished) return;
        poll();                                             // what young GCs found since: stamped now, not later
        if (Lifetimes.liveCount() > 0) forceGc();
        // From the check point, not from now: the allocation that crossed it (a big array) must not add to the spacing.
        scheduled = Math.max(scheduled, Lifetimes.clock - target / 2) + target;
        Lifetimes.nextCheck = scheduled;
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
        target = nextTarget();
        maxTarget = Math.max(maxTarget, target);
    }

    private long nextTarget() {
        if (share > 0) return Math.max(MIN_TARGET, (long) (share * Lifetimes.clock));
        // Bytes between forced GCs such that their time stays at BUDGET of the run: the program's allocation rate
        // times the time one GC may be spaced by (its mean duration / BUDGET), never below MIN_TARGET — and at least
        // the time until the GCs so far are back within BUDGET of the run (early GCs, while the rate and the GC
        // duration are unknown, run over it), up to 2 spacings. The rate is per nanosecond of the program's own time: with the forced
        // GCs' time in it, the rate looks lower, the target shrinks and more GCs are forced.
        double elapsed = Math.max(1, System.nanoTime() - startNanos);
        double rate = Lifetimes.clock / Math.max(1, elapsed - gcNanos);   // bytes per ns
        double spacing = (double) gcNanos / forcedGcs / BUDGET;           // ns
        double debt = gcNanos / BUDGET - elapsed;                          // ns
        // The catch-up is bounded (2 spacings), so that one slow early GC does not make the precision useless.
        return Math.max(MIN_TARGET, (long) (rate * Math.max(spacing, Math.min(debt, 2 * spacing))));
    }

    private void retire(Life l, long dequeued) {
        if (l.unreachable >= 0) return;
        long lastKnown = Math.max(l.knownReachable, Math.max(l.lastUse, l.lastPut));
        // Found cleared after a forced GC: that GC (or a young one before it) cleared it, so it was unreachable at
        // its start. Else a young GC cleared it since the latest forced GC, and it was dequeued at the next check point.
        long u = l.seenCleared >= 0 ? Math.min(l.seenCleared, dequeued) : dequeued;
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
        long prec, tgt, gcs, gcMs, runMs;
        synchronized (this) {
            prec = precision; tgt = maxTarget; gcs = forcedGcs; gcMs = gcNanos / 1_000_000;
            runMs = (System.nanoTime() - startNanos) / 1_000_000;
        }
        j.name("lifetimes").begin('{')
            .field("sampleEvery", Lifetimes.sampleEvery).field("clock", Lifetimes.clock).field("precision", prec)
            .field("precisionTarget", tgt).field("precisionRule", share > 0 ? "share" : "time")
            .field("precisionShareBp", (long) Math.round(share * 10_000)).field("gcBudgetPercent", (long) Math.round(BUDGET * 100))
            .field("forcedGcs", gcs).field("forcedGcMillis", gcMs).field("runMillis", runMs)
            .field("tracked", Lifetimes.tracked).field("live", Lifetimes.liveCount()).field("complete", finished);
        table.write(j, Lifetimes.traces(), sites, types, methods);
        j.end('}');
    }
}
