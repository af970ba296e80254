package io.heaplens.runtime;

import jdk.internal.vm.annotation.ForceInline;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MutableCallSite;

/**
 * The recording mode, read by every probe. It is the target of a MutableCallSite, which the JIT compiles as a
 * constant (and deoptimises when it changes): a probe in a disabled mode folds away instead of paying a
 * volatile read on every allocation. Switching costs one deoptimisation of the code that inlined a probe.
 */
public final class Mode {
    public static final int EXACT = 0, SITES = 1, SAMPLED = 2, PAUSED = 3;
    private static final String[] NAMES = {"exact", "sites", "sampled", "paused"};

    private static final MutableCallSite SITE = new MutableCallSite(MethodHandles.constant(int.class, EXACT));
    private static final MethodHandle CURRENT = SITE.dynamicInvoker();
    private static volatile int current = EXACT;

    private Mode() {}

    @ForceInline
    public static int current() {
        try {
            return (int) CURRENT.invokeExact();
        } catch (Throwable t) {
            return current;            // never throw into the program: the plain field says the same
        }
    }

    /**
     * Uses the switch before anything is instrumented: the JDK customises a method handle after ~127 invocations
     * and builds a class for each new constant target, and neither may happen later inside a probe (the class
     * loading would run probes, which read the mode again). So every target is built and invoked here, at start.
     */
    public static void warmUp(int start) {
        for (int m : new int[] {SITES, SAMPLED, PAUSED, EXACT, start}) {
            set(m);
            for (int i = 0; i < 1000; i++) current();
        }
    }

    /** The mode for readers that are not on a hot path. */
    public static int get() { return current; }

    public static synchronized void set(int mode) {
        if (mode == current) return;
        current = mode;
        SITE.setTarget(MethodHandles.constant(int.class, mode));
        MutableCallSite.syncAll(new MutableCallSite[] {SITE});
    }

    public static String name(int mode) { return NAMES[mode]; }

    /** @return the mode's number, or -1 for an unknown name */
    public static int parse(String name) {
        for (int i = 0; i < NAMES.length; i++) if (NAMES[i].equals(name)) return i;
        return -1;
    }
}
