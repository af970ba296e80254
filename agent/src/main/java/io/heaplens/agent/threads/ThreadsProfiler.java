package io.heaplens.agent.threads;

import io.heaplens.agent.collect.AgentThreads;
import io.heaplens.agent.collect.Json;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Thread-aware CPU sampling, monitor contention and deadlock detection (Liang & Viswanathan 1999; docs/threads.md).
 *
 * Every {@code intervalMillis} the sampler reads each thread's CPU time (ThreadMXBean): only threads whose CPU
 * time grew since the last tick are charged a sample — the paper's "did the registers change" test, answered
 * exactly by the OS — and only their stacks (plus those of threads blocked on a monitor) are taken. Deadlocks
 * are looked for every 200 ms; each new one is recorded and handed to the listener (the live channel).
 */
public final class ThreadsProfiler implements Runnable {
    private static final int MAX_DEPTH = 128;
    private static final int DEADLOCK_EVERY_MILLIS = 200;
    private static volatile ThreadsProfiler instance;

    /** Receives each new deadlock (the channel sends it to the client as an event). */
    public interface DeadlockListener {
        void deadlock(Deadlock d);
    }

    private final ThreadMXBean mx;
    final int intervalMillis;
    private final Map<Long, ThreadRecord> threads = new LinkedHashMap<Long, ThreadRecord>();
    private final Map<String, LockRecord> locks = new LinkedHashMap<String, LockRecord>();
    private final List<Deadlock> deadlocks = new ArrayList<Deadlock>();
    private final Set<String> seenDeadlocks = new HashSet<String>();
    private long ticks, samples, sampledThreads;
    private long lastDeadlockCheck;
    private volatile DeadlockListener listener;
    private volatile boolean stopped;

    private ThreadsProfiler(int intervalMillis) {
        this.mx = ManagementFactory.getThreadMXBean();
        this.intervalMillis = intervalMillis;
    }

    public static ThreadsProfiler get() { return instance; }

    /** Starts the sampler thread; returns null (and says why) when the JVM cannot measure thread CPU time. */
    public static ThreadsProfiler start(int intervalMillis) {
        ThreadsProfiler p = new ThreadsProfiler(intervalMillis);
        if (!p.mx.isThreadCpuTimeSupported()) {
            System.err.println("heaplens: this JVM cannot measure per-thread CPU time: no CPU sampling");
            return null;
        }
        if (!p.mx.isThreadCpuTimeEnabled()) p.mx.setThreadCpuTimeEnabled(true);
        if (p.mx.isThreadContentionMonitoringSupported()) p.mx.setThreadContentionMonitoringEnabled(true);
        instance = p;
        AgentThreads.start("heaplens-threads", p);
        return p;
    }

    public void setListener(DeadlockListener l) { listener = l; }

    /** The deadlocks found so far, oldest first. */
    public synchronized Deadlock[] deadlocks() { return deadlocks.toArray(new Deadlock[0]); }

    public void stop() { stopped = true; }

    @Override
    public void run() {
        while (!stopped) {
            try {
                Thread.sleep(intervalMillis);
            } catch (InterruptedException e) {
                return;
            }
            try {
                tick();
                long now = System.currentTimeMillis();
                if (now - lastDeadlockCheck >= DEADLOCK_EVERY_MILLIS) {
                    lastDeadlockCheck = now;
                    checkDeadlocks();
                }
            } catch (Throwable t) {
                // a thread that ended between two calls, a JVM refusing: skip this tick
            }
        }
    }

    private static boolean ours(String name) { return name != null && name.startsWith("heaplens-"); }

    private void tick() {
        long[] ids = mx.getAllThreadIds();
        ThreadInfo[] states = mx.getThreadInfo(ids);          // no stacks: cheap
        long[] pick = new long[ids.length];
        long[] cpuDelta = new long[ids.length];
        int picked = 0;
        synchronized (this) {
            boolean first = ticks++ == 0;
            for (int i = 0; i < ids.length; i++) {
                ThreadInfo info = states[i];
                if (info == null || ours(info.getThreadName())) continue;
                ThreadRecord rec = threads.get(ids[i]);
                boolean isNew = rec == null;
                if (isNew) {
                    rec = new ThreadRecord(ids[i], info.getThreadName());
                    threads.put(ids[i], rec);
                }
                long cpu = mx.getThreadCpuTime(ids[i]);
                if (cpu < 0) continue;
                // A thread first seen after the first tick started within the last interval: all its CPU is new.
                long base = isNew ? (first ? cpu : 0) : rec.lastCpu;
                rec.lastCpu = cpu;
                rec.blockedCount = info.getBlockedCount();
                rec.blockedMillis = info.getBlockedTime();
                rec.waitedCount = info.getWaitedCount();
                rec.waitedMillis = info.getWaitedTime();
                boolean ran = cpu > base;
                boolean blocked = info.getThreadState() == Thread.State.BLOCKED;
                if (ran || blocked) {
                    pick[picked] = ids[i];
                    cpuDelta[picked] = ran ? cpu - base : 0;
                    picked++;
                }
            }
        }
        if (picked == 0) return;
        ThreadInfo[] stacks = mx.getThreadInfo(Arrays.copyOf(pick, picked), MAX_DEPTH);
        synchronized (this) {
            for (int k = 0; k < picked; k++) {
                ThreadInfo info = stacks[k];
                ThreadRecord rec = threads.get(pick[k]);
                if (info == null || rec == null) continue;
                StackTraceElement[] st = info.getStackTrace();
                if (cpuDelta[k] > 0) {
                    samples++;
                    rec.samples++;
                    rec.cpuNanos += cpuDelta[k];
                    CpuNode n = rec.root;
                    for (int f = st.length - 1; f >= 0; f--) n = n.child(frame(st[f]));
                    n.selfSamples++;
                    n.selfNanos += cpuDelta[k];
                    sampledThreads++;
                }
                if (info.getThreadState() == Thread.State.BLOCKED && info.getLockName() != null) {
                    LockRecord lock = locks.get(info.getLockName());
                    if (lock == null) {
                        lock = new LockRecord(info.getLockName());
                        locks.put(info.getLockName(), lock);
                    }
                    long episodes = Math.max(0, info.getBlockedCount() - rec.countedBlocks);
                    rec.countedBlocks = info.getBlockedCount();
                    lock.observe(info.getThreadName(), info.getLockOwnerName(), frames(st, 16), episodes);
                }
            }
        }
    }

