package io.heaplens.agent.jvmti;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The rate budget's arithmetic: K · rate / budget, at most 2× up or ½× down a step, within [base, 16 × base]. */
class SampleRateTest {
    private static final long KIB = 1024, SEC = 1_000_000_000L;

    @Test
    void underTheBudgetKStays() {
        assertEquals(64 * KIB, SampleRate.next(64 * KIB, 64 * KIB, 1500, SEC, 2000));
        assertEquals(64 * KIB, SampleRate.next(64 * KIB, 64 * KIB, 0, SEC, 2000));     // never below the base
        assertEquals(64 * KIB, SampleRate.next(64 * KIB, 64 * KIB, 2000, SEC, 2000));  // at the budget exactly
    }

    @Test
    void overTheBudgetKRisesByTheRatioAtMostTwice() {
        // 500 events in 250 ms = 2,000/s against 1,000/s: 2×
        assertEquals(128 * KIB, SampleRate.next(64 * KIB, 64 * KIB, 500, SEC / 4, 1000));
        // 1.5× over: 1.5×
        assertEquals(96 * KIB, SampleRate.next(64 * KIB, 64 * KIB, 3000, SEC, 2000));
        // 11,600/s against 2,000/s: capped at 2× a step
        assertEquals(128 * KIB, SampleRate.next(64 * KIB, 64 * KIB, 11_600, SEC, 2000));
    }

    @Test
    void neverAbove16TimesTheBase() {
        assertEquals(1024 * KIB, SampleRate.next(768 * KIB, 64 * KIB, 10_000, SEC, 2000));
        assertEquals(1024 * KIB, SampleRate.next(1024 * KIB, 64 * KIB, 10_000, SEC, 2000));
    }

    @Test
    void belowHalfTheBudgetKFallsTowardsThreeQuartersOfIt() {
        // 600/s at K = 512 KiB, budget 2,000: 512 KiB · 600 / 1,500 = 204.8 KiB, but at most ½× a step
        assertEquals(256 * KIB, SampleRate.next(512 * KIB, 64 * KIB, 600, SEC, 2000));
        // 900/s: 512 KiB · 900 / 1,500 = 307.2 KiB = 314,572.8 bytes, rounded
        assertEquals(314_573, SampleRate.next(512 * KIB, 64 * KIB, 900, SEC, 2000));
        // between half the budget and the budget: no change (no swinging)
        assertEquals(512 * KIB, SampleRate.next(512 * KIB, 64 * KIB, 1200, SEC, 2000));
        // idle: down by half, not below the base
        assertEquals(64 * KIB, SampleRate.next(96 * KIB, 64 * KIB, 0, SEC, 2000));
    }

    @Test
    void noBudgetOrNoTimeKeepsK() {
        assertEquals(64 * KIB, SampleRate.next(64 * KIB, 64 * KIB, 100_000, SEC, 0));
        assertEquals(128 * KIB, SampleRate.next(128 * KIB, 64 * KIB, 0, 0, 2000));
    }
}
