package io.heaplens.agent.jfr;

import io.heaplens.agent.core.PackageFilter;
import io.heaplens.agent.core.Registry;
import io.heaplens.agent.instrument.TransformStats;
import io.heaplens.runtime.Mode;

import java.lang.instrument.Instrumentation;

/**
 * The sampled mode fed by HotSpot's own allocation sampling (agent option sampler=jfr, docs/modes.md): a JFR
 * RecordingStream in this JVM delivers the TLAB events (jdk.ObjectAllocationInNewTLAB / OutsideTLAB) and {@link JfrStream} adds them to the
 * threads' sampled trees, so the sampled mode needs no bytecode probes. This class names no jdk.jfr type: where
 * the module is missing (a runtime image without it, --limit-modules) it reports why and the probes stay.
 */
public final class JfrSampling {
    /**
     * The JVM flags that make a TLAB event a sample of known probability (JfrStream): a fixed 16 KiB TLAB (the probe
     * sampler's default interval; HotSpot's adaptive TLABs are 1–2 MB on the bench, a few hundred samples a run), always
     * retired when an allocation does not fit (refill waste fraction 1: no allocation of s < T goes outside a TLAB).
     * `heaplens run` and the launch configuration pass them with sampler=jfr.
     */
    public static final String[] TLAB_FLAGS = {"-XX:TLABSize=16k", "-XX:-ResizeTLAB", "-XX:TLABRefillWasteFraction=1"};

    /**
     * T: the space a new TLAB leaves after the allocation that opened it, in bytes, when the JVM runs with TLAB_FLAGS'
     * settings; else 0. That is TLABSize less HotSpot's reserve at a TLAB's end (room for C2's allocation prefetch:
     * 576 bytes with x86's defaults, so T = 15,808 for 16 KiB).
     */
    static volatile long tlabUsableBytes;

    private static volatile JfrStream stream;
    /** Epoch ms when the agent finished starting: samples before it are the agent's own work on the main thread. */
    public static volatile long notBefore = Long.MAX_VALUE;

    private JfrSampling() {}

    /**
     * Starts the stream and makes the sampled mode probe-free; on failure records a warning and leaves the
     * probe sampler in place. Call before the transformer's level is chosen.
     */
    public static boolean start(Registry registry, PackageFilter filter, Instrumentation inst, TransformStats stats) {
        try {
            if (!ModuleLayer.boot().findModule("jdk.jfr").isPresent()) {
                stats.warn("sampler=jfr: the module jdk.jfr is not in this JVM's boot layer; the sampled mode uses bytecode probes");
                return false;
            }
            String flags = tlabSettings();
            if (flags != null) stats.warn(flags);
            JfrStream s = new JfrStream(registry, filter);
            s.start();
            String hook = s.holdJfrShutdownHook(inst);
            if (hook != null) stats.warn(hook);
            stream = s;
            Mode.sampledByJvm = true;
            return true;
        } catch (Throwable t) {   // NoClassDefFoundError, JFR disabled (-XX:-FlightRecorder), a JFR start failure
            stats.warn("sampler=jfr: JFR allocation sampling could not start (" + t + "); the sampled mode uses bytecode probes");
            return false;
        }
    }

    public static boolean active() { return stream != null; }

    /** The agent has started: samples from now on are the program's. */
    public static void started() {
        notBefore = System.currentTimeMillis();
    }

    /** Reads the JVM's TLAB flags; returns a warning when they are not TLAB_FLAGS' (the estimates are then not unbiased). */
    static String tlabSettings() {
        try {
            com.sun.management.HotSpotDiagnosticMXBean hs = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            boolean resize = Boolean.parseBoolean(hs.getVMOption("ResizeTLAB").getValue());
            long waste = Long.parseLong(hs.getVMOption("TLABRefillWasteFraction").getValue());
            long size = Long.parseLong(hs.getVMOption("TLABSize").getValue());
            boolean useTlab = Boolean.parseBoolean(hs.getVMOption("UseTLAB").getValue());
            if (useTlab && !resize && waste == 1 && size > 0) {
                tlabUsableBytes = size - endReserve(hs);
                return null;
            }
            return "sampler=jfr: the JVM runs without " + String.join(" ", TLAB_FLAGS) + " (UseTLAB " + useTlab + ", ResizeTLAB " + resize
                + ", TLABRefillWasteFraction " + waste + ", TLABSize " + size + "): the sampled estimates are then not unbiased and far coarser (heaplens run passes them)";
        } catch (Throwable t) {
            return "sampler=jfr: the JVM's TLAB flags could not be read (" + t + "); the sampled estimates may be biased";
        }
    }

    /**
     * The bytes HotSpot keeps free at a TLAB's end (ThreadLocalAllocBuffer::end_reserve): an int[] header, or when C2
     * compiles (the prefetches of its allocations must stay inside the TLAB) AllocatePrefetchDistance +
     * AllocatePrefetchStepSize × (max(AllocatePrefetchLines, AllocateInstancePrefetchLines) + 2), whichever is larger.
     */
    static long endReserve(com.sun.management.HotSpotDiagnosticMXBean hs) {
        long header = 16;
        String info = System.getProperty("java.vm.info", "");
        boolean c2 = !info.contains("interpreted mode") && Long.parseLong(hs.getVMOption("TieredStopAtLevel").getValue()) >= 4;
        if (!c2) return header;
        long lines = Math.max(Long.parseLong(hs.getVMOption("AllocatePrefetchLines").getValue()),
            Long.parseLong(hs.getVMOption("AllocateInstancePrefetchLines").getValue())) + 2;
        long prefetch = Long.parseLong(hs.getVMOption("AllocatePrefetchDistance").getValue())
            + Long.parseLong(hs.getVMOption("AllocatePrefetchStepSize").getValue()) * lines;
        return (Math.max(header, prefetch) + 7) & ~7L;
    }

    /** T in bytes (0: the TLAB flags are not in effect or the stream did not start). */
    public static long tlabUsableBytes() { return stream == null ? 0 : tlabUsableBytes; }

    /** Before the final profile is written: the samples JFR has buffered but not delivered yet. */
    public static String drain(long timeoutMillis) {
        JfrStream s = stream;
        return s == null ? null : s.drain(timeoutMillis);
    }

    /** Samples added to the trees, those dropped (agent or JFR threads, other modes, unreadable events), and truncated stacks. */
    public static long[] counts() {
        JfrStream s = stream;
        return s == null ? new long[] {0, 0, 0} : new long[] {s.samples, s.dropped, s.truncated};
    }
}