    static String frame(StackTraceElement e) {
        return e.getClassName() + "." + e.getMethodName();
    }

    static String[] frames(StackTraceElement[] st, int max) {
        String[] out = new String[Math.min(max, st.length)];
        for (int i = 0; i < out.length; i++) {
            StackTraceElement e = st[i];
            out[i] = frame(e) + (e.getLineNumber() > 0 ? ":" + e.getLineNumber() : "");
        }
        return out;
    }

    private void checkDeadlocks() {
        long[] ids = mx.isSynchronizerUsageSupported() ? mx.findDeadlockedThreads() : mx.findMonitorDeadlockedThreads();
        if (ids == null || ids.length == 0) return;
        long[] sorted = ids.clone();
        Arrays.sort(sorted);
        String key = Arrays.toString(sorted);
        if (seenDeadlocks.contains(key)) return;
        seenDeadlocks.add(key);
        ThreadInfo[] infos = mx.getThreadInfo(ids, mx.isObjectMonitorUsageSupported(), mx.isSynchronizerUsageSupported());
        Deadlock d = new Deadlock(System.currentTimeMillis(), infos);
        synchronized (this) { deadlocks.add(d); }
        DeadlockListener l = listener;
        if (l != null) l.deadlock(d);
    }

    /** Writes the "threads" section of the profile file (docs/format.md, "Threads: CPU, monitors, deadlocks"). */
    public synchronized void write(Json j) throws IOException {
        j.begin('{').field("intervalMillis", intervalMillis).field("ticks", ticks).field("samples", samples);
        j.name("threads").begin('[');
        for (ThreadRecord r : threads.values()) r.write(j);
        j.end(']');
        j.name("locks").begin('[');
        for (LockRecord l : locks.values()) l.write(j, intervalMillis);
        j.end(']');
        j.name("deadlocks").begin('[');
        for (Deadlock d : deadlocks) d.write(j);
        j.end(']');
        j.end('}');
    }

    static final class ThreadRecord {
        final long id;
        final String name;
        long lastCpu, samples, cpuNanos, blockedCount, blockedMillis, waitedCount, waitedMillis, countedBlocks;
        final CpuNode root = new CpuNode("<thread>");

        ThreadRecord(long id, String name) {
            this.id = id;
            this.name = name;
        }

        void write(Json j) throws IOException {
            j.begin('{').field("id", id).field("name", name).field("samples", samples).field("cpuNanos", cpuNanos)
                .field("blockedCount", blockedCount).field("blockedMillis", blockedMillis)
                .field("waitedCount", waitedCount).field("waitedMillis", waitedMillis);
            j.name("cpu");
            root.write(j);
            j.end('}');
        }
    }

    /** The threads of one deadlock: each waits for a lock that the next one holds. */
    public static final class Deadlock {
        public final long time;
        final ThreadInfo[] infos;

        Deadlock(long time, ThreadInfo[] infos) {
            this.time = time;
            this.infos = infos;
        }

        public void write(Json j) throws IOException {
            j.begin('{').field("time", time).name("threads").begin('[');
            for (ThreadInfo t : infos) {
                if (t == null) continue;
                j.begin('{').field("id", t.getThreadId()).field("name", t.getThreadName())
                    .field("state", String.valueOf(t.getThreadState()))
                    .field("waitsFor", t.getLockName()).field("heldBy", t.getLockOwnerName()).field("heldById", t.getLockOwnerId());
                j.name("holds").begin('[');
                if (t.getLockedMonitors() != null) for (java.lang.management.MonitorInfo m : t.getLockedMonitors()) j.value(m.toString());
                if (t.getLockedSynchronizers() != null) for (java.lang.management.LockInfo l : t.getLockedSynchronizers()) j.value(l.toString());
                j.end(']');
                j.name("stack").begin('[');
                for (String f : frames(t.getStackTrace(), 32)) j.value(f);
                j.end(']').end('}');
            }
            j.end(']').end('}');
        }
    }

}
