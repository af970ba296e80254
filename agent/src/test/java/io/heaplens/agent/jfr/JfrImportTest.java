package io.heaplens.agent.jfr;

import io.heaplens.agent.wire.MiniJson;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JDK-side reader of `heaplens import` on a recording made here, and its checks of bad files. */
class JfrImportTest {
    /** 12-byte header + long + int + reference = 28 → 32 bytes with 8-byte alignment. */
    static final class Blob {
        long a; int b; Object c;
        Blob(int i) { a = i; b = i; c = this; }
    }

    static volatile Object sink;

    /**
     * At least {@code millis} of allocation and at least 16M Blobs (~0.5 GB with the arrays): allocation samples
     * come at TLAB refills, and a thread that gets little CPU on a loaded machine filled too few TLABs in a fixed
     * time to be sampled at all (the test failed then, once, in CI).
     */
    static void allocateBlobs(long millis) {
        long end = System.nanoTime() + millis * 1_000_000L;
        int i = 0;
        while (System.nanoTime() < end || i < (16 << 20)) {
            sink = new Blob(i++);
            if ((i & 63) == 0) sink = new int[200];
        }
    }

    @SuppressWarnings("unchecked")
    @Test
    void readsAllocationAndExecutionSamplesOfARecording(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("r.jfr");
        try (Recording r = new Recording()) {
            r.enable(JfrEvents.SAMPLE).with("throttle", "100000/s").withStackTrace();
            r.enable(JfrEvents.EXECUTION).withPeriod(Duration.ofMillis(10));
            r.enable("jdk.ActiveSetting");              // the settings in force: the execution sample period
            r.start();
            allocateBlobs(400);
            r.stop();
            r.dump(file);
        }
        StringWriter w = new StringWriter();
        JfrEvents.read(file, System.getProperty("java.class.path")).write(w);   // as heaplens import --cp
        Map<String, Object> doc = (Map<String, Object>) MiniJson.parse(w.toString());
        assertEquals("heaplens-jfr-events", doc.get("format"));
        assertEquals(10L, ((Number) doc.get("executionPeriodMillis")).longValue());
        List<List<Object>> frames = (List<List<Object>>) doc.get("frames");
        List<Object> blobs = null;
        for (List<Object> f : frames) if (f.get(1).equals("allocateBlobs")) blobs = f;
        assertNotNull(blobs, "a frame of allocateBlobs");
        assertEquals(JfrImportTest.class.getName(), blobs.get(0));
        assertEquals("(J)V", blobs.get(2));
        assertTrue(((Number) blobs.get(3)).longValue() > 0, "line number");
        assertEquals(Boolean.FALSE, blobs.get(5), "a class of the application, not the JDK's");

        List<List<Object>> classes = (List<List<Object>>) doc.get("classes");
        long blobSize = -1;
        int blobIndex = -1;
        for (int i = 0; i < classes.size(); i++) {
            if (classes.get(i).get(0).equals(Blob.class.getName())) { blobSize = ((Number) classes.get(i).get(1)).longValue(); blobIndex = i; }
        }
        assertEquals(32, blobSize, "Blob's size from its fields");
        assertEquals(32, JfrEvents.fieldsSize(Blob.class.getName(), JfrImportTest.class.getClassLoader()));
        long samples = 0, weight = 0;
        for (List<Object> row : (List<List<Object>>) doc.get("alloc")) {
            if (((Number) row.get(3)).intValue() == blobIndex) { samples += ((Number) row.get(4)).longValue(); weight += ((Number) row.get(5)).longValue(); }
        }
        assertTrue(samples >= 5 && weight > 0, "Blob samples: " + samples + ", weight " + weight);
        assertFalse(((List<?>) doc.get("cpu")).isEmpty(), "execution samples");
        List<?> first = (List<?>) doc.get("firstSamples");
        assertTrue(((Number) first.get(0)).longValue() >= 1, "each thread's first sample is set apart: " + first);
    }

    @Test
    void badFilesGetOneLine(@TempDir Path dir) throws Exception {
        Path text = dir.resolve("a.jfr");
        Files.writeString(text, "hello");
        assertTrue(JfrImport.checkFile(text.toFile(), 10).endsWith("not a JFR recording (it does not start with JFR's magic bytes FLR\\0)"));
        Path empty = dir.resolve("b.jfr");
        Files.write(empty, new byte[0]);
        assertEquals("b.jfr: the file is empty", JfrImport.checkFile(empty.toFile(), 10));
        Path big = dir.resolve("c.jfr");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.write(new byte[] {'F', 'L', 'R', 0});
            f.setLength(3L * 1024 * 1024);
        }
        assertTrue(JfrImport.checkFile(big.toFile(), 2).startsWith("c.jfr: 3 MiB is more than the import reads (2 MiB)"));
        assertEquals(null, JfrImport.checkFile(big.toFile(), 4));
        assertEquals(20, JfrEvents.millis("20 ms"));
        assertEquals(1000, JfrEvents.millis("1 s"));
        assertEquals(-1, JfrEvents.millis("everyChunk"));
    }

    @Test
    void aCutRecordingIsReportedNotThrown(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("r.jfr");
        try (Recording r = new Recording()) {
            r.enable(JfrEvents.SAMPLE).withStackTrace();
            r.start();
            allocateBlobs(50);
            r.stop();
            r.dump(file);
        }
        byte[] all = Files.readAllBytes(file);
        Path cut = dir.resolve("cut.jfr");
        Files.write(cut, java.util.Arrays.copyOf(all, Math.min(all.length - 1, 3000)));
        JfrEvents.BadRecording e = org.junit.jupiter.api.Assertions.assertThrows(JfrEvents.BadRecording.class, () -> JfrEvents.read(cut, null));
        assertTrue(e.getMessage().startsWith("cannot be read as a JFR recording: it is damaged or cut short"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }
}
