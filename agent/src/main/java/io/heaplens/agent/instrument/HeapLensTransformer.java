package io.heaplens.agent.instrument;

import io.heaplens.agent.cache.StartCache;
import io.heaplens.agent.core.PackageFilter;
import io.heaplens.agent.core.Registry;
import io.heaplens.runtime.Mode;
import io.heaplens.runtime.ThreadState;
import org.objectweb.asm.Opcodes;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Decides what each class gets and never lets a failure reach the program: any exception keeps the original
 * bytes and is counted. Runs with the thread's recorder guard up, so its own allocations are not profiled.
 */
public final class HeapLensTransformer implements ClassFileTransformer {
    /** Classes no probe may enter: the recorder's own path (ThreadLocal, references), method handles, the VM's plumbing. */
    private static final String[] NEVER = {
        "io/heaplens/", "java/lang/ThreadLocal", "java/lang/ref/", "java/lang/invoke/", "jdk/internal/vm/",
        "jdk/internal/misc/", "sun/instrument/", "java/lang/instrument/", "jdk/internal/reflect/", "sun/reflect/",
        "java/lang/VirtualThread", "jdk/internal/event/", "jdk/jfr/", "jdk/internal/loader/NativeLibrar",
    };
    private static final int NEWEST_SUPPORTED = Opcodes.V26;

    private final Registry registry;
    private final PackageFilter filter;
    private final boolean jdk;
    private final boolean verbose;
    private final TransformStats stats;
    private final Instrumentation inst;
    private final Module runtimeModule;
    private final ClassLoader platform = ClassLoader.getPlatformClassLoader();
    private final Set<Module> modulesWithReadEdge = Collections.newSetFromMap(new WeakHashMap<>());
    /**
     * Every class this transformer was asked about. The JVM does not call a transformer for a class loaded while
     * that same transformer runs on the thread, so such classes (JDK classes our own code needs first) are found
     * by {@link #unseen} and retransformed.
     */
    private final Set<Seen> seen = Collections.synchronizedSet(new java.util.HashSet<>());
    /** Mode.LEVEL_*: what the classes transformed from now on get (see Mode.level). */
    private volatile int level = Mode.LEVEL_TREE;

    /** Accounts mode: account patterns and liveness (null otherwise); set before the transformer is installed. */
    private volatile AccountsPlan accounts;

    public void accounts(AccountsPlan plan) { accounts = plan; }

    /** The start-up cache while the retransformation at start runs (null otherwise; see agent.cache). */
    private volatile StartCache startCache;

    public void startCache(StartCache cache) { startCache = cache; }

    /**
     * Set while the agent itself redefines JDK classes: at start with the cache's instrumented bytes
     * (StartRedefinition: final, the transformer keeps them), at the first mode switch with their original bytes
     * ({@link #restoreOriginals}: the transformer instruments them for the new level).
     */
    private volatile boolean redefiningAtStart, restoring;

    public void redefiningAtStart(boolean on) { redefiningAtStart = on; }

    /** Counts a class the start redefined with the cache's bytes as transformed. */
    public void redefinedAtStart(int methods, int sites) { stats.transformed(methods, sites); }

    public HeapLensTransformer(Registry registry, PackageFilter filter, boolean jdk, boolean verbose, TransformStats stats, Instrumentation inst) {
        this.registry = registry;
        this.filter = filter;
        this.jdk = jdk;
        this.verbose = verbose;
        this.stats = stats;
        this.inst = inst;
        this.runtimeModule = ThreadState.class.getModule();
        ClassInstrumenter.hasBoundaryOnly("");    // load what transform() needs before it can be called
    }

    public int level() { return level; }

    /** Classes transformed from now on get this level; the caller retransforms the loaded ones. */
    public void level(int level) { this.level = level; }

    public static boolean never(String internalName) {
        if (internalName.equals("java/lang/Object")) return true;
        for (String p : NEVER) if (internalName.startsWith(p)) return true;
        return false;
    }

