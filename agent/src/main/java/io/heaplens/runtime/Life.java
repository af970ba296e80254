package io.heaplens.runtime;

import java.lang.ref.WeakReference;

/**
 * One tracked (sampled) object's lifetime record (Pan 2001 (HUP) §2.2). Times are bytes allocated since the start
 * ({@link Lifetimes#clock}). The record is a weak reference to its object: the GC clears it and enqueues it on
 * {@link Lifetimes#QUEUE} when the object becomes unreachable, which is how the unreachable time is observed.
 * Fields are written racily by the program's threads (a use is a few plain stores): a lost update moves a
 * first/last use by one use at most.
 */
public final class Life extends WeakReference<Object> {
    /** Allocation site key (Keys: site + type). */
    public final int key;
    /** Estimated size in bytes. */
    public final long size;
    /** Allocation time and the trace (nested allocation site) id. */
    public final long born;
    public final int allocTrace;
    /** Identity hash (arrays only, for the identity table), else 0. */
    final int hash;
    public final boolean array;
    /** Arrays: the length (kept, since the array is gone when the record is retired); -1 otherwise. */
    public final int length;
    public long firstUse = -1, lastUse = -1, firstPut = -1, lastPut = -1;
    /** Use/put sites: method id << 32 | line. */
    public long firstUseSite = -1, lastUseSite = -1, firstPutSite = -1, lastPutSite = -1;
    /** The full calling trace of the first use (id in the trace table), -1 when none. */
    public int firstUseTrace = -1;
    public long uses, puts;
    /** Set when the GC cleared the reference (or at exit for the reachable ones). */
    public long unreachable = -1;
    /** The clock when the object was last known reachable for sure (a full GC it survived). */
    public long knownReachable;
    /**
     * The start clock of the first forced GC after which the reference was found cleared (-1: none yet). The
     * reference may reach the queue much later (the JVM's reference handler is a thread of its own), so this, not
     * the forced GC current when it is dequeued, bounds when the object became unreachable.
     */
    public long seenCleared = -1;
    public boolean reachableAtExit;
    /** Live list links (guarded by Lifetimes.LOCK). */
    Life prev, next;

    Life(Object o, int key, long size, long born, int allocTrace, int hash, int length) {
        super(o, Lifetimes.QUEUE);
        this.key = key;
        this.size = size;
        this.born = born;
        this.allocTrace = allocTrace;
        this.hash = hash;
        this.array = length >= 0;
        this.length = length;
        this.knownReachable = born;
    }

    void use(long site) {
        long t = Lifetimes.clock;
        if (firstUse < 0) {
            firstUse = t;
            firstUseSite = site;
            firstUseTrace = Lifetimes.trace();
        }
        lastUse = t;
        lastUseSite = site;
        uses++;
    }

    void put(long site) {
        long t = Lifetimes.clock;
        if (firstPut < 0) {
            firstPut = t;
            firstPutSite = site;
        }
        lastPut = t;
        lastPutSite = site;
        puts++;
    }
}
