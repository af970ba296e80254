package io.heaplens.agent.control;

import io.heaplens.agent.cache.StartCache;
import io.heaplens.agent.instrument.HeapLensTransformer;
import io.heaplens.agent.instrument.TransformStats;

import java.lang.instrument.ClassDefinition;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

/**
 * A warm start hands the JVM the cached instrumented bytes of the JDK classes loaded before the agent in one
 * redefinition, instead of retransforming them: retransformation first rebuilds each class's class file from the
 * JVM's internal form only for the transformer to look up the cache with it.
 */
public final class StartRedefinition {
    private StartRedefinition() {}

    /** @return the classes left to retransform (no single cached variant, or the JVM refused the redefinition) */
    public static List<Class<?>> redefine(Instrumentation inst, HeapLensTransformer t, StartCache cache, List<Class<?>> todo, TransformStats stats) {
        List<Class<?>> rest = new ArrayList<>();
        List<ClassDefinition> defs = new ArrayList<>();
        List<StartCache.Entry> entries = new ArrayList<>();
        for (Class<?> c : todo) {
            StartCache.Entry e = cache.redefinable(c.getClassLoader(), c.getName().replace('.', '/'));
            if (e == null) {
                rest.add(c);
            } else {
                defs.add(new ClassDefinition(c, e.out));
                entries.add(e);
            }
        }
        if (defs.isEmpty()) return rest;
        t.redefiningAtStart(true);
        try {
            try {
                inst.redefineClasses(defs.toArray(new ClassDefinition[0]));
                for (StartCache.Entry e : entries) t.redefinedAtStart(e.methods, e.sites);
                stats.retransformed(defs.size());
            } catch (Throwable all) {
                // One by one: a class the JVM refuses goes the retransformation's way.
                int done = 0;
                for (int i = 0; i < defs.size(); i++) {
                    try {
                        inst.redefineClasses(defs.get(i));
                        t.redefinedAtStart(entries.get(i).methods, entries.get(i).sites);
                        done++;
                    } catch (Throwable one) {
                        rest.add(defs.get(i).getDefinitionClass());
                    }
                }
                stats.retransformed(done);
            }
        } finally {
            t.redefiningAtStart(false);
        }
        return rest;
    }
}
