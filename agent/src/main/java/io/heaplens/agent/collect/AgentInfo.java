package io.heaplens.agent.collect;

import java.util.List;

/** Facts about this JVM and agent that every profile write repeats. */
public final class AgentInfo {
    public String version = "0.1.0";
    public long pid = ProcessHandle.current().pid();
    public String command = System.getProperty("sun.java.command", "");
    public List<String> jvmArgs = List.of();
    public long startTime = System.currentTimeMillis();
    public String layoutSource = "";
}
