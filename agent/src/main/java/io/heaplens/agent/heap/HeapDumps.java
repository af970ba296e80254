package io.heaplens.agent.heap;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** HPROF heap dumps through the HotSpot diagnostic MXBean (docs/heap.md, "Taking dumps"). */
public final class HeapDumps {
    private HeapDumps() {}

    /** What a dump produced. */
    public static final class Result {
        public final String file;
        public final long bytes;
        public final long millis;

        Result(String file, long bytes, long millis) {
            this.file = file;
            this.bytes = bytes;
            this.millis = millis;
        }
    }

    /**
     * Dumps the heap to {@code file} (absolute, or relative to the JVM's working directory). {@code live}: only
     * reachable objects (a full GC first). An existing file is replaced only when {@code overwrite}; the name must
     * end with .hprof (the MXBean requires it).
     */
    public static Result dump(String file, boolean live, boolean overwrite) throws IOException {
        Path p = Paths.get(file).toAbsolutePath().normalize();
        if (!p.getFileName().toString().endsWith(".hprof")) throw new IOException("a heap dump file name must end with .hprof (" + p + ")");
        if (Files.exists(p)) {
            if (!overwrite) throw new IOException("the file exists already: " + p);
            Files.delete(p);
        }
        if (p.getParent() != null) Files.createDirectories(p.getParent());
        long t0 = System.nanoTime();
        HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (bean == null) throw new IOException("this JVM has no HotSpotDiagnosticMXBean: heap dumps need a HotSpot JVM");
        bean.dumpHeap(p.toString(), live);
        return new Result(p.toString(), Files.size(p), (System.nanoTime() - t0) / 1_000_000);
    }
}
