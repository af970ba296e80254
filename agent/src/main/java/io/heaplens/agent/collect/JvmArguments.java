package io.heaplens.agent.collect;

import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JVM's own arguments (what {@code RuntimeMXBean.getInputArguments} returns) and what the agent reads from them,
 * without the platform MXBeans: their first use costs ~80 ms of JDK work before {@code main} (docs/benchmark.md,
 * "Start-up, Round 6"). {@code jdk.internal.misc.VM.getRuntimeArguments} is the same JVM call the runtime MXBean
 * makes (JDK 17 and 25); its package is opened to the agent through {@link Instrumentation}.
 */
public final class JvmArguments {
    private static final String MISC = "jdk.internal.misc";
    /** null until {@link #load} found them (or when the JDK's internals are not reachable) */
    private static volatile List<String> args;

    private JvmArguments() {}

    /** Reads the arguments once; true when they are known. */
    public static boolean load(Instrumentation inst) {
        if (args != null) return true;
        try {
            Module base = Object.class.getModule();
            Module self = JvmArguments.class.getModule();
            if (!base.isExported(MISC, self)) inst.redefineModule(base, Set.of(), Map.of(MISC, Set.of(self)), Map.of(), Set.of(), Map.of());
            args = List.of(jdk.internal.misc.VM.getRuntimeArguments());
            return true;
        } catch (Throwable t) {
            return false;
        }
    }

    /** The arguments, or null when {@link #load} could not read them. */
    public static List<String> get() { return args; }

    /**
     * G1's region size for a heap of {@code heapMax} bytes, or 0 under another collector. The command line's
     * {@code -XX:G1HeapRegionSize} if given, else G1's ergonomic rule (the same in JDK 17 and 25,
     * {@code HeapRegion::setup_heap_region_size}): the heap over 2,048 regions, rounded up to a power of two, within
     * 1 and 32 MiB (checked with -XX:+PrintFlagsFinal from -Xmx64m to -Xmx100g). G1 is assumed unless the command
     * line names another collector: a JVM that picked Serial on a small machine then holds a reserve of two
     * "regions" (2 MiB on a heap under 256 MiB, at most 1 MiB more than it needs) taken from the trees' share; the
     * reserve and the node budget only need the right order of magnitude.
     */
    static long g1RegionBytes(long heapMax) {
        return g1RegionBytes(args == null ? List.of() : args, heapMax);
    }

    static long g1RegionBytes(List<String> a, long heapMax) {
        long given = 0;
        boolean g1 = true;
        for (String s : a) {
            if (s.equals("-XX:+UseSerialGC") || s.equals("-XX:+UseParallelGC") || s.equals("-XX:+UseZGC")
                || s.equals("-XX:+UseShenandoahGC") || s.equals("-XX:+UseEpsilonGC")) g1 = false;
            else if (s.equals("-XX:+UseG1GC")) g1 = true;
            else if (s.startsWith("-XX:G1HeapRegionSize=")) given = bytes(s.substring("-XX:G1HeapRegionSize=".length()));
        }
        if (!g1) return 0;
        if (given > 0) return given;
        long target = heapMax <= 0 || heapMax == Long.MAX_VALUE ? 1L << 20 : heapMax / 2048;
        long region = Long.highestOneBit(Math.max(1, target));
        if (region < target) region <<= 1;
        return Math.max(1L << 20, Math.min(32L << 20, region));
    }

    /** A HotSpot size ("16m", "1048576", "2M"); 0 when it is not one. */
    static long bytes(String v) {
        try {
            if (v.isEmpty()) return 0;
            char unit = Character.toLowerCase(v.charAt(v.length() - 1));
            int shift = unit == 'k' ? 10 : unit == 'm' ? 20 : unit == 'g' ? 30 : unit == 't' ? 40 : 0;
            return Long.parseLong(shift == 0 ? v : v.substring(0, v.length() - 1)) << shift;
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