    /** Whether a class must be transformed even when JDK allocation sites are off or it is otherwise never touched. */
    public static boolean hasBoundary(String internalName) {
        return internalName.equals("java/lang/ClassLoader") || ClassInstrumenter.hasBoundaryOnly(internalName);
    }

    /** Whether the retransformation at start should ask for this already-loaded class. */
    public boolean wanted(String internalName, ClassLoader loader) {
        if (never(internalName)) return ClassInstrumenter.hasBoundaryOnly(internalName);
        return jdk || !isJdk(loader) || hasBoundary(internalName);
    }

    /**
     * A class by loader (its identity hash, so that no loader is kept alive) and name: not a built string, since
     * the start-up sweep checks every loaded class in the interpreter.
     */
    private static final class Seen {
        final int loader;
        final String name;
        Seen(int loader, String name) { this.loader = loader; this.name = name; }
        @Override public int hashCode() { return loader * 31 + name.hashCode(); }
        @Override public boolean equals(Object o) { return o instanceof Seen && ((Seen) o).loader == loader && ((Seen) o).name.equals(name); }
    }

    private static Seen key(ClassLoader loader, String internalName) {
        return new Seen(loader == null ? 0 : System.identityHashCode(loader), internalName);
    }

    /** Loaded classes this transformer should have instrumented but was never asked about. */
    public java.util.List<Class<?>> unseen(Class<?>[] loaded) { return retransformable(loaded, true); }

    /** Loaded classes this transformer instruments and the JVM can retransform (all, or only the unseen ones). */
    public java.util.List<Class<?>> retransformable(Class<?>[] loaded, boolean unseenOnly) {
        java.util.List<Class<?>> out = new java.util.ArrayList<>();
        for (Class<?> c : loaded) {
            if (c.isArray() || c.isPrimitive() || c.isHidden() || !inst.isModifiableClass(c)) continue;
            String internal = c.getName().replace('.', '/');
            if (internal.startsWith("io/heaplens/") || !wanted(internal, c.getClassLoader())) continue;
            if (unseenOnly) {
                if (!seen.contains(key(c.getClassLoader(), internal))) out.add(c);
            } else if (leaveOut(c.getClassLoader(), internal)) {
                seen.add(key(c.getClassLoader(), internal));   // as if asked: its bytes stay as they are
            } else {
                out.add(c);
            }
        }
        return out;
    }

    /** A warm start leaves out the JDK classes its cache says keep their bytes (StartCache.unchangedAtStart). */
    private boolean leaveOut(ClassLoader loader, String internalName) {
        StartCache cache = startCache;
        return cache != null && level != Mode.LEVEL_NONE && accounts == null && !UseProbes.enabled && isJdk(loader)
            && cache.unchangedAtStart(loader, internalName);
    }

