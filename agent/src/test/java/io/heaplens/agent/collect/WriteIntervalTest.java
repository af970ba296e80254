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
    void aBigProfileWaitsTwentyTimesItsWriteASmallOneFiveTimes() {
        // checkstyle's exact profile: 43 MB of text, 0.44 s a write, so the next comes after 8.7 s instead of 2.2 s
        assertEquals(8_740, Collector.waitAfterWrite(1_000, 437, 43_139_863));
        // a small tree (h2: 1.4 MB, 18 ms a write) keeps the mode's interval
        assertEquals(1_000, Collector.waitAfterWrite(1_000, 18, 1_423_508));
        // a small profile written slowly on a loaded machine: a fifth of the time, as before (a cut channel's file
        // must still be rewritten within ~2 s, test/reliability/survive.test.ts)
        assertEquals(1_000, Collector.waitAfterWrite(1_000, 150, 1_423_508));
        assertEquals(1_500, Collector.waitAfterWrite(1_000, 300, (16L << 20) - 1));
        assertEquals(6_000, Collector.waitAfterWrite(1_000, 300, 16L << 20));
        assertEquals(5_000, Collector.waitAfterWrite(5_000, 200, 30_000_000));
    }
}
