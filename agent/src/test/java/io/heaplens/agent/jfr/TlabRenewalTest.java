package io.heaplens.agent.jfr;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TLAB renewal model against a simulation of HotSpot's rule (with the sampler's flags): a thread's TLAB has T
 * words free after the allocation that opened it; an allocation that does not fit opens the next one and is seen.
 * Sizes are drawn independently from a mix of small objects, arrays near T and arrays larger than T.
 */
class TlabRenewalTest {
    private static final int T = 1976;                        // 15,808 bytes: 16 KiB less x86's C2 end reserve
    private static final int[] WORDS = {2, 8, 202, 1502, 3752};   // 16 B, 64 B, 1616 B, 12016 B (0.76 T), 30016 B (> T)
    private static final int[] WEIGHT = {4000, 1000, 40, 5, 2};
    /** Two-sided normal quantile for 1e-6 / 10 (five types, counts and bytes): P(|Z| > 5.45) = 5.0e-8 each. */
    private static final double Z = 5.45;

    /** Per type: true count, estimated count and bytes, their variances; estimated the agent's way (online). */
    private static double[][] simulate(long seed, int draws, boolean renewal) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int total = 0;
        for (int w : WEIGHT) total += w;
        TlabRenewal model = new TlabRenewal(T);
        double[][] out = new double[WORDS.length][5];
        int used = 0;
        for (int i = 0; i < draws; i++) {
            int r = rnd.nextInt(total), t = 0;
            while (r >= WEIGHT[t]) r -= WEIGHT[t++];
            int s = WORDS[t];
            out[t][0]++;
            if (used + s <= T) {
                used += s;
                continue;
            }
            used = 0;                                        // seen: it opened a TLAB with T words free after it
            long bytes = 8L * s;
            double pi;
            if (renewal) {
                model.add(bytes);
                pi = model.inclusion(bytes);
            } else {
                pi = Math.min(1, s / (double) T);            // the plain s / T weight
            }
            Estimate e = Estimate.of(bytes, pi);
            out[t][1] += e.count;
            out[t][2] += e.countVariance;
            out[t][3] += e.bytes;
            out[t][4] += e.bytesVariance;
        }
        return out;
    }

    @Test
    void renewalWeightsAreUnbiasedPerTypeWithinTheirIntervals() {
        for (long seed : new long[] {1, 2, 3}) {
            double[][] est = simulate(seed, 4_000_000, true);
            for (int t = 0; t < WORDS.length; t++) {
                double truth = est[t][0], truthBytes = truth * 8 * WORDS[t];
                double count = est[t][1], sdCount = Math.sqrt(est[t][2]), bytes = est[t][3], sdBytes = Math.sqrt(est[t][4]);
                assertTrue(Math.abs(count - truth) <= Z * sdCount + 1e-9,
                    "seed " + seed + ", " + 8 * WORDS[t] + " B: count " + count + " vs " + truth + " (sd " + sdCount + ")");
                assertTrue(Math.abs(bytes - truthBytes) <= Z * sdBytes + 1e-9,
                    "seed " + seed + ", " + 8 * WORDS[t] + " B: bytes " + bytes + " vs " + truthBytes + " (sd " + sdBytes + ")");
                if (WORDS[t] > T) assertEquals(truth, count, 0.0, "larger than T: every one is seen");
                else assertTrue(sdCount > 0 && sdCount < 0.03 * truth, "the interval is informative: sd " + sdCount + " of " + truth);
            }
        }
    }

    @Test
    void plainSizeOverTWeightsUndercountSmallObjectsAmongArraysNearT() {
        // Why the model exists: arrays near T end TLABs early, so a small object seldom finds its TLAB nearly full
        double[][] est = simulate(1, 4_000_000, false);
        double small = est[0][1], truth = est[0][0], sd = Math.sqrt(est[0][2]);
        assertTrue(truth - small > Z * sd, "s / T weights: 16 B count " + small + " vs " + truth + " (sd " + sd + ")");
    }

    @Test
    void estimateWeighsOneOverTheInclusionProbability() {
        Estimate e = Estimate.of(16, 0.25);
        assertEquals(4, e.count, 1e-12);
        assertEquals(64, e.bytes, 1e-12);
        assertEquals(12, e.countVariance, 1e-12);
        assertEquals(16 * 16 * 12, e.bytesVariance, 1e-9);
        Estimate always = Estimate.of(30016, 1);
        assertEquals(1, always.count, 0);
        assertEquals(0, always.bytesVariance, 0);
        assertThrows(IllegalArgumentException.class, () -> Estimate.of(16, 0));
        assertThrows(IllegalArgumentException.class, () -> Estimate.of(0, 0.5));
    }
}
