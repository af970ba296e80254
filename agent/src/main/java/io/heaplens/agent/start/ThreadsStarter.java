package io.heaplens.agent.start;

import io.heaplens.agent.threads.ThreadsProfiler;

/** threads=true: CPU samples, monitor contention and deadlocks (docs/threads.md), started once the collector runs. */
final class ThreadsStarter implements Starter {
    @Override public void started(Launch l) { ThreadsProfiler.start(l.options.cpuSampleMillis); }
}
