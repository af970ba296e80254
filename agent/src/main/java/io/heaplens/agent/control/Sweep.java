package io.heaplens.agent.control;

import io.heaplens.agent.instrument.HeapLensTransformer;
import io.heaplens.agent.instrument.TransformStats;

import java.lang.instrument.Instrumentation;
import java.util.List;

/**
 * Finds classes that were loaded without passing through the transformer (loaded by the agent's own code while
 * it transformed another class) and retransforms them. Runs after the start-up retransformation and then, as a
 * collector cycle task, every few seconds.
 */
public final class Sweep implements Runnable {
    private static final long PERIOD_MILLIS = 2000;
    private final Instrumentation inst;
    private final HeapLensTransformer transformer;
    private final TransformStats stats;
    private long last;

    public Sweep(Instrumentation inst, HeapLensTransformer transformer, TransformStats stats) {
        this.inst = inst;
        this.transformer = transformer;
        this.stats = stats;
    }

    /** Retransforms every unseen class now; returns how many. */
    public int now() {
        last = System.currentTimeMillis();
        if (transformer.level() == io.heaplens.runtime.Mode.LEVEL_NONE) return 0;   // paused: nothing is instrumented
        List<Class<?>> todo = transformer.unseen(inst.getAllLoadedClasses());
        return todo.isEmpty() ? 0 : Retransform.classes(inst, todo, stats);
    }

    /** The collector's cycle task. */
    @Override
    public void run() {
        if (System.currentTimeMillis() - last >= PERIOD_MILLIS) now();
    }
}
