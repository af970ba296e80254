package io.heaplens.agent.core;

import io.heaplens.runtime.Sampler;

import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Layout;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Id tables for methods, allocation sites and types. Written by the transformer, read by the profile writer. */
public final class Registry implements Keys.Resolver {
    public static final class MethodInfo {
        public final int id;
        public final String owner, name, desc;    // owner: internal name
        public volatile String file;
        public volatile int line = -1;
        public volatile boolean profiled;
        public volatile int ctorTarget = -1;
        public volatile String ctorWarning;
        /** Line of each call site (index = call-site number − 1, see Node.callSite); null for unprofiled methods. */
        public volatile int[] callLines;
        /** The method each call site invokes (same index as callLines; -1 for invokedynamic); null for unprofiled methods. */
        public volatile int[] callees;
        MethodInfo(int id, String owner, String name, String desc) { this.id = id; this.owner = owner; this.name = name; this.desc = desc; }
    }

    public static final class SiteInfo {
        public final int id, method, bci, line, type;
        public final String kind;
        SiteInfo(int id, int method, int bci, int line, String kind, int type) {
            this.id = id; this.method = method; this.bci = bci; this.line = line; this.kind = kind; this.type = type;
        }
    }

    public static final class TypeInfo {
        public final int id;
        public final String descriptor;          // JVM descriptor: Ljava/lang/String; or [[I
        public final String name;                // Java name: java.lang.String, int[][]
        public final boolean array;
        public final int elementSize;            // arrays only
        public final char elementCode;           // arrays only: B C D F I J S Z R
        public volatile Class<?> cls;            // when seen at run time
        public volatile long size = -2;          // estimated instance size; -2 not computed yet, -1 unknown
        TypeInfo(int id, String descriptor) {
            this.id = id;
            this.descriptor = descriptor;
            this.name = Types.javaName(descriptor);
            this.array = descriptor.charAt(0) == '[';
            this.elementCode = array ? Types.elementCode(descriptor) : 0;
            this.elementSize = array ? Types.elementSize(elementCode) : 0;
        }
    }

    /**
     * A method's identity (desc null: all overloads of a name). Not a built string: a warm start fills ~4,000
     * methods in the interpreter, where concatenating and hashing each "owner.name(desc)" cost more than the
     * filling; the owners, names and descriptors are shared strings whose hashes are computed once.
     */
    private static final class MethodKey {
        final String owner, name, desc;
        MethodKey(String owner, String name, String desc) { this.owner = owner; this.name = name; this.desc = desc; }
        @Override public int hashCode() { return (owner.hashCode() * 31 + name.hashCode()) * 31 + (desc == null ? 0 : desc.hashCode()); }
        @Override public boolean equals(Object o) {
            if (!(o instanceof MethodKey)) return false;
            MethodKey k = (MethodKey) o;
            return k.owner.equals(owner) && k.name.equals(name) && (desc == null ? k.desc == null : desc.equals(k.desc));
        }
    }

    private final List<MethodInfo> methods = new ArrayList<>();
    private final Map<MethodKey, MethodInfo> methodIndex = new HashMap<>();
    /** owner and name → its overloads, in registration order (stack frames seen during class loading: no descriptor). */
    private final Map<MethodKey, List<MethodInfo>> nameIndex = new HashMap<>();
    private final List<SiteInfo> sites = new ArrayList<>();
    private final List<TypeInfo> types = new ArrayList<>();
    private final Map<String, TypeInfo> typeIndex = new HashMap<>();

    public synchronized MethodInfo method(String owner, String name, String desc) {
        MethodKey k = new MethodKey(owner, name, desc);
        MethodInfo m = methodIndex.get(k);
        if (m == null) {
            m = new MethodInfo(methods.size(), owner, name, desc);
            methods.add(m);
            methodIndex.put(k, m);
            MethodKey byName = new MethodKey(owner, name, null);
            List<MethodInfo> same = nameIndex.get(byName);
            if (same == null) nameIndex.put(byName, same = new ArrayList<>(1));
            same.add(m);
        }
        return m;
    }

    public synchronized TypeInfo type(String descriptor) {
        TypeInfo t = typeIndex.get(descriptor);
        if (t == null) {
            t = new TypeInfo(types.size(), descriptor);
            types.add(t);
            typeIndex.put(descriptor, t);
        }
        return t;
    }

    /** A site's identity; not a string, since building one per site was a visible part of a cached start. */
    private static final class SiteKey {
        final int method, bci, type;
        final String kind;
        SiteKey(int method, int bci, String kind, int type) { this.method = method; this.bci = bci; this.kind = kind; this.type = type; }
        @Override public int hashCode() { return ((method * 31 + bci) * 31 + type) * 31 + kind.hashCode(); }
        @Override public boolean equals(Object o) {
            if (!(o instanceof SiteKey)) return false;
            SiteKey k = (SiteKey) o;
            return k.method == method && k.bci == bci && k.type == type && k.kind.equals(kind);
        }
    }

    private final Map<SiteKey, SiteInfo> siteIndex = new HashMap<>();
    private final Map<Integer, Integer> siteKeys = new HashMap<>();

