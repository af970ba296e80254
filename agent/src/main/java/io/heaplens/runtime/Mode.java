package io.heaplens.runtime;

import jdk.internal.vm.annotation.ForceInline;

/**
 * The recording mode, read by every probe.
 *
 * It is a volatile int. The first version made it the target of a MutableCallSite, which C2 can fold into a
 * constant; measured on javac, the method-handle read cost a third of all CPU samples (C1-compiled code keeps
 * it as a real invocation) and the JDK's lazy customisation of the handle could run class loading inside a
 * probe. A volatile read is a plain load on x86 and needs no linkage: it is what every probe pays now.
 */
public final class Mode {
    public static final int EXACT = 0, SITES = 1, SAMPLED = 2, PAUSED = 3, ACCOUNTS = 4, LIFETIME = 5;
    private static final String[] NAMES = {"exact", "sites", "sampled", "paused", "accounts", "lifetime"};
    private static volatile int current = EXACT;

    private Mode() {}

    @ForceInline
    public static int current() { return current; }

    /** The same, for readers that are not on a hot path. */
    public static int get() { return current; }

    public static synchronized void set(int mode) { current = mode; }

    public static String name(int mode) { return NAMES[mode]; }

    /**
     * The sampled mode's data comes from the JVM's own allocation samples (HotSpot's heap sampler through JVMTI,
     * sampler=jvmti; JFR's TLAB events, sampler=jfr) instead of bytecode probes: it then needs no instrumentation at
     * all, as paused.
     */
    public static volatile boolean sampledByJvm;

    /** What the instrumented code must contain for a mode: nothing, allocation probes, or those and the call tree. */
    public static final int LEVEL_NONE = 0, LEVEL_ALLOCATIONS = 1, LEVEL_TREE = 2;

    /**
     * The instrumentation a mode needs. Paused needs none: its classes are retransformed back to their original
     * bytes, so a paused program runs the code it would run without the agent. Sites and sampled need only the
     * allocation probes (accounts: plus account switches in accounted classes, see AccountsPlan); only exact pays
     * for the call-tree probes on every call.
     */
    public static int level(int mode) {
        switch (mode) {
            case PAUSED: return LEVEL_NONE;
            case SAMPLED: return sampledByJvm ? LEVEL_NONE : LEVEL_ALLOCATIONS;
            case SITES: case ACCOUNTS: case LIFETIME: return LEVEL_ALLOCATIONS;   // accounts and lifetime add their own probes
            default: return LEVEL_TREE;
        }
    }

    /** @return the mode's number, or -1 for an unknown name */
    public static int parse(String name) {
        for (int i = 0; i < NAMES.length; i++) if (NAMES[i].equals(name)) return i;
        return -1;
    }
}
