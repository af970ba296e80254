package io.heaplens.runtime;

import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;

/**
 * Memory accounts (Bouché et al. 2009 §4–5). The thread's current account lives in its {@link ThreadState}; an accounted
 * method saves it in a local on entry, sets its own, and restores the saved one at every return and in a
 * method-wide exception handler ({@code instrument/AccountProbes}; the restore is a plain field store). Allocations in the accounts mode are charged
 * to the current account ({@link Recorder}'s shared path).
 *
 * Liveness: when it is on, a probe after each construction / array allocation hands the new object to
 * {@link #born}; every object (exact) or a random one in {@link #every} on average (sampled) gets a weak
 * reference on a queue, linked into a list so that it stays reachable until the agent's thread dequeues it
 * (the refund). The list is walked at each snapshot: the referents still alive are the live objects, each
 * standing for {@link Tracked#weight} objects. The default ("auto") tracks every object while that is cheap —
 * the first {@link #exactFirst} — and then one in {@link #sampledEvery}: small programs get exact live counts,
 * big ones a bounded cost and an estimate with an interval.
 */
public final class Accounts {
    /** Set by the agent before any class is instrumented. */
    public static volatile boolean liveness;
    /** Sampling period of liveness tracking: 1 = every object. */
    public static volatile int every = 1;
    /** Auto liveness: after this many tracked objects, {@link #every} becomes {@link #sampledEvery}; 0 = never. */
    public static volatile long exactFirst;
    public static volatile int sampledEvery = 1;
    /** Garbage collections seen so far (kept up to date by the agent's liveness thread). */
    public static volatile int gcEpoch;

    public static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();
    private static final Object LOCK = new Object();
    /** Head of the doubly linked list of tracked objects not yet dequeued. */
    private static Tracked head;
    private static long tracked, refunded;

    /** A tracked object: the account it was charged to and the collections seen when it was born. */
    public static final class Tracked extends WeakReference<Object> {
        public final int account;
        public final int born;
        /** How many objects this one stands for: 1 when tracked exactly, the sampling period when sampled. */
        public final int weight;
        Tracked prev, next;

        Tracked(Object o, int account, int born, int weight) {
            super(o, QUEUE);
            this.account = account;
            this.born = born;
            this.weight = weight;
        }

        public Tracked next() { return next; }
    }

    private Accounts() {}

    // ---- probes in accounted methods ------------------------------------------------------------------------
    /**
     * Method entry (after {@code ts = ThreadState.current()}, kept in a local): the account becomes current; returns
     * the caller's, which the method keeps in a local and writes back to {@code ts.account} at every exit.
     */
    @ForceInline
    public static int enter(ThreadState ts, int account) {
        int saved = ts.account;
        ts.account = account;
        return saved;
    }

    // ---- liveness ----------------------------------------------------------------------------------------------
    /** After a constructor call that completed a {@code new}, or after an array allocation: [obj] → []. */
    @ForceInline
    public static void born(Object o) {
        if (Mode.current() != Mode.ACCOUNTS) return;
        ThreadState ts = ThreadState.current();
        if (ts.busy != 0 || ts.agentThread) return;
        int n = every;
        if (n > 1 && --ts.liveLeft > 0) return;
        track(ts, o, n);
    }

    @DontInline
    private static void track(ThreadState ts, Object o, int n) {
        if (n > 1) ts.liveLeft = nextGap(ts, n);
        ts.busy++;
        try {
            Tracked t = new Tracked(o, ts.account, gcEpoch, n);
            synchronized (LOCK) {
                t.next = head;
                if (head != null) head.prev = t;
                head = t;
                if (++tracked == exactFirst && sampledEvery > 1) every = sampledEvery;
            }
        } finally {
            ts.busy--;
        }
    }

    /** A gap drawn uniformly from 1..2n-1 (mean n): a fixed period could alias with a program's loop. */
    private static int nextGap(ThreadState ts, int n) {
        long x = ts.random;
        x ^= x << 13; x ^= x >>> 7; x ^= x << 17;
        ts.random = x;
        return 1 + (int) ((x >>> 1) % (2L * n - 1));
    }

    /** Called by the agent's liveness thread for each dequeued reference: the object is gone (refunded). */
    public static void refund(Tracked t) {
        synchronized (LOCK) {
            if (t.prev == null && head != t) return;      // already unlinked
            if (t.prev != null) t.prev.next = t.next; else head = t.next;
            if (t.next != null) t.next.prev = t.prev;
            t.prev = t.next = null;
            refunded++;
        }
    }

    /** Walks the tracked objects under the lock (allocating threads wait while it runs). */
    public interface Visitor { void visit(Tracked t); }

    public static void forEachTracked(Visitor v) {
        synchronized (LOCK) {
            for (Tracked t = head; t != null; t = t.next) v.visit(t);
        }
    }

    /** True once auto liveness went from tracking every object to sampling. */
    public static boolean sampling() { return every > 1; }

    /** {tracked so far, refunded so far}. */
    public static long[] counts() {
        synchronized (LOCK) { return new long[] {tracked, refunded}; }
    }
}
