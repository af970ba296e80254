package io.heaplens.agent.control;

import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import javax.management.DynamicMBean;
import javax.management.ObjectName;

/**
 * Keeps the agent's own code (the transformer, the relocated ASM, the collector and its writers) out of C2: it runs
 * as C1 code. Measured on h2 (JDK 17, docs/benchmark.md "Round 4"): C2 compiling the transformer and ASM — hot
 * because every class the program and the JDK load goes through them — was about a third of the compiler threads'
 * time in the exact mode, more than the C2 code saved in running them. The probes ({@code io.heaplens.runtime}) are
 * not matched: C2 still inlines them into the program's hot code.
 *
 * A compiler directive (JEP 165), added through the {@code Compiler.directives_add} diagnostic command, which reads
 * it from a file. Directives only choose compilers, so nothing recorded changes. Where the command is missing
 * (a runtime without jdk.management) or refused, the JIT keeps its defaults. The command's MBean is taken from
 * jdk.management directly rather than through the platform MBean server: creating that server registers every
 * platform MBean, start-up work the program may never ask for.
 */
public final class AgentJit {
    /** Methods of these classes: C2 excluded, so the JIT's policy compiles them at C1's full-optimisation level. */
    static final String DIRECTIVES =
        "[{ match: [\"io/heaplens/agent/*.*\", \"io/heaplens/shaded/*.*\"], c2: { Exclude: true } }]\n";

    private AgentJit() {}

    /** Adds the directive; returns the command's reply, or the reason it could not be added. */
    public static String c1Only(Instrumentation inst) {
        Path file = null;
        try {
            file = Files.createTempFile("heaplens-jit", ".json");
            Files.write(file, DIRECTIVES.getBytes(StandardCharsets.UTF_8));
            Object[] args = {new String[] {file.toString()}};
            String[] signature = {String[].class.getName()};
            DynamicMBean direct = diagnosticCommands(inst);
            Object reply = direct != null
                ? direct.invoke("compilerDirectivesAdd", args, signature)
                : ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesAdd", args, signature);
            return String.valueOf(reply).trim();
        } catch (Throwable t) {
            return "not added: " + t;
        } finally {
            if (file != null) {
                try { Files.deleteIfExists(file); } catch (Throwable ignored) { /* a temp file left behind */ }
            }
        }
    }

    /** The JDK's diagnostic command MBean without an MBean server (its package opened to the agent), or null. */
    private static DynamicMBean diagnosticCommands(Instrumentation inst) {
        try {
            Class<?> impl = Class.forName("com.sun.management.internal.DiagnosticCommandImpl");
            Module m = impl.getModule();
            inst.redefineModule(m, Set.of(), Map.of(), Map.of(impl.getPackageName(), Set.of(AgentJit.class.getModule())),
                Set.of(), Map.of());
            Method get = impl.getDeclaredMethod("getDiagnosticCommandMBean");
            get.setAccessible(true);
            return (DynamicMBean) get.invoke(null);
        } catch (Throwable t) {
            return null;
        }
    }
}