    /**
     * The site of an instruction. A class is instrumented again when a mode switch retransforms it: the same
     * instruction keeps its site and keys, so its counts continue instead of splitting into a second row.
     */
    public synchronized SiteInfo site(int method, int bci, int line, String kind, String typeDescriptor) {
        TypeInfo t = type(typeDescriptor);
        SiteKey k = new SiteKey(method, bci, kind, t.id);
        SiteInfo s = siteIndex.get(k);
        if (s == null) {
            s = new SiteInfo(sites.size(), method, bci, line, kind, t.id);
            sites.add(s);
            siteIndex.put(k, s);
        }
        return s;
    }

    /** A key for a site that allocates exactly its own type. */
    public synchronized int singleKey(SiteInfo s) {
        Integer known = siteKeys.get(s.id);
        if (known != null) return known;
        TypeInfo t = type(s);
        int k = Keys.add(s.id, t.id, t.elementSize);
        siteKeys.put(s.id, k);
        return k;
    }

    /** Consecutive keys for the dimension levels 1..allocDim of a multianewarray site. */
    public synchronized int levelKeys(SiteInfo s, int allocDim) {
        Integer known = siteKeys.get(s.id);
        if (known != null) return known;
        int first = levelKeysOnce(s, allocDim);
        siteKeys.put(s.id, first);
        return first;
    }

    private int levelKeysOnce(SiteInfo s, int allocDim) {
        String desc = type(s).descriptor;
        int first = -1;
        for (int level = 1; level <= allocDim; level++) {
            TypeInfo t = type(desc.substring(level - 1));
            int k = Keys.add(s.id, t.id, t.elementSize);
            if (first < 0) first = k;
        }
        return first;
    }

    private final Map<Long, Integer> dynamicKeys = new HashMap<>();

    /** One key per (site, type), even when two loaders define classes of the same name. */
    @Override
    public synchronized int keyFor(int site, Class<?> cls) {
        TypeInfo t = type(Types.descriptorOf(cls));
        if (t.cls == null) t.cls = cls;
        return dynamicKeys.computeIfAbsent(((long) site << 32) | t.id, k -> Keys.add(site, t.id, t.elementSize));
    }

    /** For sampled traces: the id of a profiled method (or boundary frame), -1 for any other frame. */
    public synchronized int profiledMethodId(String className, String name, String desc) {
        MethodInfo m = methodIndex.get(new MethodKey(className.replace('.', '/'), name, desc));
        return m != null && m.profiled ? m.id : -1;
    }

    /** The first registered profiled overload of a method, by name alone (-1 when none is profiled). */
    public synchronized int profiledMethodIdByName(String className, String name) {
        List<MethodInfo> same = nameIndex.get(new MethodKey(className.replace('.', '/'), name, null));
        if (same != null) for (MethodInfo m : same) if (m.profiled) return m.id;
        return -1;
    }

    /** The sampler's view of the registry. */
    public Sampler.Frames samplerFrames() {
        final Registry r = this;
        return new Sampler.Frames() {
            @Override public int methodId(String c, String m, String d) { return r.profiledMethodId(c, m, d); }
            @Override public int methodIdByName(String c, String m) { return r.profiledMethodIdByName(c, m); }
        };
    }

    private int sizedKeys;
    private final java.util.BitSet unsized = new java.util.BitSet();

    /** Gives the sampled mode the estimated size of every object key registered since the last call. */
    public void publishObjectSizes(java.util.function.ToLongFunction<TypeInfo> sizeOf) {
        int n = Keys.count();
        for (int k = sizedKeys; k < n; k++) unsized.set(k);
        sizedKeys = n;
        for (int k = unsized.nextSetBit(0); k >= 0; k = unsized.nextSetBit(k + 1)) {
            int type = Keys.type(k);
            if (type >= typeCount()) { unsized.clear(k); continue; }   // a key of WarmUp's throwaway registry
            TypeInfo t = typeById(type);
            long s = t.array ? 0 : sizeOf.applyAsLong(t);
            if (t.array || s > 0) unsized.clear(k);      // classes not loaded yet are tried again next time
            if (s > 0) Keys.setObjectSize(k, (int) s);
        }
    }

    public synchronized TypeInfo type(SiteInfo s) { return types.get(s.type); }
    public synchronized MethodInfo methodById(int id) { return methods.get(id); }
    public synchronized SiteInfo siteById(int id) { return sites.get(id); }
    public synchronized TypeInfo typeById(int id) { return types.get(id); }
    public synchronized int typeCount() { return types.size(); }
    public synchronized int siteCount() { return sites.size(); }
    public synchronized int methodCount() { return methods.size(); }

    /** For RegistryImage, under this registry's lock: site id → its first key. */
    Map<Integer, Integer> siteKeysView() { return siteKeys; }

    /** For RegistryImage, under this registry's lock: (site, type) → key of call-site allocations. */
    Map<Long, Integer> dynamicKeysView() { return dynamicKeys; }

    /** Element sizes follow the running JVM's reference size. */
    static int referenceSize() { return Layout.reference; }
}
