package io.heaplens.agent.jfr;

import io.heaplens.agent.PackageFilter;
import io.heaplens.agent.Registry;
import io.heaplens.agent.instrument.TransformStats;
import io.heaplens.runtime.Mode;

import java.lang.instrument.Instrumentation;

/**
 * The sampled mode fed by HotSpot's own allocation sampling (agent option sampler=jfr, docs/modes.md): a JFR
 * RecordingStream in this JVM delivers jdk.ObjectAllocationSample events and {@link JfrStream} adds them to the
 * threads' sampled trees, so the sampled mode needs no bytecode probes. This class names no jdk.jfr type: where
 * the module is missing (a runtime image without it, --limit-modules) it reports why and the probes stay.
 */
public final class JfrSampling {
    /** JFR's rate limit for the event; the sum of the weights stays an estimate of all allocated bytes at any rate. */
    public static final String THROTTLE = "1000/s";

    private static volatile JfrStream stream;
    /** Epoch ms when the agent finished starting: samples before it are the agent's own work on the main thread. */
    public static volatile long notBefore = Long.MAX_VALUE;
    /** The thread that started the agent, and the bytes it had allocated when the agent was ready (JFR's start-up included). */
    static volatile long starterId = -1, starterBytes = -1;

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
            JfrStream s = new JfrStream(registry, filter, inst);
            s.start();
            String hook = s.holdJfrShutdownHook(inst);
            if (hook != null) stats.warn(hook);
            stream = s;
            Mode.sampledByJfr = true;
            return true;
        } catch (Throwable t) {   // NoClassDefFoundError, JFR disabled (-XX:-FlightRecorder), a JFR start failure
            stats.warn("sampler=jfr: JFR allocation sampling could not start (" + t + "); the sampled mode uses bytecode probes");
            return false;
        }
    }

    public static boolean active() { return stream != null; }

    /**
     * The agent has started: samples from now on are the program's. The first sample of the starting thread weighs
     * the bytes since its previous one, JFR's own start-up among them; they are taken off it (JfrStream.add).
     */
    public static void started() {
        if (stream == null) return;
        try {
            java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
            if (mx instanceof com.sun.management.ThreadMXBean) {
                starterBytes = ((com.sun.management.ThreadMXBean) mx).getCurrentThreadAllocatedBytes();
                starterId = Thread.currentThread().getId();
            }
        } catch (Throwable t) {
            // then the first sample keeps that weight: the estimate of its type is high by the start-up's bytes
        }
        notBefore = System.currentTimeMillis();
    }

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
