package io.heaplens.agent.collect;

import io.heaplens.agent.core.Registry.TypeInfo;
import io.heaplens.runtime.Layout;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;

/**
 * Estimated shallow sizes of instances: the running JVM's header plus the instance fields of the class and its
 * superclasses (with the padding of JDK classes' @Contended fields), aligned. An estimate: HotSpot packs fields into
 * gaps, which this sum ignores.
 */
public final class TypeSizes {
    private final Instrumentation inst;
    private Map<String, Class<?>> loaded = new HashMap<>();
    private long lastScan;
    /** Milliseconds between scans for a class not found: 900, doubled by each scan that finds none of them (≤ 30 s). */
    private long scanGap = 900;

    /** @param inst the agent's instrumentation, or null (then only classes seen at run time have sizes) */
    public TypeSizes(Instrumentation inst) { this.inst = inst; }

    /**
     * Synchronized with {@link #rescanNextTime}: the collector's cycle and the final write (the shutdown thread) both
     * size types. Unsynchronized, a collector scan begun before a class loaded could end after the final write asked
     * for a rescan, store its older list and the time, and the final write then skipped the scan: the class's type was
     * written without a size (startcache on JDK 25: IdentityHashMap$KeyIterator, allocated by the shutdown hooks).
     */
    public synchronized long sizeOf(TypeInfo t) {
        if (t.array) return -1;
        long s = t.size;
        if (s != -2) return s;
        Class<?> c = t.cls != null ? t.cls : find(t.name);
        if (c == null) return -1;                       // not loaded yet: try again at the next write
        t.size = s = estimate(c);
        return s;
    }

    /**
     * The next lookup of a class not seen yet scans the loaded classes again, however recent the last scan: the final
     * write must size the classes loaded during the last second (a short run's classes, all of them).
     */
    public synchronized void rescanNextTime() { lastScan = 0; }

    /**
     * Some names are never found (JFR names a hidden class without its suffix): a scan of every loaded class each
     * second for them was a tenth of the agent's CPU in `sampler=jfr` on h2 (docs/benchmark.md), so the gap between
     * scans grows while they find nothing, and a class found resets it.
     */
    private Class<?> find(String name) {
        Class<?> c = loaded.get(name);
        if (c == null && inst != null && System.currentTimeMillis() - lastScan > scanGap) {
            Map<String, Class<?>> m = new HashMap<>();
            for (Class<?> k : inst.getAllLoadedClasses()) m.putIfAbsent(k.getName(), k);
            loaded = m;
            lastScan = System.currentTimeMillis();
            c = m.get(name);
            scanGap = c != null ? 900 : Math.min(30_000, scanGap * 2);
        }
        return c;
    }

    /**
     * After a superclass's @Contended padding, JDK 17's HotSpot starts the subclass's fields at the next aligned offset
     * (ForkJoinPool 336 bytes, a subclass adding an int 344), JDK 25's right after it (360 and 360): e2e `contended`.
     * The JDKs between were not measured; they are taken to lay out as 25 does.
     */
    private static final boolean ALIGNED_AFTER_PADDING = Runtime.version().feature() <= 17;

    /**
     * Each class's own fields, read from its class file once: every subclass's estimate walks its superclasses, and
     * reading them again for each (javac's hundreds of tree and symbol classes share a few) was most of the class-file
     * bytes the collector read on maven.
     */
    private static final long[] UNREADABLE = new long[0];
    /** Held like Registry's TypeInfo.cls holds its class; a plain map, not ClassValue: no JDK class is first used here. */
    private static final Map<Class<?>, long[]> OWN_LAYOUTS = new java.util.IdentityHashMap<>();

    private static long[] ownLayout(Class<?> k) {
        synchronized (OWN_LAYOUTS) {
            long[] own = OWN_LAYOUTS.get(k);
            if (own == null) {
                own = ClassFileFields.layout(k);
                if (own == null) own = UNREADABLE;
                OWN_LAYOUTS.put(k, own);
            }
            return own;
        }
    }

    static long estimate(Class<?> c) {
        java.util.ArrayDeque<Class<?>> chain = new java.util.ArrayDeque<>();
        for (Class<?> k = c; k != null; k = k.getSuperclass()) chain.push(k);     // java.lang.Object first
        long bytes = 0;
        try {
            for (Class<?> k : chain) {
                long[] own = io.heaplens.agent.instrument.UseProbes.enabled ? null : ownLayout(k);
                if (own == UNREADABLE) own = null;
                if (own != null) {
                    bytes += own[0];
                    if (own[1] != 0 && ALIGNED_AFTER_PADDING) bytes = Layout.objectBytes(bytes) - Layout.objectHeader;
                    continue;
                }
                for (Field f : k.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers())) continue;
                    bytes += fieldSize(f.getType());
                }
            }
        } catch (Throwable t) {
            return -1;
        }
        return Layout.objectBytes(bytes);
    }

    private static int fieldSize(Class<?> t) {
        if (!t.isPrimitive()) return Layout.reference;
        if (t == long.class || t == double.class) return 8;
        if (t == int.class || t == float.class) return 4;
        if (t == short.class || t == char.class) return 2;
        return 1;
    }
}
