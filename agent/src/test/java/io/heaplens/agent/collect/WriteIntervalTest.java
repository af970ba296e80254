package io.heaplens.agent.collect;

import io.heaplens.agent.core.Options;
import io.heaplens.runtime.Mode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The periodic profile write: every second in exact, every 5 s in the low-overhead modes, unless interval is given. */
class WriteIntervalTest {
    @Test
    void lowOverheadModesWriteEveryFiveSecondsByDefault() {
        Options o = Options.parse("out=x.heaplens");
        assertEquals(1000, Collector.writeInterval(o, Mode.EXACT));
        assertEquals(1000, Collector.writeInterval(o, Mode.ACCOUNTS));
        assertEquals(5000, Collector.writeInterval(o, Mode.SAMPLED));
        assertEquals(5000, Collector.writeInterval(o, Mode.SITES));
        assertEquals(5000, Collector.writeInterval(o, Mode.PAUSED));
    }

    @Test
    void anExplicitIntervalHoldsInEveryMode() {
        Options o = Options.parse("out=x.heaplens,interval=700");
        for (int m : new int[] {Mode.EXACT, Mode.SITES, Mode.SAMPLED, Mode.PAUSED}) assertEquals(700, Collector.writeInterval(o, m));
        Options slow = Options.parse("out=x.heaplens,interval=9000");
        assertEquals(9000, Collector.writeInterval(slow, Mode.EXACT));
    }

    @Test
    void writesAreSpacedByTheirOwnCpuCostUpToTenSeconds() {
        Options o = Options.parse("out=x.heaplens");
        long ms = 1_000_000L;
        assertEquals(1000, Collector.spacedInterval(o, Mode.EXACT, 3, 5 * ms));       // 5 ms: 2 % of 250 ms, the second holds
        assertEquals(2500, Collector.spacedInterval(o, Mode.EXACT, 60, 50 * ms));     // 50 ms of CPU: 2 % of 2.5 s
        assertEquals(10_000, Collector.spacedInterval(o, Mode.EXACT, 900, 900 * ms)); // capped at 10 s
        assertEquals(25_000, Collector.spacedInterval(o, Mode.EXACT, 5000, 900 * ms)); // a fifth of the wall time still holds
        assertEquals(5000, Collector.spacedInterval(o, Mode.SITES, 3, 5 * ms));
        assertEquals(1000, Collector.spacedInterval(o, Mode.EXACT, 3, 0));            // no CPU time measured
    }

    @Test
    void anExplicitIntervalIsNotSpacedByCost() {
        Options o = Options.parse("out=x.heaplens,interval=1000");
        assertEquals(1000, Collector.spacedInterval(o, Mode.EXACT, 60, 50 * 1_000_000L));
        assertEquals(1500, Collector.spacedInterval(o, Mode.EXACT, 300, 300 * 1_000_000L));
    }
}
