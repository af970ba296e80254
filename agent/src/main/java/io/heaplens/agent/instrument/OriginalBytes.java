package io.heaplens.agent.instrument;

import java.io.InputStream;

/**
 * A JDK class's class file as its module holds it (the runtime image, through the module's reader): the bytes a class
 * redefined at start with the start-up cache's instrumented bytes returns to when the mode changes. The cache's key
 * names the JDK build, so these are the bytes the cached class was made from (the JVM's rebuilt class file the cache
 * recorded differs in layout only: constant pool order, attributes).
 */
final class OriginalBytes {
    private OriginalBytes() {}

    /** @return the class file, or null when the module does not hold it */
    static byte[] of(Class<?> c, String internalName) {
        try (InputStream in = c.getModule().getResourceAsStream(internalName + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (Throwable t) {
            return null;
        }
    }
}
