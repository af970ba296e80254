package io.heaplens.agent.boot;

import java.io.File;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * The -javaagent entry. The recorder (package io.heaplens.runtime) must live on the bootstrap class path so that
 * JDK classes and every class loader can call it. Normally the manifest's Boot-Class-Path has put the whole jar
 * there already (ASM is relocated, so nothing clashes with an application's own ASM); when the jar was renamed,
 * the recorder is copied out and appended here. The rest of the agent is loaded by reflection afterwards, so no
 * recorder class is ever loaded from the application class path first. Any failure leaves the program
 * running unprofiled, with one line on stderr.
 */
public final class Premain {
    private static final String RUNTIME_PACKAGE = "io/heaplens/runtime/";

    private Premain() {}

    public static void premain(String args, Instrumentation inst) {
        try {
            Class<?> optionsClass = Class.forName("io.heaplens.agent.core.Options");
            Object options = optionsClass.getMethod("parse", String.class).invoke(null, args);
            @SuppressWarnings("unchecked")
            java.util.List<String> errors = (java.util.List<String>) optionsClass.getField("errors").get(options);
            if (!errors.isEmpty()) {
                System.err.println("heaplens: " + String.join("; ", errors) + " — see docs/agent-options.md. The program runs unprofiled.");
                return;
            }
            if (Premain.class.getClassLoader() != null) {
                // The jar was renamed, so its Boot-Class-Path entry (heaplens-agent.jar) did not resolve: append the
                // recorder now. It works the same; the JVM then says class sharing is limited to boot classes.
                inst.appendToBootstrapClassLoaderSearch(new JarFile(runtimeJar()));
            }
            Class.forName("io.heaplens.agent.start.AgentMain").getMethod("start", optionsClass, Instrumentation.class)
                .invoke(null, options, inst);
        } catch (Throwable t) {
            Throwable cause = t instanceof java.lang.reflect.InvocationTargetException ? t.getCause() : t;
            System.err.println("heaplens: the agent could not start (" + cause + "); the program runs unprofiled.");
        }
    }

    public static void agentmain(String args, Instrumentation inst) {
        if (args != null && java.util.Arrays.asList(args.split(",")).contains("mode=lifetime")) {
            // Its use probes read a field every profiled class gets as it loads; loaded classes cannot get one.
            System.err.println("heaplens: the lifetime mode cannot attach to a running JVM; launch the program with mode=lifetime. The program runs unprofiled.");
            return;
        }
        premain(args, inst);
    }

    /**
     * Copies the recorder's classes out of this jar into a private temporary jar. The entries get a fixed local time:
     * one from the clock would be turned into a zip time through the default time zone, reading the time zone
     * database, work the program would then find done and not be charged with (docs/reliability.md §2h). Built here,
     * not in a static field: java.time's classes would load at every start, and each was then redefined.
     */
    private static File runtimeJar() throws Exception {
        File self = new File(Premain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = newTemporaryDirectory();
        File jar = dir.resolve("heaplens-runtime.jar").toFile();
        try (JarFile in = new JarFile(self); OutputStream fos = Files.newOutputStream(jar.toPath());
             JarOutputStream out = new JarOutputStream(fos)) {
            Enumeration<JarEntry> entries = in.entries();
            while (entries.hasMoreElements()) {
                JarEntry e = entries.nextElement();
                if (!e.getName().startsWith(RUNTIME_PACKAGE) || e.isDirectory()) continue;
                JarEntry copy = new JarEntry(e.getName());
                copy.setTimeLocal(LocalDateTime.of(2020, 1, 1, 0, 0));
                out.putNextEntry(copy);
                try (InputStream is = in.getInputStream(e)) { is.transferTo(out); }
                out.closeEntry();
            }
        }
        jar.deleteOnExit();
        dir.toFile().deleteOnExit();
        return jar;
    }

    /**
     * A new private directory in the temporary directory, named after the clock: {@code Files.createTempDirectory}'s
     * random name would set up {@code SecureRandom} and the security providers, JDK work the program's own first
     * {@code SecureRandom} would then not be charged for (test/e2e/renamedjar.test.ts). Created new, owner-only.
     */
    private static Path newTemporaryDirectory() throws Exception {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        for (int attempt = 0; ; attempt++) {
            try {
                return Files.createDirectory(tmp.resolve("heaplens-" + Long.toHexString(System.nanoTime())),
                    java.nio.file.attribute.PosixFilePermissions.asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
            } catch (java.nio.file.FileAlreadyExistsException taken) {
                if (attempt == 10) throw taken;
            } catch (UnsupportedOperationException notPosix) {
                return Files.createDirectory(tmp.resolve("heaplens-" + Long.toHexString(System.nanoTime())));
            }
        }
    }
}
