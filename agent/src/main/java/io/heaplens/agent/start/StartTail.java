package io.heaplens.agent.start;

import io.heaplens.agent.collect.AgentThreads;

/**
 * The start's steps after the transformer is installed that do not touch the classes being retransformed: the
 * process facts and node budget ({@link Launch#afterInstall}), the collector and its monitors (the platform MXBeans:
 * heap guard, memory chart, memory reserve). Run on an agent thread while the premain's thread retransforms the
 * classes loaded so far, so on two cores the two overlap (docs/benchmark.md "Start-up, Round 8"); joined before
 * {@code main}, so the JDK's first-time work they do is done before the program's, as it was on one thread. Started
 * once the loaded classes are listed: what it loads then loads through the transformer, once.
 */
final class StartTail implements Runnable {
    private final Launch l;
    /** verbose: the steps' milliseconds, for the start-up line (null: not verbose) */
    final StringBuilder steps;
    private Thread thread;
    private boolean started;
    private Throwable failed;

    StartTail(Launch l, boolean verbose) {
        this.l = l;
        this.steps = verbose ? new StringBuilder() : null;
    }

    /** Starts the steps on their own thread; where no thread can start, runs them here and now. */
    void start() {
        started = true;
        try {
            Thread t = new Thread(null, this, "heaplens-start", 1L << 20);
            t.setDaemon(true);
            t.start();
            thread = t;
        } catch (Throwable noThread) {
            thread = null;
            steps();
        }
    }

    @Override public void run() {
        AgentThreads.markCurrent();        // what the JDK allocates for it is the agent's, never the program's
        steps();
    }

    private void steps() {
        try {
            long t0 = System.nanoTime();
            l.afterInstall();
            if (steps != null) steps.append(" after-install ").append((System.nanoTime() - t0) / 1_000_000);
            l.collector();
            l.collector.prepareMonitors(steps);
        } catch (Throwable t) {
            failed = t;
        }
    }

    /** Waits for the steps; rethrows what they threw, as the premain's thread would have. */
    void join() throws Exception {
        if (!started) {                   // not started by the retransformation (nothing to retransform): run them here
            started = true;
            steps();
        }
        Thread t = thread;
        boolean interrupted = false;
        while (t != null) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        Throwable f = failed;
        if (f instanceof Exception) throw (Exception) f;
        if (f instanceof Error) throw (Error) f;
    }
}
