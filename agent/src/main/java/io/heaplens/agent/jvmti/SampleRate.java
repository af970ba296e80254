package io.heaplens.agent.jvmti;

import io.heaplens.agent.collect.AgentThreads;
import io.heaplens.runtime.HeapSampler;

/**
 * sampler=jvmti's rate budget (agent option sampleRate, samples a second; 0 keeps K fixed). A heap sample of a deep
 * stack costs ~9 µs, three quarters of it HotSpot's own stack walk (docs/benchmark.md "Issue 18, round 6"), so a
 * program that allocates fast pays in proportion. Four times a second this thread counts HotSpot's sample events and,
 * while they exceed the budget, raises the mean interval K (at most 2× a step, at most {@link #MAX_FACTOR}× the
 * configured one); once the rate falls under half the budget it lowers K back towards the configured value (at most
 * ½× a step), aiming at ¾ of the budget so that it does not swing back. Each sample keeps an exact weight: the
 * native side weighs it with the K its thread's distance was drawn with (docs/modes.md "sampler=jvmti").
 */
public final class SampleRate {
    private SampleRate() {}

    /** K never goes above this many times the configured interval (the estimates' spread grows as √K). */
    public static final int MAX_FACTOR = 16;
    static final long TICK_MILLIS = 250;

    /**
     * The next interval: {@code k} the present one, {@code base} the configured one, {@code events} HotSpot's
     * samples over {@code nanos}, {@code budget} samples a second. The rate falls as 1 / K for a program allocating
     * at a steady pace, so K · rate / budget would meet the budget.
     */
    public static long next(long k, long base, long events, long nanos, int budget) {
        if (budget <= 0 || nanos <= 0) return k;
        long max = base * MAX_FACTOR;
        double rate = events * 1e9 / nanos;
        double target;
        if (rate > budget) target = Math.min(2.0 * k, k * rate / budget);
        else if (rate < budget / 2.0 && k > base) target = Math.max(k / 2.0, k * rate / (0.75 * budget));
        else return k;
        return Math.max(base, Math.min(max, Math.round(target)));
    }

    /** Starts the thread when HotSpot's sampler is in use and a budget is set. */
    public static void start(int budget) {
        if (budget <= 0 || !HeapSampler.ready()) return;
        try {
            AgentThreads.start("heaplens-sample-rate", () -> run(budget));
            HeapSampler.rateBudget = budget;
        } catch (Throwable t) {
            // no thread (e.g. none can be created now): K stays fixed, the profile says sampleRate 0
        }
    }

    private static void run(int budget) {
        long lastEvents = HeapSampler.eventCount(), lastTime = System.nanoTime();
        try {
            while (true) {
                Thread.sleep(TICK_MILLIS);
                long e = HeapSampler.eventCount(), t = System.nanoTime();
                long k = HeapSampler.meanBytes;
                long n = next(k, HeapSampler.baseBytes, e - lastEvents, t - lastTime, budget);
                if (n != k) HeapSampler.setInterval(n);
                lastEvents = e;
                lastTime = t;
            }
        } catch (InterruptedException stop) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            // the program must never break because of the profiler: K simply stays where it is
        }
    }
}