    public boolean isJdk(ClassLoader loader) { return loader == null || loader == platform; }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        // The agent's own classes first, before this method needs any class that might still be loading.
        if (className == null || className.startsWith("io/heaplens/")) return null;
        if (redefined == null) return transformBytes(module, loader, className, null, bytes);   // a class loading
        // What follows allocates (the seen set, the original bytes): not the program's, whatever thread asked.
        ThreadState ts = ThreadState.current();
        ts.busy++;
        try {
            return retransforming(module, loader, className, redefined, bytes);
        } finally {
            ts.busy--;
        }
    }

    /** A retransformation or redefinition of a loaded class: the agent's own, or one that starts from its original bytes. */
    private byte[] retransforming(Module module, ClassLoader loader, String className, Class<?> redefined, byte[] bytes) {
        // Restoring: the original bytes come in, and get the current level's probes (the JVM keeps the bytes as they came in)
        if (restoring) return transformBytes(module, loader, className, redefined, bytes);
        if (redefiningAtStart) {       // the start's own redefinition hands over the cache's bytes
            long t0 = System.nanoTime();
            seen.add(key(loader, className));
            redefinedAtStart.add(redefined);
            stats.time(System.nanoTime() - t0);
            return null;
        }
        if (!redefinedAtStart.contains(redefined)) return transformBytes(module, loader, className, redefined, bytes);
        // The JVM now hands over the bytes the start redefined the class with, instrumented: every level starts from
        // the class's own bytes instead, and "keep them" (null) means those bytes, not the instrumented ones.
        byte[] original = OriginalBytes.of(redefined, className);
        if (original == null) {
            stats.warn(className.replace('/', '.') + ": its original bytes could not be read; it keeps the probes it got at start");
            return null;
        }
        byte[] out = transformBytes(module, loader, className, redefined, original);
        return out != null ? out : original;
    }

    /** The JDK classes the start redefined with the cache's instrumented bytes (StartRedefinition). */
    private final Set<Class<?>> redefinedAtStart = Collections.synchronizedSet(new java.util.HashSet<>());

    /**
     * Before the first retransformation after the start (a mode switch): the JVM takes a redefinition's bytes as the
     * class's own from then on, so the classes the start redefined get their original bytes back by one more
     * redefinition (through this transformer, which gives them the new level's probes: no moment without probes),
     * and every later retransformation (ours, another agent's, while paused without our transformer) starts from
     * those. A class the JVM refuses stays in the set: the transformer substitutes its original bytes.
     * @return how many classes got their original bytes back
     */
    public int restoreOriginals(Instrumentation inst) {
        java.util.List<Class<?>> todo;
        synchronized (redefinedAtStart) { todo = new java.util.ArrayList<>(redefinedAtStart); }
        if (todo.isEmpty()) return 0;
        java.util.List<java.lang.instrument.ClassDefinition> defs = new java.util.ArrayList<>();
        for (Class<?> c : todo) {
            byte[] original = OriginalBytes.of(c, c.getName().replace('.', '/'));
            if (original != null) defs.add(new java.lang.instrument.ClassDefinition(c, original));
        }
        int done = 0;
        restoring = true;
        try {
            try {
                inst.redefineClasses(defs.toArray(new java.lang.instrument.ClassDefinition[0]));
                for (java.lang.instrument.ClassDefinition d : defs) redefinedAtStart.remove(d.getDefinitionClass());
                done = defs.size();
            } catch (Throwable all) {
                for (java.lang.instrument.ClassDefinition d : defs) {
                    try {
                        inst.redefineClasses(d);
                        redefinedAtStart.remove(d.getDefinitionClass());
                        done++;
                    } catch (Throwable one) {
                        stats.warn(d.getDefinitionClass().getName() + ": its original bytes could not be restored (" + one + ")");
                    }
                }
            }
        } finally {
            restoring = false;
        }
        return done;
    }

    private byte[] transformBytes(Module module, ClassLoader loader, String className, Class<?> redefined, byte[] bytes) {
        // From here on the agent works on the program's thread, and what it allocates in JDK code is not the
        // program's: unguarded, the seen set's growth (a 4,096-slot HashMap table once ~1,500 classes had loaded)
        // was charged to whatever the program was doing, e.g. its first SecureRandom (test/e2e/renamedjar.test.ts).
        ThreadState ts = ThreadState.current();
        ts.busy++;
        long t0 = System.nanoTime();
        try {
            seen.add(key(loader, className));
            int lv = level;
            if (lv == Mode.LEVEL_NONE) return null;        // paused: the original bytes, nothing to pay for
            boolean tree = lv == Mode.LEVEL_TREE;
            boolean boundaryOnly = never(className);
            if (boundaryOnly && (!tree || !ClassInstrumenter.hasBoundaryOnly(className))) return null;
            boolean isJdk = isJdk(loader);
            if (isJdk && !jdk && !hasBoundary(className)) return UseProbes.enabled ? fieldOnly(className, bytes) : null;
            int major = ((bytes[6] & 0xFF) << 8) | (bytes[7] & 0xFF);
            if (major > NEWEST_SUPPORTED) {
                stats.skipped(className.replace('/', '.') + ": class file version " + major + " is newer than this agent's bytecode library supports; left unprofiled");
                return null;
            }
            readEdge(module);
            AccountsPlan acc = accounts;   // accounts mode (allocation level): account switches, liveness
            boolean profiled = !isJdk && filter.profiles(className);
            // Only JDK classes with the mode's own probes are cached (exact, sites, sampled: the mode is in the cache's
            // key); accounts and lifetimes add plans and fields of their own.
            StartCache cache = isJdk && acc == null && !UseProbes.enabled ? startCache : null;
            StartCache.Entry hit = cache != null ? cache.lookup(loader, className, bytes) : null;
            if (hit != null) {
                for (String w : hit.warnings) stats.warn(w);
                if (hit.out == null) return null;            // nothing to instrument in it
                stats.transformed(hit.methods, hit.sites);
                return hit.out;
            }
            ClassInstrumenter.Result r = ClassInstrumenter.instrument(bytes, registry, profiled && !boundaryOnly, boundaryOnly, tree);
            for (String w : r.warnings) stats.warn(w);
            for (String m : r.methodsLeftAlone) stats.warn(className.replace('/', '.') + "." + m + ": too large to instrument (64 KB limit); left as is");
            if (UseProbes.enabled && !(profiled && !boundaryOnly)) {
                byte[] withField = UseProbes.fieldOnly(r.bytes != null ? r.bytes : bytes);   // loaded by a JDK loader
                if (withField != null) r.bytes = withField;
            }
            byte[] out = r.bytes;
            if (acc != null && !boundaryOnly) out = acc.apply(className, bytes, out);
            if (cache != null && cache.recording()) {
                java.util.List<String> warned = new java.util.ArrayList<>(r.warnings);
                for (String m : r.methodsLeftAlone) warned.add(className.replace('/', '.') + "." + m + ": too large to instrument (64 KB limit); left as is");
                cache.record(loader, className, redefined != null, bytes, out, r.methodsProfiled, r.sites, warned);
            }
            if (out == null) return null;
            stats.transformed(r.methodsProfiled, r.sites);
            return out;
        } catch (Throwable t) {
            String loaderName = loader == null ? "bootstrap" : loader.getClass().getName();
            stats.failed(className.replace('/', '.'), loaderName, String.valueOf(t));
            if (verbose) System.err.println("heaplens: could not instrument " + className + " (" + t + "); it runs unprofiled");
            return UseProbes.enabled ? fieldOnly(className, bytes) : null;
        } finally {
            stats.time(System.nanoTime() - t0);
            ts.busy--;
        }
    }

    /**
     * Lifetime mode: a class other classes' probes expect to carry the record field gets at least the field, even
     * when it is otherwise left alone, so those probes always link.
     */
    private byte[] fieldOnly(String className, byte[] bytes) {
        if (!UseProbes.carriesField(className)) return null;
        try {
            return UseProbes.fieldOnly(bytes);
        } catch (Throwable t) {
            stats.failed(className.replace('/', '.'), "lifetime field", String.valueOf(t));
            return null;
        }
    }

    /** Called before the transformer is installed: editing a module from inside a transform can recurse into class loading. */
    public void addReadEdges(Set<Module> modules) {
        for (Module m : modules) readEdge(m);
    }

    /** Named modules (java.base, …) must read the bootstrap unnamed module that holds the recorder. */
    private void readEdge(Module module) {
        if (module == null || !module.isNamed()) return;
        synchronized (modulesWithReadEdge) {
            if (!modulesWithReadEdge.add(module)) return;
        }
        if (!module.canRead(runtimeModule)) {
            inst.redefineModule(module, Set.of(runtimeModule), Map.of(), Map.of(), Set.of(), Map.of());
        }
    }
}
