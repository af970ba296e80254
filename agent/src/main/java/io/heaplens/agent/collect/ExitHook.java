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
 * array that {@code java.lang.Shutdown} runs on the exiting thread itself without allocating, after the
 * application's hooks (slot 1) and delete-on-exit (slot 2), and whatever those throw. Where the JDK's internals are not reachable the agent falls
 * back to a {@code Runtime} hook.
 */
final class ExitHook {
    /** A free slot after the application hooks (java.lang.Shutdown has 10: 0 console, 1 application, 2 delete-on-exit). */
    static final int SLOT = 7;
    private static final String ACCESS = "jdk.internal.access";

    private ExitHook() {}

    /**
     * The exiting thread's stack is the JVM's default, too small for writing deep call trees (10,000 frames of
     * recursion overflowed it): the work runs on a thread of its own with the agent's stack size, which the exiting
     * thread waits for. The reserve is let go first, so starting that thread finds room in a full heap; if it
     * cannot start, the work runs here.
     */
    static void onOwnThread(Runnable body, String name, long stack) {
        MemoryReserve.release();
        Thread t;
        try {
            t = new Thread(null, body, name, stack);
            t.start();
        } catch (Throwable e) {
            body.run();
            return;
        }
        while (t.isAlive()) {
            try {
                t.join();
            } catch (InterruptedException e) {
                // the JVM halts when the hooks return: wait for the write anyway
            }
        }
    }

    /** @return "system" when the system hook is in place, else "thread" (a Runtime shutdown hook) */
    static String register(Instrumentation inst, Runnable body, String threadName, long stack) {
        try {
            Module base = Object.class.getModule();
            Module self = ExitHook.class.getModule();
            if (!base.isExported(ACCESS, self)) {
                inst.redefineModule(base, Set.of(), Map.of(ACCESS, Set.of(self)), Map.of(), Set.of(), Map.of());
            }
            jdk.internal.access.SharedSecrets.getJavaLangAccess().registerShutdownHook(SLOT, false, new Runnable() {
                @Override public void run() { onOwnThread(body, threadName, stack); }
            });
            return "system";
        } catch (Throwable t) {
            Runtime.getRuntime().addShutdownHook(new Thread(null, body, threadName, stack));
            return "thread";
        }
    }
}
