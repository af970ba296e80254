package io.heaplens.agent.collect;

import io.heaplens.runtime.Accounts;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;

/**
 * Drains the liveness reference queue (each dequeued reference is a refund: its object was reclaimed) and keeps
 * {@link Accounts#gcEpoch}, the number of collections so far, current for the generation counts. Concurrent
 * cycles (G1's "G1 Concurrent GC") are not collections that reclaim objects and are not counted.
 */
public final class LivenessThread {
    private LivenessThread() {}

    public static void start() {
        AgentThreads.start("heaplens-liveness", new Runnable() { @Override public void run() { loop(); } });
    }

    private static void loop() {
        while (true) {
            try {
                Reference<?> r = Accounts.QUEUE.remove(100);
                while (r != null) {
                    if (r instanceof Accounts.Tracked) Accounts.refund((Accounts.Tracked) r);
                    r = Accounts.QUEUE.poll();
                }
                updateEpoch();
            } catch (InterruptedException e) {
                return;
            } catch (Throwable t) {
                // keep draining: a lost refund only leaves an object counted live until the next snapshot walk
            }
        }
    }

    public static synchronized void updateEpoch() {
        long sum = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (b.getName().contains("Concurrent")) continue;
            long c = b.getCollectionCount();
            if (c > 0) sum += c;
        }
        if (sum > Accounts.gcEpoch) Accounts.gcEpoch = (int) sum;
    }
}
