package io.heaplens.agent.cache;

import io.heaplens.agent.core.Options;
import io.heaplens.runtime.Layout;

import java.io.File;
import java.net.URI;
import java.net.URL;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;

/**
 * What the cached bytes depend on: the JDK build (its class bytes), the agent build (the instrumenter) and the
 * options that change what a class gets. Two runs with the same key may share a cache file.
 */
public final class CacheKey {
    /** Options that change only where and how often the agent writes, never a class's bytes. */
    private static final Set<String> OUTPUT_ONLY = Set.of(
        "out", "portFile", "tokenFile", "verbose", "interval", "compress", "heapDumpAtExit", "memoryInterval",
        "snapshotInterval", "snapshotGc", "startCache", "maxNodes", "maxDepth");

    private CacheKey() {}

    /** The key text, or null when the agent jar cannot be found (no cache then). */
    static String of(Options options) throws Exception {
        java.util.List<String> jvmArgs = jvmArguments();
        File jar = agentJar(jvmArgs);
        if (jar == null) return null;
        StringBuilder k = new StringBuilder();
        for (String p : new String[] {"java.vm.vendor", "java.vm.name", "java.vm.version", "java.runtime.version", "java.home"}) {
            k.append(p).append('=').append(System.getProperty(p)).append('\n');
        }
        // java.io, not NIO: read before the transformer is installed (see StartCache's file)
        File modules = new File(new File(System.getProperty("java.home"), "lib"), "modules");
        if (modules.exists()) {
            k.append("modules=").append(modules.length()).append('@').append(modules.lastModified()).append('\n');
        }
        byte[] bytes = readAll(jar);
        CRC32 crc = new CRC32();
        crc.update(bytes);
        k.append("agent=").append(bytes.length).append(':').append(Long.toHexString(crc.getValue())).append('\n');
        k.append("reference=").append(Layout.reference).append('\n');
        k.append("mode=").append(options.mode).append('\n');   // the default (exact) is not among the raw options
        for (String a : classChanging(jvmArgs)) k.append("jvm ").append(a).append('\n');
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(options.raw).entrySet()) {
            if (!OUTPUT_ONLY.contains(e.getKey())) k.append("option ").append(e.getKey()).append('=').append(e.getValue()).append('\n');
        }
        return k.toString();
    }

    /** The JVM's arguments: /proc/self/cmdline, then the two environment variables; empty where there is none. */
    static java.util.List<String> jvmArguments() {
        java.util.List<String> args = new java.util.ArrayList<>();
        try {
            File cmdline = new File("/proc/self/cmdline");
            if (cmdline.canRead()) {
                for (String a : new String(readAll(cmdline), java.nio.charset.StandardCharsets.UTF_8).split("\0")) args.add(a);
            }
        } catch (Throwable ignored) {
            // no command line to read: the key holds the rest
        }
        for (String env : new String[] {"JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"}) {
            String v = System.getenv(env);
            if (v != null) for (String a : v.trim().split("\\s+")) args.add(a);
        }
        return args;
    }

    /**
     * The JVM arguments that can change the bytes of a JDK class before this agent sees it: other agents and
     * patched modules (a warm start leaves out classes whose recorded bytes it does not see again). This agent's own
     * argument counts without its options, which change only the output.
     */
    static java.util.List<String> classChanging(java.util.List<String> args) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String form = agentFormOf(a);
            if (form != null) {
                // the form stays in the key: the two start the JVM with different module graphs (docs/agent-options.md)
                out.add(agentJarOf(a).endsWith("heaplens-agent.jar") ? form + "heaplens" : a);
            } else if (a.startsWith("-agentlib:") || a.startsWith("-agentpath:") || a.startsWith("-Xbootclasspath")
                || a.startsWith("--patch-module=")) {
                out.add(a);
            } else if (a.equals("--patch-module") && i + 1 < args.size()) {
                out.add(a + "=" + args.get(++i));
            }
        }
        return out;
    }

    /**
     * The two ways to hand the JVM a Java agent, each followed by JAR[=OPTIONS]: {@code -javaagent:}, and what the JVM
     * turns it into, {@code -agentlib:instrument=}.
     */
    private static final String[] AGENT_FORMS = {"-javaagent:", "-agentlib:instrument="};

    /** The form of a Java agent argument ("-javaagent:" or "-agentlib:instrument="); null for any other argument. */
    static String agentFormOf(String a) {
        for (String f : AGENT_FORMS) if (a.startsWith(f)) return f;
        return null;
    }

    /** The jar of a Java agent argument in either form; null for any other argument. */
    static String agentJarOf(String a) {
        String form = agentFormOf(a);
        if (form == null) return null;
        int eq = a.indexOf('=', form.length());
        return a.substring(form.length(), eq < 0 ? a.length() : eq);
    }

    /** The file name of a key: a hash of its text (the text itself is stored inside and compared on reading). */
    static String fileName(String key) {
        CRC32 a = new CRC32();
        a.update(key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return "start-" + Long.toHexString(a.getValue()) + "-" + Integer.toHexString(key.hashCode()) + ".bin";
    }

    /**
     * The agent jar this class was loaded from. A jar named heaplens-agent.jar puts itself on the bootstrap class path
     * (its manifest's Boot-Class-Path), so when this class is a boot class and exactly one such jar is a Java agent
     * (in either form), it is that one: read from the command line, since finding it through this class's own
     * class file's URL (a boot class has no code source) opens it through the class loaders' jar and module readers,
     * ~60 JDK classes that the start then had to redefine. Otherwise (a renamed jar, two agents), by that URL.
     */
    static File agentJar(java.util.List<String> jvmArgs) throws Exception {
        if (CacheKey.class.getClassLoader() == null) {
            File named = namedAgentJar(jvmArgs);
            if (named != null && named.isFile()) return named;
        }
        return agentJarByUrl();
    }

    /** The agent jar this JVM runs (the native heap sampler lies next to it); null when it cannot be told. */
    public static File thisAgentJar() {
        try {
            return agentJar(jvmArguments());
        } catch (Exception e) {
            return null;
        }
    }

    /** The one Java agent jar named heaplens-agent.jar among these arguments (either form), as an absolute path; else null. */
    static File namedAgentJar(java.util.List<String> jvmArgs) {
        File found = null;
        for (String a : jvmArgs) {
            String jar = agentJarOf(a);
            if (jar == null || !jar.endsWith("heaplens-agent.jar")) continue;
            File p = new File(jar).getAbsoluteFile();
            if (!p.getName().equals("heaplens-agent.jar") || (found != null && !found.equals(p))) return null;
            found = p;
        }
        return found;
    }

    private static File agentJarByUrl() throws Exception {
        URL u = CacheKey.class.getResource("/io/heaplens/agent/cache/CacheKey.class");
        if (u == null || !"jar".equals(u.getProtocol())) return null;
        String s = u.getPath();                                  // file:/…/heaplens-agent.jar!/io/…
        int bang = s.indexOf("!/");
        if (bang < 0 || !s.startsWith("file:")) return null;
        File f = new File(new URI(s.substring(0, bang)));
        return f.isFile() ? f : null;
    }

    private static byte[] readAll(File f) throws java.io.IOException {
        try (java.io.FileInputStream in = new java.io.FileInputStream(f)) { return in.readAllBytes(); }
    }
}
