package io.heaplens.runtime;

/**
 * Record keys: a key names one (allocation site, allocated type) pair. Most sites allocate one type and own one
 * key; a multianewarray site owns one key per dimension level (consecutive), and call-site allocations
 * (array clone, reflective arrays) get a key per run-time class, resolved on first sight.
 */
public final class Keys {
    /** Turns a run-time class seen at a site into a key (implemented by the agent, which owns the type table). */
    public interface Resolver { int keyFor(int site, Class<?> type); }

    public static volatile Resolver resolver;

    private static final Object LOCK = new Object();
    private static int[] site = new int[4096];
    private static int[] type = new int[4096];
    private static int[] elementSize = new int[4096];
    /** Estimated instance size per key (objects), filled in by the collector; 0 until known. Sampled mode only. */
    private static int[] objectSize = new int[4096];
    private static int count;

    private static final class Dyn {
        final Class<?> cls; final int key; final Dyn next;
        Dyn(Class<?> cls, int key, Dyn next) { this.cls = cls; this.key = key; this.next = next; }
    }
    private static Dyn[] dyn = new Dyn[4096];

    private Keys() {}

    public static int add(int siteId, int typeId, int elemSize) {
        synchronized (LOCK) {
            if (count == site.length) {
                site = grow(site); type = grow(type); elementSize = grow(elementSize); objectSize = grow(objectSize);
            }
            site[count] = siteId; type[count] = typeId; elementSize[count] = elemSize;
            return count++;
        }
    }

    /**
     * Adds n keys at once (the start-up cache's table): one lock and one growth instead of one per key.
     * @return the first new key
     */
    public static int addAll(int[] siteIds, int[] typeIds, int[] elemSizes, int n) {
        synchronized (LOCK) {
            int first = count;
            if (count + n > site.length) {
                int len = Math.max(site.length * 2, count + n);
                site = java.util.Arrays.copyOf(site, len); type = java.util.Arrays.copyOf(type, len);
                elementSize = java.util.Arrays.copyOf(elementSize, len); objectSize = java.util.Arrays.copyOf(objectSize, len);
            }
            System.arraycopy(siteIds, 0, site, count, n);
            System.arraycopy(typeIds, 0, type, count, n);
            System.arraycopy(elemSizes, 0, elementSize, count, n);
            count += n;
            return first;
        }
    }

    public static int count() { synchronized (LOCK) { return count; } }
    public static int site(int key) { return site[key]; }
    public static int type(int key) { return type[key]; }
    public static int elementSize(int key) { return elementSize[key]; }

    /** The sampled mode's byte count for one object of this key's type (24 until the collector knows better). */
    public static int objectSize(int key) {
        int[] a = objectSize;
        int s = key < a.length ? a[key] : 0;
        return s > 0 ? s : 24;
    }

    public static void setObjectSize(int key, int size) {
        synchronized (LOCK) { if (key < objectSize.length) objectSize[key] = size; }
    }

    /** Key for a run-time class at a call-site allocation; -1 when it cannot be resolved. */
    static int dynamic(int siteId, Class<?> cls, ThreadState ts) {
        Dyn[] tab = dyn;
        if (siteId < tab.length) {
            for (Dyn d = tab[siteId]; d != null; d = d.next) if (d.cls == cls) return d.key;
        }
        Resolver r = resolver;
        if (r == null) return -1;
        ts.busy++;                     // the resolver runs JDK code: keep it out of the profile
        try {
            synchronized (LOCK) {
                if (siteId >= dyn.length) {
                    Dyn[] bigger = new Dyn[Math.max(siteId + 1, dyn.length * 2)];
                    System.arraycopy(dyn, 0, bigger, 0, dyn.length);
                    dyn = bigger;
                }
                for (Dyn d = dyn[siteId]; d != null; d = d.next) if (d.cls == cls) return d.key;
            }
            int key;
            try {
                key = r.keyFor(siteId, cls);   // outside LOCK: it calls add()
            } catch (Throwable t) {
                return -1;                     // never throw into the program: this allocation goes uncounted
            }
            synchronized (LOCK) { dyn[siteId] = new Dyn(cls, key, dyn[siteId]); }
            return key;
        } finally {
            ts.busy--;
        }
    }

    private static int[] grow(int[] a) {
        int[] b = new int[a.length * 2];
        System.arraycopy(a, 0, b, 0, a.length);
        return b;
    }
}
