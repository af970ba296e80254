package io.heaplens.agent.control;

import io.heaplens.agent.core.Registry;
import io.heaplens.agent.instrument.ClassInstrumenter;

import java.io.InputStream;

/**
 * Runs the instrumenter once over a few JDK classes before it is installed, so the JDK classes its own code
 * needs are loaded before the start-up snapshot of loaded classes (the JVM would not show them to the
 * transformer otherwise: they would be loaded inside it). The throwaway registry is discarded.
 */
public final class WarmUp {
    private static final String[] SAMPLES = {"java/util/ArrayList", "java/util/HashMap", "java/lang/StringBuilder"};

    private WarmUp() {}

    public static void instrumenter() {
        Registry scratch = new Registry();
        for (String name : SAMPLES) {
            try (InputStream in = Object.class.getResourceAsStream("/" + name + ".class")) {
                if (in == null) continue;
                byte[] bytes = in.readAllBytes();
                ClassInstrumenter.instrument(bytes, scratch, false);        // streaming path
                ClassInstrumenter.instrument(bytes, scratch, true);         // tree path, constructors, frames
            } catch (Throwable ignored) {
                // a warm-up failure costs only a later retransformation
            }
        }
    }
}
