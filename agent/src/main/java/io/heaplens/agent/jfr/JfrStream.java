package io.heaplens.agent.jfr;

import io.heaplens.agent.control.ModeControl;
import io.heaplens.agent.core.PackageFilter;
import io.heaplens.agent.core.Registry;
import io.heaplens.agent.collect.AgentThreads;
import io.heaplens.runtime.Estimates;
import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Layout;
import io.heaplens.runtime.Sampler;
import io.heaplens.runtime.ThreadState;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

import java.lang.instrument.Instrumentation;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Turns HotSpot's TLAB events into the sampled mode's data. jdk.ObjectAllocationInNewTLAB fires for the allocation
 * that did not fit in its thread's TLAB (thread-local allocation buffer) and opened a new one; it names the class,
 * the allocation's size in bytes (arrays included) and the thread's stack. With the TLAB flags the launcher passes
 * ({@link JfrSampling#TLAB_FLAGS}: a fixed TLAB, always retired when an allocation does not fit) the chance that an
 * allocation of s bytes is seen follows from the sizes the thread allocates ({@link TlabRenewal}); the event then
 * stands for 1 / π allocations and s / π bytes (Horvitz-Thompson), arrays included.
 * jdk.ObjectAllocationOutsideTLAB (an allocation no TLAB can hold) is every such allocation: weight 1.
 * Why not jdk.ObjectAllocationSample (the JDK's default allocation event): it says nothing of an array's length, its
 * weight (the bytes since the thread's previous sample) is not an inclusion probability, and its interval is the
 * JVM's adaptive TLAB (1–2 MB on the bench: a few hundred samples a run, σ 20–40 % per type); numbers in
 * bench/results/jdk17-sampled-tlab.md. The event's top frame becomes an allocation site (kind "jfr"); its stack,
 * reduced to the frames exact mode would show (profiled methods), becomes the path in the thread's sampled tree.
 * Runs on one agent thread, the only writer of the sampled trees.
 */
final class JfrStream {
    private static final String IN_NEW_TLAB = "jdk.ObjectAllocationInNewTLAB";
    private static final String OUTSIDE_TLAB = "jdk.ObjectAllocationOutsideTLAB";

    private final Registry registry;
    private final PackageFilter filter;
    private final RecordingStream rs;
    private final Map<Long, ThreadState> threads = new HashMap<>();
    private final Map<Long, TlabRenewal> renewals = new HashMap<>();
    private final Map<String, Integer> methodIds = new HashMap<>();
    private final Map<String, Integer> keys = new HashMap<>();
    private final StringBuilder sb = new StringBuilder();
    private long random = System.nanoTime() | 1;
    volatile long samples, dropped, truncated;
    private volatile long lastFlush;
    private volatile boolean closed;
    /** A stack JFR delivered before (the parser shares one object per stack id and chunk) → its path; cleared at each flush. */
    private final java.util.IdentityHashMap<RecordedStackTrace, Stack> stacks = new java.util.IdentityHashMap<>();

    /**
     * A stack's path in the tree, its top frame, the line of its innermost profiled frame (the line that asked for
     * the allocation, as the probe sampler keeps it; 0 when none), and the key of the last class allocated there
     * (usually the only one).
     */
    private static final class Stack {
        final int[] path;
        final RecordedFrame top;
        final int line;
        RecordedClass lastClass;
        int lastKey;
        Stack(int[] path, RecordedFrame top, int line) { this.path = path; this.top = top; this.line = line; }
    }

    JfrStream(Registry registry, PackageFilter filter) {
        this.registry = registry;
        this.filter = filter;
        rs = new RecordingStream();
        Consumer<RecordedEvent> onAlloc = new Consumer<RecordedEvent>() {
            @Override public void accept(RecordedEvent e) {
                try {
                    if (add(e)) samples++; else dropped++;
                } catch (Throwable t) {
                    dropped++;
                }
            }
        };
        for (String ev : new String[] {IN_NEW_TLAB, OUTSIDE_TLAB}) {
            rs.enable(ev).withStackTrace();
            rs.onEvent(ev, onAlloc);
        }
        // JFR writes a jdk.Flush event each time it hands its buffers over: one written after the drain began
        // means every sample taken before it has been delivered.
        rs.enable("jdk.Flush");
        rs.onEvent("jdk.Flush", new Consumer<RecordedEvent>() {
            @Override public void accept(RecordedEvent e) {
                lastFlush = e.getEndTime().toEpochMilli();
                stacks.clear();                 // the next chunk's stacks and classes are new objects
            }
        });
        rs.onClose(new Runnable() {
            @Override public void run() { closed = true; }
        });
    }

    /**
     * Starts the recording and returns once it runs, so the samples cover the program from its first instruction.
     * The events are delivered on an agent thread of our own: JFR's startAsync thread is not a daemon and would
     * keep the JVM from exiting.
     */
    void start() throws InterruptedException {
        int before = running();
        AgentThreads.start("heaplens-jfr", new Runnable() {
            @Override public void run() {
                try {
                    rs.start();          // blocks, delivering events on this thread, until the stream closes
                } catch (Throwable t) {
                    // the JVM is shutting down, or JFR stopped: the samples so far stay in the trees
                } finally {
                    closed = true;
                }
            }
        });
        for (int i = 0; i < 500 && running() <= before && !closed; i++) Thread.sleep(10);
    }

    private static int running() {
        int n = 0;
        for (jdk.jfr.Recording r : jdk.jfr.FlightRecorder.getFlightRecorder().getRecordings()) {
            if (r.getState() == jdk.jfr.RecordingState.RUNNING) n++;
        }
        return n;
    }

    /** Waits for one flush that began after now (JFR hands over its buffers about once a second). */
    String drain(long timeoutMillis) {
        long t0 = System.nanoTime(), since = System.currentTimeMillis(), end = t0 + timeoutMillis * 1_000_000L;
        while (!closed && lastFlush < since && System.nanoTime() - end < 0) {
            try { Thread.sleep(20); } catch (InterruptedException e) { break; }
        }
        String how = closed ? "stream closed" : lastFlush >= since ? "flushed" : "timed out";
        Thread hook = jfrHook;
        if (hook != null) {
            try { hook.run(); } catch (Throwable t) { how += "; JFR's shutdown hook: " + t; }   // what JFR would have done
        }
        return "JFR samples drained in " + (System.nanoTime() - t0) / 1_000_000 + " ms (" + how + "), " + samples + " samples, " + dropped + " dropped";
    }

    private volatile Thread jfrHook;

    /**
     * JFR's shutdown hook closes every stream at exit, discarding the samples it has not delivered yet (up to a
     * second's worth), and shutdown hooks run in no set order. So the agent takes the hook out and runs it itself
     * after its drain. Without access to it (another JDK's internals) the tail of a run's samples can be lost.
     */
    String holdJfrShutdownHook(Instrumentation inst) {
        try {
            Class<?> hooks = Class.forName("java.lang.ApplicationShutdownHooks");
            inst.redefineModule(Object.class.getModule(), java.util.Set.<Module>of(), java.util.Map.<String, java.util.Set<Module>>of(),
                java.util.Map.of("java.lang", java.util.Set.of(JfrStream.class.getModule())), java.util.Set.<Class<?>>of(),
                java.util.Map.<Class<?>, List<Class<?>>>of());
            java.lang.reflect.Field f = hooks.getDeclaredField("hooks");
            f.setAccessible(true);
            Thread found = null;
            synchronized (hooks) {
                Map<?, ?> all = (Map<?, ?>) f.get(null);
                for (Object t : all.keySet()) if (t instanceof Thread && "JFR Shutdown Hook".equals(((Thread) t).getName())) found = (Thread) t;
            }
            if (found == null) return "sampler=jfr: JFR's shutdown hook was not found; the last second's samples of a run may be lost";
            if (Runtime.getRuntime().removeShutdownHook(found)) jfrHook = found;
            return null;
        } catch (Throwable t) {
            return "sampler=jfr: JFR's shutdown hook could not be held back (" + t + "); the last second's samples of a run may be lost";
        }
    }

    private boolean add(RecordedEvent e) {
        RecordedThread th = e.getThread("eventThread");
        RecordedClass c = e.getClass("objectClass");
        RecordedStackTrace st = e.getStackTrace();
        if (th == null || c == null || st == null) return false;
        long at = e.getStartTime().toEpochMilli();
        if (at < JfrSampling.notBefore || !"sampled".equals(ModeControl.modeAt(at))) return false;
        long size = e.getLong("allocationSize");
        if (size <= 0) return false;
        ThreadState ts = state(th);
        if (ts == null) return false;
        Stack k = stacks.get(st);
        if (k == null) {
            List<RecordedFrame> frames = st.getFrames();
            if (frames.isEmpty()) return false;
            if (st.isTruncated()) truncated++;      // deeper than JFR's stackdepth: the path starts mid-stack
            int[] p = new int[frames.size()];
            int n = 0, line = 0;
            for (RecordedFrame f : frames) {
                int id = frameId(f.getMethod());
                if (id >= 0 && line == 0) line = Math.max(0, f.getLineNumber());
                p[n++] = id;
            }
            stacks.put(st, k = new Stack(p, frames.get(0), line));
        }
        int key;
        if (k.lastClass == c) {
            key = k.lastKey;
        } else {
            key = key(k.top, c);
            k.lastClass = c;
            k.lastKey = key;
        }
        if (key < 0) return false;
        int[] p = k.path;
        Registry.TypeInfo t = registry.typeById(Keys.type(key));
        Estimate w = Estimate.of(size, inclusion(th.getJavaThreadId(), size, e));
        long count = round(w.count);
        long elements = t.array ? Math.round(count * (Math.max(0, size - Layout.arrayHeader) / (double) Math.max(1, t.elementSize))) : 0;
        double frac = w.count - Math.floor(w.count);
        // plus the stochastic rounding's variance
        Estimates.add(Keys.type(key), count, w.countVariance + frac * (1 - frac), w.bytes, w.bytesVariance);
        Sampler.record(ts, p, p.length, k.line, key, count, elements, Math.round(w.bytes));
        return true;
    }

    /**
     * The chance that this allocation was seen. An allocation outside TLABs is always reported; one that opened a TLAB
     * with the flags in effect: the thread's renewal model; without them (the JVM's adaptive TLABs) only the rough
     * s / T with T the new TLAB's space, which is biased (docs/modes.md).
     */
    private double inclusion(long thread, long size, RecordedEvent e) {
        if (!e.hasField("tlabSize")) return 1;
        long usable = JfrSampling.tlabUsableBytes;
        if (usable <= 0) return Math.min(1, size / (double) Math.max(size, e.getLong("tlabSize") - size));
        TlabRenewal r = renewals.get(thread);
        if (r == null) renewals.put(thread, r = new TlabRenewal((int) (usable >>> 3)));
        r.add(size);
        return r.inclusion(size);
    }

    /** The allocating thread's state; null for the agent's threads and JFR's own. */
    private ThreadState state(RecordedThread th) {
        long id = th.getJavaThreadId();
        ThreadState ts = threads.get(id);
        if (ts == null && !threads.containsKey(id)) {
            String name = th.getJavaName();
            if (name == null || !name.startsWith("JFR ")) {            // JFR's periodic tasks: work the agent asked for
                Thread live = null;
                ThreadGroup g = Thread.currentThread().getThreadGroup();
                while (g.getParent() != null) g = g.getParent();
                Thread[] all = new Thread[g.activeCount() * 2 + 16];      // no safepoint, unlike getAllStackTraces
                int n = g.enumerate(all, true);
                for (int i = 0; i < n; i++) if (all[i].getId() == id) live = all[i];
                ts = ThreadState.of(live, id, name);
            }
            threads.put(id, ts);
        }
        return ts == null || ts.agentThread ? null : ts;
    }

    /** A profiled method's id (as the transformer would register it), else -1. */
    private int frameId(RecordedMethod m) {
        if (m == null) return -1;
        RecordedClass c = m.getType();
        String cls = c.getName();
        sb.setLength(0);
        String k = sb.append(cls).append('.').append(m.getName()).append(m.getDescriptor()).toString();
        Integer known = methodIds.get(k);
        if (known != null) return known;
        int id = -1;
        String internal = cls.replace('.', '/');
        if (!m.isHidden() && !internal.startsWith("io/heaplens/")) {
            id = registry.profiledMethodId(cls, m.getName(), m.getDescriptor());
            if (id < 0 && !JfrEvents.isJdk(c) && filter.profiles(internal)) {
                Registry.MethodInfo mi = registry.method(internal, m.getName(), m.getDescriptor());
                mi.profiled = true;
                if (mi.file == null) mi.file = guessSourceFile(cls);   // a class nobody transformed: for the hot lines
                id = mi.id;
            }
        }
        methodIds.put(k, id);
        return id;
    }

    /**
     * The source file a class was most likely compiled from: its outermost class's simple name + ".java". JFR does
     * not record it and the class was not transformed (its SourceFile attribute unread); the JFR import guesses alike.
     */
    static String guessSourceFile(String cls) {
        String simple = cls.substring(cls.lastIndexOf('.') + 1);
        int inner = simple.indexOf('$');
        return (inner > 0 ? simple.substring(0, inner) : simple) + ".java";
    }

    /** The key of (top frame's allocation site, type). */
    private int key(RecordedFrame top, RecordedClass c) {
        RecordedMethod m = top.getMethod();
        if (m == null) return -1;
        String desc = descriptor(c.getName());
        sb.setLength(0);
        String k = sb.append(m.getType().getName()).append('.').append(m.getName()).append(m.getDescriptor())
            .append('@').append(top.getBytecodeIndex()).append(' ').append(desc).toString();
        Integer known = keys.get(k);
        if (known != null) return known;
        Registry.MethodInfo mi = registry.method(m.getType().getName().replace('.', '/'), m.getName(), m.getDescriptor());
        Registry.SiteInfo site = registry.site(mi.id, top.getBytecodeIndex(), top.getLineNumber(), "jfr", desc);
        int key = registry.singleKey(site);
        keys.put(k, key);
        return key;
    }

    /** JFR's class name ({@code java.lang.String}, {@code [B}, a hidden class's {@code a.B$$Lambda/0x…}) → descriptor. */
    static String descriptor(String name) {
        if (name.startsWith("[")) return name.replace('.', '/');
        int slash = name.indexOf('/');            // hidden classes: named without the run-specific suffix, as Types does
        if (slash >= 0) name = name.substring(0, slash).replaceFirst("\\$\\$Lambda\\$\\d+$", "\\$\\$Lambda");
        return "L" + name.replace('.', '/') + ";";
    }

    /** Unbiased stochastic rounding (xorshift64*). */
    private long round(double v) {
        long whole = (long) v;
        double frac = v - whole;
        if (frac > 0) {
            long x = random;
            x ^= x >>> 12; x ^= x << 25; x ^= x >>> 27;
            random = x;
            if (((x * 0x2545F4914F6CDD1DL) >>> 11) * 0x1.0p-53 < frac) whole++;
        }
        return whole;
    }
}
