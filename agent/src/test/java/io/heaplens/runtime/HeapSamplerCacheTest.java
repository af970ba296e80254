package io.heaplens.runtime;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.lang.ref.WeakReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * sampler=jvmti's caches (methods by JVMTI id, site keys by bytecode index and class) find what they were given and do
 * not keep a class from unloading: a class of its own loader, cached as a method's holder and as a site's type, is
 * collected with its loader once nothing else holds them.
 */
class HeapSamplerCacheTest {
    /** The class this loader defines afresh (its own copy, so it unloads with the loader). */
    public static final class Probe {}

    private static final class OwnLoader extends ClassLoader {
        OwnLoader() { super(HeapSamplerCacheTest.class.getClassLoader()); }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(Probe.class.getName())) return super.loadClass(name, resolve);
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c != null) return c;
                try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                    byte[] b = in.readAllBytes();
                    return defineClass(name, b, 0, b.length);
                } catch (java.io.IOException e) {
                    throw new ClassNotFoundException(name, e);
                }
            }
        }
    }

    @Test
    void methodsAndSitesAreFoundAgain() {
        HeapSampler.Method m = new HeapSampler.Method(0x7E58_0001L, String.class, "m", "()V", null);
        HeapSampler.define(m);
        assertSame(m, HeapSampler.resolve(0x7E58_0001L));
        for (int bci = 0; bci < 40; bci++) m.addSite(bci, bci % 2 == 0 ? String.class : Integer.class, 1000 + bci);   // grows the table
        for (int bci = 0; bci < 40; bci++) {
            assertEquals(1000 + bci, m.siteKey(bci, bci % 2 == 0 ? String.class : Integer.class));
            assertEquals(Integer.MIN_VALUE, m.siteKey(bci, bci % 2 == 0 ? Integer.class : String.class));
        }
    }

    @Test
    void aCachedClassStillUnloads() throws Exception {
        WeakReference<ClassLoader> loader = cacheAClassOfItsOwnLoader();
        for (int i = 0; i < 50 && loader.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertNull(loader.get(), "the caches kept the class (and its loader) alive");
        assertNull(HeapSampler.resolve(0x7E58_0002L).holder());
    }

    private static WeakReference<ClassLoader> cacheAClassOfItsOwnLoader() throws Exception {
        ClassLoader own = new OwnLoader();
        Class<?> c = own.loadClass(Probe.class.getName());
        assertSame(own, c.getClassLoader());
        HeapSampler.Method m = new HeapSampler.Method(0x7E58_0002L, c, "<init>", "()V", null);
        HeapSampler.define(m);
        m.addSite(4, c, 77);
        assertEquals(77, m.siteKey(4, c));
        assertSame(c, HeapSampler.resolve(0x7E58_0002L).holder());
        return new WeakReference<>(own);
    }
}
