package io.heaplens.agent.collect;

import java.util.List;

/** Facts about this JVM and agent that every profile write repeats. */
public final class AgentInfo {
    public String version = "0.1.0";
    public long pid = pid();
    public String command = System.getProperty("sun.java.command", "");
    public List<String> jvmArgs = List.of();
    public long startTime = System.currentTimeMillis();
    public String layoutSource = "";

    /**
     * This process's id. On Linux from the /proc/self link, through java.io, which the JVM has loaded: {@code
     * ProcessHandle.current()} sets up its reaper's thread pool, ~40 JDK classes loaded (and instrumented) on the
     * way to the program's {@code main}. Elsewhere, or when /proc is not there, ProcessHandle.
     */
    static long pid() {
        try {
            String self = new java.io.File("/proc/self").getCanonicalFile().getName();
            boolean digits = !self.isEmpty() && self.length() < 19;
            for (int i = 0; i < self.length(); i++) digits &= self.charAt(i) >= '0' && self.charAt(i) <= '9';
            if (digits) return Long.parseLong(self);
        } catch (Throwable notLinux) {
            // fall through
        }
        return ProcessHandle.current().pid();
    }
}
