package io.heaplens.agent.collect;

import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;

/**
 * Runs the agent's last write when the JVM shuts down. A {@code Runtime} shutdown hook is a thread the JVM starts at
 * exit, and starting it allocates (the hook set's iterator, the thread's group): in a heap that a program filled to
 * the last byte before dying of OutOfMemoryError, no application hook starts at all, ours included, and only the
 * last periodic profile stays on disk. So the agent registers a <em>system</em> shutdown hook instead (the JDK's own
 * mechanism for the console and delete-on-exit, {@code JavaLangAccess.registerShutdownHook}): a slot in a fixed
 * array that {@code java.lang.Shutdown} runs on the exiting thread itself, after the application's hooks (slot 1)
 * and delete-on-exit (slot 2), and whatever those throw. Where the JDK's internals are not reachable the agent falls
 * back to a {@code Runtime} hook.
 */
final class ExitHook {
    /** A free slot after the application hooks (java.lang.Shutdown has 10: 0 console, 1 application, 2 delete-on-exit). */
    static final int SLOT = 7;
    private static final String ACCESS = "jdk.internal.access";

    private ExitHook() {}

    /** @return "system" when the system hook is in place, else "thread" (a Runtime shutdown hook) */
    static String register(Instrumentation inst, Runnable body, String threadName, long stack) {
        try {
            Module base = Object.class.getModule();
            Module self = ExitHook.class.getModule();
            if (!base.isExported(ACCESS, self)) {
                inst.redefineModule(base, Set.of(), Map.of(ACCESS, Set.of(self)), Map.of(), Set.of(), Map.of());
            }
            jdk.internal.access.SharedSecrets.getJavaLangAccess().registerShutdownHook(SLOT, false, body);
            return "system";
        } catch (Throwable t) {
            Runtime.getRuntime().addShutdownHook(new Thread(null, body, threadName, stack));
            return "thread";
        }
    }
}
