package io.heaplens.agent.collect;

import java.util.List;

/** Facts about this JVM and agent that every profile write repeats. */
public final class AgentInfo {
    public String version = "0.1.0";
    public long pid = currentPid();
    public String command = System.getProperty("sun.java.command", "");
    public List<String> jvmArgs = List.of();
    public long startTime = System.currentTimeMillis();
    public String layoutSource = "";

    /**
     * This process's id: on Linux the name of the directory /proc/self links to, read with java.io classes the agent
     * has loaded already; elsewhere ProcessHandle, whose set-up (its reaper's thread pool: ~65 JDK classes, under the
     * agent each through the transformer) takes 10-25 ms even in a plain JVM (docs/benchmark.md "Start-up, Round 8").
     */
    static long currentPid() {
        try {
            java.io.File self = new java.io.File("/proc/self");
            if (self.isDirectory()) return Long.parseLong(self.getCanonicalFile().getName());
        } catch (Exception notThere) {
            // no procfs, or not a number: ask the JDK
        }
        return ProcessHandle.current().pid();
    }
}
