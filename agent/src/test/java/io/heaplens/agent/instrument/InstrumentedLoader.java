package io.heaplens.agent.instrument;

import io.heaplens.agent.core.Registry;

import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;

/** Defines the test fixtures' classes from instrumented bytes (child first for io.heaplens.fixtures). */
final class InstrumentedLoader extends ClassLoader {
    final Registry registry;
    private final Map<String, byte[]> extra = new HashMap<>();

    InstrumentedLoader(Registry registry) {
        super(InstrumentedLoader.class.getClassLoader());
        this.registry = registry;
    }

    void add(String name, byte[] original) { extra.put(name, original); }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c != null) return c;
            byte[] original = extra.get(name);
            if (original == null && name.startsWith("io.heaplens.fixtures.")) original = read(name);
            if (original == null) return super.loadClass(name, resolve);
            ClassInstrumenter.Result r = ClassInstrumenter.instrument(original, registry, true);
            byte[] b = r.bytes != null ? r.bytes : original;
            return defineClass(name, b, 0, b.length);
        }
    }

    private static byte[] read(String name) throws ClassNotFoundException {
        try (InputStream in = InstrumentedLoader.class.getClassLoader().getResourceAsStream(name.replace('.', '/') + ".class")) {
            if (in == null) throw new ClassNotFoundException(name);
            return in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new ClassNotFoundException(name, e);
        }
    }
}
