package io.heaplens.runtime;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * sampler=jvmti's weights against HotSpot's rule (ThreadHeapSampler, JDK 17): a thread's bytes until the next sample
 * are drawn from an exponential of mean K; an allocation of s bytes is sampled when they run out inside it, and the
 * next distance is drawn afresh after it; otherwise they shrink by s. Each allocation is then sampled with chance
 * p(s) = 1 − e^(−s/K) independently of the others, so 1 / p per sample (Horvitz-Thompson) is unbiased and
 * Σ (1 − p) / p² over the samples estimates its variance. Simulated on a fixed, repeating allocation order (a large
 * array, then the same small objects: luindex's pattern) with a fixed seed, so the test's outcome is fixed.
 */
class HeapSampleWeightsTest {
    /** The cycle: sizes in bytes (an array of many K first, then small objects, one of them several times). */
    private static final long[] CYCLE = {20_016, 16, 32, 32, 32, 216, 4016};
    private static final long K = 2048;

    @Test
    void inclusionIsOneMinusExpOfSizeOverK() {
        assertEquals(1 - Math.exp(-16.0 / 16384), Sampler.inclusion(16, 16384), 1e-15);
        assertEquals(1 - Math.exp(-1.0), Sampler.inclusion(16384, 16384), 1e-15);
        assertEquals(1.0, Sampler.inclusion(1L << 30, 16384), 1e-12);
        assertEquals((1 - 0.25) / (0.25 * 0.25), Sampler.varianceFactor(0.25), 1e-12);   // 12
        assertEquals(0.0, Sampler.varianceFactor(1.0), 0.0);                               // always sampled: exact
    }

    /** One run over `cycles` cycles: per position of the cycle, the estimated count and its estimated variance. */
    private static double[][] run(SplittableRandom r, int cycles) {
        double[][] est = new double[CYCLE.length][2];
        double left = -Math.log(1 - r.nextDouble()) * K;
        for (int c = 0; c < cycles; c++) {
            for (int i = 0; i < CYCLE.length; i++) {
                long s = CYCLE[i];
                if (left < s) {                                       // the point falls inside this allocation
                    double p = Sampler.inclusion(s, K);
                    est[i][0] += 1 / p;
                    est[i][1] += Sampler.varianceFactor(p);
                    left = -Math.log(1 - r.nextDouble()) * K;         // drawn afresh after the sampled allocation
                } else {
                    left -= s;
                }
            }
        }
        return est;
    }

    @Test
    void estimatesAreUnbiasedAndTheStatedVarianceIsTheSpread() {
        SplittableRandom r = new SplittableRandom(331);
        int cycles = 20_000, reps = 300;
        double[][] sum = new double[CYCLE.length][3];                // Σ error, Σ error², Σ stated variance
        for (int rep = 0; rep < reps; rep++) {
            double[][] e = run(r, cycles);
            for (int i = 0; i < CYCLE.length; i++) {
                double err = e[i][0] - cycles;
                sum[i][0] += err;
                sum[i][1] += err * err;
                sum[i][2] += e[i][1];
            }
        }
        for (int i = 0; i < CYCLE.length; i++) {
            double meanErr = sum[i][0] / reps, spread = Math.sqrt(sum[i][1] / reps), stated = Math.sqrt(sum[i][2] / reps);
            String what = "position " + i + " (" + CYCLE[i] + " B): mean error " + meanErr + ", spread " + spread + ", stated sd " + stated;
            // the mean of 300 runs has sd spread / √300: within 4 of those it is unbiased
            assertTrue(Math.abs(meanErr) <= 4 * spread / Math.sqrt(reps) + 1e-9, what);
            if (CYCLE[i] < 5 * K) assertTrue(spread / stated > 0.85 && spread / stated < 1.15, what);
        }
    }
}
