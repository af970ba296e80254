package io.heaplens.agent.control;

import io.heaplens.agent.instrument.HeapLensTransformer;
import io.heaplens.agent.instrument.TransformStats;

import java.lang.instrument.Instrumentation;
import java.util.List;

/**
 * Retransforms every loaded class the transformer wants: at start (JDK classes loaded before the agent get their
 * allocation sites) and when a mode switch changes the instrumentation level (Mode.level). The program keeps
 * running; frames already on a stack finish in the code they started with.
 */
public final class Retransform {
    private Retransform() {}

    /** @return how many classes were retransformed */
    public static int all(Instrumentation inst, HeapLensTransformer t, TransformStats stats) {
        return classes(inst, t.retransformable(inst.getAllLoadedClasses(), false), stats);
    }

    /** Retransforms the classes in big batches, one by one where a batch fails; @return how many succeeded */
    public static int classes(Instrumentation inst, List<Class<?>> todo, TransformStats stats) {
        int done = 0;
        // Big batches: each retransformation request walks every loaded class once, so fewer requests are cheaper.
        for (int i = 0; i < todo.size(); i += 5000) {
            List<Class<?>> batch = todo.subList(i, Math.min(todo.size(), i + 5000));
            try {
                inst.retransformClasses(batch.toArray(new Class<?>[0]));
                done += batch.size();
            } catch (Throwable batchFailed) {
                for (Class<?> c : batch) {
                    try {
                        inst.retransformClasses(c);
                        done++;
                    } catch (Throwable one) {
                        stats.warn(c.getName() + ": could not be retransformed (" + one + "); its allocations are not counted");
                    }
                }
            }
        }
        stats.retransformed(done);
        return done;
    }
}
