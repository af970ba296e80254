package io.heaplens.agent.collect;

import io.heaplens.agent.Options;
import io.heaplens.agent.Registry;
import io.heaplens.agent.instrument.TransformStats;
import io.heaplens.runtime.ThreadState;

import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;

/**
 * The collector thread: wakes every 250 ms, and every {@code interval} ms writes the profile — every thread's
 * MCT, dead threads included — atomically to disk. The shutdown hook writes the final profile. Both run with the
 * recorder guard up, so their own work is never profiled.
 */
public final class Collector {
    private static final long CYCLE_MILLIS = 250;
    private static final long STACK = 256L << 20;   // the writer recurses once per MCT level

    private final Path out;
    private final Options options;
    private final ProfileWriter writer;
    private final AgentInfo info;
    private int sequence;
    private long cycles;
    private volatile boolean finished;

    public Collector(Path out, Options options, Registry registry, TransformStats stats, Instrumentation inst, AgentInfo info) {
        this.out = out;
        this.options = options;
        this.info = info;
        this.writer = new ProfileWriter(registry, stats, options, new TypeSizes(inst), info);
    }

    public void start() {
        Thread loop = new Thread(null, this::loop, "heaplens-collector", STACK);
        loop.setDaemon(true);
        loop.start();
        Runtime.getRuntime().addShutdownHook(new Thread(null, this::shutdown, "heaplens-shutdown", STACK));
    }

    private void loop() {
        markAgentThread();
        try {
            info.jvmArgs = ManagementFactory.getRuntimeMXBean().getInputArguments();
        } catch (Throwable ignored) { }
        long lastWrite = System.currentTimeMillis();
        while (!finished) {
            try {
                Thread.sleep(CYCLE_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            cycles++;
            if (System.currentTimeMillis() - lastWrite >= options.intervalMillis - CYCLE_MILLIS / 2) {
                write(false);
                lastWrite = System.currentTimeMillis();
            }
        }
    }

    private void shutdown() {
        markAgentThread();
        write(true);
        if (options.verbose) System.err.println("heaplens: profile written to " + out + " (" + writer.lastBytes + " bytes, " + writer.lastWriteMillis + " ms)");
    }

    private static void markAgentThread() {
        ThreadState ts = ThreadState.current();
        ts.busy++;
        ts.agentThread = true;
    }

    private synchronized void write(boolean fin) {
        if (finished) return;
        try {
            writer.write(out, fin, ++sequence, cycles);
        } catch (Throwable t) {
            System.err.println("heaplens: could not write the profile to " + out + ": " + t);
        }
        if (fin) finished = true;
    }
}
