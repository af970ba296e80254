package io.heaplens.agent.collect;

import io.heaplens.agent.core.Options;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.*;

class MemorySamplerTest {
    private static String json(MemorySampler s) throws IOException {
        StringWriter w = new StringWriter();
        Json j = new Json(w);
        j.begin('{');
        s.write(j);
        j.end('}');
        return w.toString();
    }

    private static String since(MemorySampler s, MemorySampler.Cursor c) throws IOException {
        StringWriter w = new StringWriter();
        Json j = new Json(w);
        j.begin('{');
        boolean any = s.writeSince(j, c);
        j.end('}');
        return any ? w.toString() : null;
    }

    @Test
    void samplesTheRealHeapAndWritesTheSection() throws IOException {
        MemorySampler s = new MemorySampler(500);
        s.sample(1_000);
        s.record(1_200, 7, "G1 Young Generation", "G1 Evacuation Pause", 900, 300);
        s.mark("snapshot");
        String out = json(s);
        assertTrue(out.startsWith("{\"memory\":{\"intervalMillis\":500,\"samples\":[[1000,"), out);
        assertTrue(out.contains("\"gcs\":[[1200,7,\"G1 Young Generation\",\"G1 Evacuation Pause\",900,300]]"), out);
        assertTrue(out.matches(".*\"marks\":\\[\\[\\d+,\"snapshot\"]]}}"), out);
        // used ≤ committed, both positive: a real heap was read
        String[] row = out.substring(out.indexOf("[[1000,") + 2, out.indexOf("]]")).split(",");
        assertEquals(7, row.length);
        long used = Long.parseLong(row[1]), committed = Long.parseLong(row[2]);
        assertTrue(used > 0 && used <= committed, used + " / " + committed);
    }

    @Test
    void tickTakesASampleOncePerInterval() {
        MemorySampler s = new MemorySampler(500);
        s.tick(10_000);
        s.tick(10_250);
        s.tick(10_499);
        s.tick(10_500);
        assertEquals(2, s.samples());
    }

    @Test
    void fullHistoryIsThinnedToEveryOtherSampleAndTheIntervalDoubles() {
        MemorySampler s = new MemorySampler(100);
        for (int i = 0; i < MemorySampler.MAX_SAMPLES + 1; i++) s.sample(i * 100L);
        assertEquals(MemorySampler.MAX_SAMPLES / 2 + 1, s.samples());
        assertEquals(200, s.intervalMillis());
    }

    @Test
    void aChannelCursorGetsOnlyTheNews() throws IOException {
        MemorySampler s = new MemorySampler(100);
        MemorySampler.Cursor c = new MemorySampler.Cursor();
        s.sample(1_000);
        String first = since(s, c);
        assertTrue(first.contains("\"samples\":[[1000,"), first);
        assertNull(since(s, c), "nothing new");
        s.record(1_050, 3, "G1 Young Generation", "G1 Evacuation Pause", 10, 5);
        String second = since(s, c);
        assertTrue(second.contains("\"samples\":[]") && second.contains("[1050,3,"), second);
        // thinning renumbers the samples: the client is told to start again
        for (int i = 1; i < MemorySampler.MAX_SAMPLES + 1; i++) s.sample(1_000 + i * 100L);
        String after = since(s, c);
        assertTrue(after.contains("\"restart\":true"), after.substring(0, 80));
    }

    @Test
    void optionTurnsTheChartOffOrSetsItsStep() {
        assertEquals(500, Options.parse("out=/tmp/a").memoryMillis);
        assertEquals(0, Options.parse("out=/tmp/a,memoryInterval=0").memoryMillis);
        assertEquals(250, Options.parse("out=/tmp/a,memoryInterval=250").memoryMillis);
        assertFalse(Options.parse("out=/tmp/a,memoryInterval=10").errors.isEmpty());
    }
}
