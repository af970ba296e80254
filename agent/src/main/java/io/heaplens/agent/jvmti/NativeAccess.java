package io.heaplens.agent.jvmti;

import java.lang.instrument.Instrumentation;

/**
 * JDK 24+ prints a warning into the program's standard error the first time code in a module without native access
 * loads a library (JEP 472) — the program's output is not ours to change. The agent's runtime lives in the unnamed
 * module, so it enables native access for the unnamed modules before loading, as {@code --enable-native-access=ALL-UNNAMED}
 * would, through the JDK's own internal entry (exported to the agent with {@link Instrumentation#redefineModule}): no
 * launcher needs a JDK-version-dependent flag, and an attached agent works too. A program run with
 * {@code --illegal-native-access=deny} keeps that choice: the agent then uses the probes.
 */
final class NativeAccess {
    private NativeAccess() {}

    /** @return null when the library may be loaded without a warning, else why not */
    static String allow(Instrumentation inst) {
        if (Runtime.version().feature() < 22) return null;      // no native-access checks before JDK 22
        String mode = System.getProperty("jdk.module.illegal.native.access");
        if ("deny".equals(mode)) return "the JVM runs with --illegal-native-access=deny";
        if ("allow".equals(mode)) return null;
        try {
            Module base = Object.class.getModule();
            Module self = NativeAccess.class.getModule();
            inst.redefineModule(base, java.util.Set.of(), java.util.Map.of("jdk.internal.module", java.util.Set.of(self)),
                java.util.Map.of(), java.util.Set.of(), java.util.Map.of());
            Class.forName("jdk.internal.module.Modules").getMethod("addEnableNativeAccessToAllUnnamed").invoke(null);
            return null;
        } catch (Throwable t) {
            // Loading still works; JDK 24+ then prints its one warning.
            return null;
        }
    }
}
