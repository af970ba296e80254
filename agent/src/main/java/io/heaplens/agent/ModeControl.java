package io.heaplens.agent;

import io.heaplens.runtime.Mode;

import java.util.ArrayList;
import java.util.List;

/** Switches the recording mode while the program runs and keeps the timeline of switches for the profile. */
public final class ModeControl {
    /** One entry of the timeline: from {@code since} (epoch ms) on, the recorder ran in {@code mode}. */
    public static final class Switch {
        public final String mode;
        public final long since;
        Switch(String mode, long since) { this.mode = mode; this.since = since; }
    }

    private static final List<Switch> timeline = new ArrayList<>();
    private static int beforePause = Mode.EXACT;

    private ModeControl() {}

    public static synchronized void start(int mode) {
        Mode.set(mode);
        timeline.add(new Switch(Mode.name(mode), System.currentTimeMillis()));
    }

    /** @return null when switched, else why not */
    public static synchronized String switchTo(String name) {
        int m = Mode.parse(name);
        if (m < 0) return "unknown mode '" + name + "' (exact, sites, sampled, paused, lifetime)";
        if (m == Mode.LIFETIME && !io.heaplens.runtime.Lifetimes.instrumented) return "the lifetime mode can only be chosen at launch (mode=lifetime): its use probes are added as classes load";
        if (m == Mode.get()) return null;
        Mode.set(m);
        timeline.add(new Switch(name, System.currentTimeMillis()));
        return null;
    }

    public static synchronized void pause() {
        if (Mode.get() == Mode.PAUSED) return;
        beforePause = Mode.get();
        switchTo("paused");
    }

    public static synchronized void resume() {
        if (Mode.get() != Mode.PAUSED) return;
        switchTo(Mode.name(beforePause));
    }

    public static synchronized List<Switch> timeline() { return new ArrayList<>(timeline); }
}
