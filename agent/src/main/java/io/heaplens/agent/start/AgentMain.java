package io.heaplens.agent.start;

import io.heaplens.agent.control.AgentJit;
import io.heaplens.agent.control.WarmUp;
import io.heaplens.agent.core.Options;
import io.heaplens.agent.jfr.JfrSampling;
import io.heaplens.runtime.Mode;
import io.heaplens.runtime.Sampler;
import io.heaplens.runtime.ThreadState;

import java.lang.instrument.Instrumentation;
import java.util.List;

/**
 * Starts the agent once the recorder is on the bootstrap class path (see boot.Premain): the common start
 * ({@link Launch}) and, around its steps, the starter of each mode or part the options ask for ({@link Starter}).
 */
public final class AgentMain {
    private AgentMain() {}

    /** verbose: appends a step's milliseconds to the start-up line. @return now */
    private static long step(StringBuilder steps, String name, long since) {
        long now = System.nanoTime();
        if (steps != null) steps.append(' ').append(name).append(' ').append((now - since) / 1_000_000);
        return now;
    }

    public static void start(Options options, Instrumentation inst) {
        Sampler.meanBytes = options.sampleBytes;      // before this thread's state draws its first interval
        ThreadState.current().busy++;
        try {
            long t0 = System.nanoTime();
            StringBuilder steps = options.verbose ? new StringBuilder("heaplens: start-up steps (ms):") : null;
            List<Starter> starters = Starter.forOptions(options);
            Launch l = new Launch(options, inst);
            for (Starter s : starters) s.configure(l);
            for (Starter s : starters) s.install(l);
            t0 = step(steps, "launch", t0);
            // Only a start that instruments needs the instrumenter's JDK classes loaded before its snapshot; a start
            // with nothing to instrument (paused, sampled from JFR: its starter has set that by now) leaves them to its
            // first switch, whose retransformation sweeps up what loads meanwhile (ModeControl): ~40 ASM classes, run
            // in the interpreter, that a paused start would pay for and never use. A warm start-up cache has loaded
            // the classes the warm-up would load and supplies their bytes (agent.cache).
            boolean instruments = Mode.level(Mode.get()) != Mode.LEVEL_NONE;
            if (instruments) {
                String jit = AgentJit.c1Only(inst);   // before the transformer runs hot (docs/benchmark.md, Round 4)
                if (options.verbose) System.err.println("heaplens: agent code kept out of C2: " + jit);
            }
            boolean warm = l.startCache();
            t0 = step(steps, "cache", t0);
            if (instruments && !warm) WarmUp.instrumenter();
            t0 = step(steps, "warm-up", t0);
            l.install();
            t0 = step(steps, "retransform", t0);
            l.afterInstall();
            t0 = step(steps, "after-install", t0);
            l.collector();
            for (Starter s : starters) s.attach(l);
            l.collector.prepare(steps);
            t0 = step(steps, "prepared", t0);
            l.collector.start();
            for (Starter s : starters) s.started(l);
            JfrSampling.started();                    // JFR samples count from here (sampler=jfr)
            t0 = step(steps, "collector", t0);
            l.startCacheDone();
            step(steps, "cache-done", t0);
            if (steps != null) System.err.println(steps);
        } finally {
            ThreadState.current().busy--;
        }
    }
}
