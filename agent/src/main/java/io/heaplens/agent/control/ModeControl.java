package io.heaplens.agent.control;

import io.heaplens.runtime.Mode;

import io.heaplens.agent.instrument.HeapLensTransformer;
import io.heaplens.agent.instrument.TransformStats;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

/** Switches the recording mode while the program runs and keeps the timeline of switches for the profile. */
public final class ModeControl {
    /** One entry of the timeline: from {@code since} (epoch ms) on, the recorder ran in {@code mode}. */
    public static final class Switch {
        public final String mode;
        public final long since;
        /** When the switch changed the instrumentation: how many classes were retransformed, in how long; else -1. */
        public int classes = -1;
        public long retransformMillis = -1;
        Switch(String mode, long since) { this.mode = mode; this.since = since; }
    }

    private static final List<Switch> timeline = new ArrayList<>();
    private static int beforePause = Mode.EXACT;
    private static Instrumentation inst;
    private static HeapLensTransformer transformer;
    private static TransformStats stats;
    private static Sweep sweep;

    private ModeControl() {}

    /** Whether the transformer is registered with the JVM: only while some level of probes is wanted. */
    private static boolean registered;
    /** Run once before the first switch that adds probes to a start that had none (the heap guard's install). */
    private static Runnable beforeProbes;

    public static synchronized void beforeProbes(Runnable r) { beforeProbes = r; }

    /**
     * Before the first switch can arrive: what a change of instrumentation level needs. {@code registered}: whether
     * the start registered the transformer (not when it instruments nothing).
     */
    public static synchronized void install(Instrumentation i, HeapLensTransformer t, TransformStats s, Sweep w, boolean isRegistered) {
        inst = i;
        transformer = t;
        stats = s;
        sweep = w;
        registered = isRegistered;
    }

    public static synchronized void start(int mode) {
        Mode.set(mode);
        io.heaplens.runtime.HeapSampler.follow(mode);
        timeline.add(new Switch(Mode.name(mode), System.currentTimeMillis()));
    }

    /** @return null when switched, else why not */
    public static synchronized String switchTo(String name) {
        int m = Mode.parse(name);
        if (m < 0) return "unknown mode '" + name + "' (exact, sites, sampled, paused, accounts, lifetime)";
        if (m == Mode.get()) return null;
        // Its probes read a field each profiled class got as it loaded; retransformation can neither add nor remove one.
        if (m == Mode.LIFETIME) return "the lifetime mode can only be chosen at launch (mode=lifetime): its use probes are added as classes load";
        if (Mode.get() == Mode.LIFETIME) return "a program launched in the lifetime mode stays in it (it cannot be switched or paused)";
        // The accounts mode's classes carry account probes and no call-tree probes, the others' the reverse.
        boolean fromAccounts = !timeline.isEmpty() && timeline.get(0).mode.equals("accounts");
        if (m != Mode.PAUSED && fromAccounts != (m == Mode.ACCOUNTS)) {
            return fromAccounts ? "a JVM started in the accounts mode can only pause and resume"
                                : "the accounts mode must be chosen at launch (mode=accounts)";
        }
        if (m == Mode.PAUSED) beforePause = Mode.get();   // resume returns to it, however the pause came
        // The mode first: probes still in the old code stop recording at once (or start, on the way up).
        Mode.set(m);
        io.heaplens.runtime.HeapSampler.follow(m);      // sampler=jvmti: HotSpot samples only in the sampled mode
        Switch s = new Switch(name, System.currentTimeMillis());
        timeline.add(s);
        int level = Mode.level(m);
        if (transformer != null && transformer.level() != level) {
            long t0 = System.nanoTime();
            transformer.level(level);
            if (!registered && level != Mode.LEVEL_NONE) {
                Runnable before = beforeProbes;
                beforeProbes = null;
                if (before != null) {
                    try { before.run(); } catch (Throwable t) { stats.warn("before the switch to " + name + ": " + t); }
                }
                // A start that instrumented nothing left the transformer out; every loaded class is retransformed below
                inst.addTransformer(transformer, true);
                registered = true;
            }
            transformer.restoreOriginals(inst);   // the JDK classes the start redefined from its cache
            s.classes = Retransform.all(inst, transformer, stats);
            for (int round = 0; round < 3 && sweep.now() > 0; round++) { /* classes loaded meanwhile */ }
            if (registered && level == Mode.LEVEL_NONE) {
                // Back to the original bytes: the JVM need not call a transformer for each class that loads meanwhile
                inst.removeTransformer(transformer);
                registered = false;
            }
            s.retransformMillis = (System.nanoTime() - t0) / 1_000_000;
        }
        return null;
    }

    public static synchronized void pause() {
        switchTo("paused");
    }

    public static synchronized void resume() {
        if (Mode.get() != Mode.PAUSED) return;
        switchTo(Mode.name(beforePause));
    }

    /** The mode in effect at {@code epochMillis} (JFR samples arrive late; they count for the mode they were taken in). */
    public static synchronized String modeAt(long epochMillis) {
        String m = timeline.isEmpty() ? Mode.name(Mode.get()) : timeline.get(0).mode;
        for (Switch s : timeline) {
            if (s.since > epochMillis) break;
            m = s.mode;
        }
        return m;
    }

    public static synchronized Switch last() { return timeline.isEmpty() ? null : timeline.get(timeline.size() - 1); }

    public static synchronized List<Switch> timeline() { return new ArrayList<>(timeline); }
}
