package io.heaplens.agent.control;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

/**
 * Keeps the agent's own code (the transformer, the relocated ASM, the collector and its writers) out of C2: it runs
 * as C1 code. Measured on h2 (JDK 17, docs/benchmark.md "Round 4"): C2 compiling the transformer and ASM — hot
 * because every class the program and the JDK load goes through them — was about a third of the compiler threads'
 * time in the exact mode, more than the C2 code saved in running them. The probes ({@code io.heaplens.runtime}) are
 * not matched: C2 still inlines them into the program's hot code.
 *
 * A compiler directive (JEP 165), added by the {@code Compiler.directives_add} diagnostic command, which reads it
 * from a file. Directives only choose compilers, so nothing recorded changes. The command is run through the JDK's
 * own native entry ({@code DiagnosticCommandImpl.executeDiagnosticCommand}, its package opened to the agent), not
 * through the MBean: building the MBean's description initialises JFR's commands, {@code Formatter} and regular
 * expressions, JDK work a program's first use of them would then no longer be charged for (measured on h2:
 * {@code org.h2.engine.Mode.<clinit>} lost its {@code Pattern} initialisation). Where that entry is missing or
 * refuses, the JIT keeps its defaults.
 */
public final class AgentJit {
    /** Methods of these classes: C2 excluded, so the JIT's policy compiles them at C1's full-optimisation level. */
    static final String DIRECTIVES =
        "[{ match: [\"io/heaplens/agent/*.*\", \"io/heaplens/shaded/*.*\"], c2: { Exclude: true } }]\n";
    private static final String IMPL = "com.sun.management.internal.DiagnosticCommandImpl";
    /** Loads the command's native library (management_ext) as it initialises; the platform MXBeans would too, and much more. */
    private static final String NATIVE_LOADER = "com.sun.management.internal.PlatformMBeanProviderImpl";

    private AgentJit() {}

    /** Adds the directive; returns the command's reply, or the reason it could not be added. */
    public static String c1Only(Instrumentation inst) {
        try {
            Class<?> impl = Class.forName(IMPL);
            inst.redefineModule(impl.getModule(), Set.of(), Map.of(),
                Map.of(impl.getPackageName(), Set.of(AgentJit.class.getModule())), Set.of(), Map.of());
            return addDirectives(impl);
        } catch (Throwable t) {
            return "not added: " + t;
        }
    }

    /** Runs {@code Compiler.directives_add} on {@link #DIRECTIVES}; {@code impl}'s package must be open to the agent. */
    static String addDirectives(Class<?> impl) throws Exception {
        Class.forName(NATIVE_LOADER, true, impl.getClassLoader());
        java.io.File file = directivesFile();
        try {
            return run(impl, "Compiler.directives_add " + file).trim();
        } finally {
            file.delete();
        }
    }

    /**
     * A new file holding {@link #DIRECTIVES}, named after the clock rather than by {@code Files.createTempFile}: its
     * random name sets up {@code SecureRandom} and the security providers, about 130 JDK classes that the start then
     * had to load and redefine, and JDK work the program's own first {@code SecureRandom} would no longer be charged
     * for. java.io rather than NIO for the same reason (NIO's file system is not loaded with the JVM). Created new
     * (never through an existing file or link), so no other user's file is read in its place.
     */
    static java.io.File directivesFile() throws java.io.IOException {
        java.io.File dir = new java.io.File(System.getProperty("java.io.tmpdir"));
        for (int attempt = 0; ; attempt++) {
            // not the process id: ProcessHandle's set-up (its reaper's thread pool) is more JDK classes to redefine
            java.io.File file = new java.io.File(dir, "heaplens-jit-" + Long.toHexString(System.nanoTime()) + ".json");
            if (file.createNewFile()) {
                try (java.io.FileOutputStream out = new java.io.FileOutputStream(file)) {
                    out.write(DIRECTIVES.getBytes(StandardCharsets.UTF_8));
                } catch (java.io.IOException e) {
                    file.delete();
                    throw e;
                }
                return file;
            }
            if (attempt == 10) throw new java.io.IOException("could not create a file in " + dir);
        }
    }

    /** One diagnostic command, as jcmd would run it; its output. */
    static String run(Class<?> impl, String command) throws Exception {
        Method get = impl.getDeclaredMethod("getDiagnosticCommandMBean");
        get.setAccessible(true);
        Method execute = impl.getDeclaredMethod("executeDiagnosticCommand", String.class);
        execute.setAccessible(true);
        return String.valueOf(execute.invoke(get.invoke(null), command));
    }
}
