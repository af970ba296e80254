package io.heaplens.agent.jvmti;

import io.heaplens.agent.core.PackageFilter;
import io.heaplens.agent.core.Registry;
import io.heaplens.agent.core.Types;
import io.heaplens.agent.instrument.TransformStats;
import io.heaplens.runtime.HeapSampler;
import io.heaplens.runtime.Mode;
import io.heaplens.runtime.Sampler;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.Locale;

/**
 * sampler=jvmti: the sampled mode fed by HotSpot's heap sampler (JEP 331) through the native library next to the
 * agent jar (agent/src/main/c/heaplens-sampler.c); {@link HeapSampler} takes the samples. Where the library cannot
 * load (no file for this OS and architecture, a JVM without JVMTI heap sampling, native access denied) one warning
 * says why and the probes stay.
 */
public final class JvmtiSampling {
    private JvmtiSampling() {}

    /** The library's file name for this OS and architecture, e.g. libheaplens-sampler-linux-x64.so. */
    public static String libraryName() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String a = arch.equals("amd64") || arch.equals("x86_64") ? "x64" : arch.equals("aarch64") ? "arm64" : arch;
        if (os.contains("linux")) return "libheaplens-sampler-linux-" + a + ".so";
        if (os.contains("mac")) return "libheaplens-sampler-darwin-" + a + ".dylib";
        if (os.contains("windows")) return "heaplens-sampler-win32-" + a + ".dll";
        return "libheaplens-sampler-" + os.replace(' ', '_') + "-" + a + ".so";
    }

    /**
     * Loads the library, sets the interval and makes the sampled mode probe-free; on failure records a warning and
     * leaves the probe sampler in place. Call before the transformer's level is chosen.
     */
    public static boolean start(Registry registry, PackageFilter filter, Instrumentation inst, TransformStats stats, long sampleBytes) {
        String why;
        try {
            File jar = io.heaplens.agent.cache.CacheKey.thisAgentJar();
            File lib = jar == null ? null : new File(jar.getAbsoluteFile().getParentFile(), libraryName());
            if (lib == null) {
                why = "the agent jar's location is unknown, so its native library " + libraryName() + " cannot be found";
            } else if (!lib.isFile()) {
                why = "no native library " + lib.getName() + " next to the agent jar (" + lib.getParent() + ")";
            } else {
                why = NativeAccess.allow(inst);
                if (why == null) why = HeapSampler.load(lib.getAbsolutePath(), sampleBytes);
            }
        } catch (Throwable t) {
            why = String.valueOf(t);
        }
        if (why != null) {
            stats.warn("sampler=jvmti: HotSpot's heap sampler could not be used (" + why + "); the sampled mode uses bytecode probes");
            return false;
        }
        Sampler.frames = new Frames(registry, filter);
        Sampler.sites = new Sites(registry);
        Mode.sampledByJvm = true;
        HeapSampler.follow(Mode.get());
        return true;
    }

    /**
     * A heap sample's allocation site: the allocating frame and bytecode index (kind "jvmti"), and the object's type.
     * The runtime asks once per (method, bytecode index, class).
     */
    static final class Sites implements Sampler.Sites {
        private final Registry registry;

        Sites(Registry registry) { this.registry = registry; }

        @Override
        public int key(String cls, String method, String descriptor, int bci, int line, Class<?> type) {
            synchronized (registry) {
                Registry.MethodInfo mi = registry.method(cls.replace('.', '/'), method, descriptor);
                return registry.keyFor(registry.site(mi.id, bci, line, "jvmti", Types.descriptorOf(type)).id, type);
            }
        }
    }

    /**
     * The frames of a heap sample's trace: with no class transformed in this mode, a method of a profiled class is
     * registered the first time a trace shows it (as the JFR sampler does); JDK classes (bootstrap and platform
     * loaders) stay out of the tree as in the exact mode.
     */
    static final class Frames implements Sampler.Frames {
        private final Registry registry;
        private final PackageFilter filter;
        private final Sampler.Frames known;

        Frames(Registry registry, PackageFilter filter) {
            this.registry = registry;
            this.filter = filter;
            this.known = registry.samplerFrames();
        }

        @Override public int methodId(String c, String m, String d) { return known.methodId(c, m, d); }
        @Override public int methodIdByName(String c, String m) { return known.methodIdByName(c, m); }

        @Override
        public int methodId(Class<?> cls, String c, String m, String d) {
            int id = known.methodId(c, m, d);
            return id >= 0 || !profiled(cls) ? id : register(c, m, d);
        }

        @Override
        public int methodIdByName(Class<?> cls, String c, String m) {
            return known.methodIdByName(c, m);    // while a class loads: only methods already known (no descriptor)
        }

        private boolean profiled(Class<?> cls) {
            if (cls == null || cls.isHidden()) return false;
            ClassLoader l = cls.getClassLoader();
            return l != null && l != ClassLoader.getPlatformClassLoader() && filter.profiles(cls.getName().replace('.', '/'));
        }

        private int register(String c, String m, String d) {
            synchronized (registry) {
                Registry.MethodInfo mi = registry.method(c.replace('.', '/'), m, d);
                mi.profiled = true;
                if (mi.file == null) mi.file = sourceFile(c);   // a class nobody transformed: for the hot lines
                return mi.id;
            }
        }
    }

    /** The source file a class was most likely compiled from: its outermost class's simple name + ".java" (as JFR's). */
    static String sourceFile(String cls) {
        String simple = cls.substring(cls.lastIndexOf('.') + 1);
        int inner = simple.indexOf('$');
        return (inner > 0 ? simple.substring(0, inner) : simple) + ".java";
    }
}
