package io.heaplens.agent.collect;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent's uncaught-exception handler in a heap that is still full when a thread dies: its report is tried again
 * (a CI run on JDK 25 lost it to "thrown from the UncaughtExceptionHandler" when the first print ran out of memory).
 */
class DyingThreadReportTest {
    /** Fails its first {@code failures} writes with an OutOfMemoryError, as a print into a full heap does. */
    private static final class FullHeapStream extends OutputStream {
        final ByteArrayOutputStream got = new ByteArrayOutputStream();
        int failures;

        FullHeapStream(int failures) { this.failures = failures; }

        @Override
        public void write(int b) {
            if (failures > 0) { failures--; throw new OutOfMemoryError("Java heap space"); }
            got.write(b);
        }

        String text() { return got.toString(StandardCharsets.UTF_8); }
    }

    private static Thread named(String name) {
        Thread t = new Thread(() -> { });
        t.setName(name);
        return t;
    }

    @Test
    void aReportCutShortIsPrintedAgainOnALineOfItsOwn() {
        FullHeapStream out = new FullHeapStream(1);
        new MemoryReserve.DyingThreadReport(null).handle(named("main"), new IllegalStateException("boom"), new PrintStream(out, true));
        String text = out.text();
        assertTrue(text.startsWith("\nException in thread \"main\" java.lang.IllegalStateException: boom"), text);
    }

    @Test
    void aHeapThatStaysFullGetsNoReportAndNoErrorOutOfTheHandler() {
        FullHeapStream out = new FullHeapStream(Integer.MAX_VALUE);
        new MemoryReserve.DyingThreadReport(null).handle(named("worker"), new OutOfMemoryError("Java heap space"), new PrintStream(out, true));
        assertEquals("", out.text());
        assertEquals(Integer.MAX_VALUE - MemoryReserve.DyingThreadReport.TRIES, out.failures, "one write tried per attempt");
    }

    @Test
    void aHandlerInstalledBeforeTheAgentIsHandedTheError() {
        List<Throwable> seen = new ArrayList<>();
        FullHeapStream out = new FullHeapStream(0);
        Throwable e = new IllegalStateException("theirs");
        new MemoryReserve.DyingThreadReport((t, x) -> seen.add(x)).handle(named("main"), e, new PrintStream(out, true));
        assertEquals(1, seen.size());
        assertSame(e, seen.get(0));
        assertEquals("", out.text());
    }
}
