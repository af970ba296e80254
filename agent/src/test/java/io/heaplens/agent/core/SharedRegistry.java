package io.heaplens.agent.core;

import io.heaplens.runtime.Keys;

/** Record keys are global to the JVM, as in production where one agent owns one registry: tests share one too. */
public final class SharedRegistry {
    public static final Registry REGISTRY = new Registry();
    static { Keys.resolver = REGISTRY; }

    private SharedRegistry() {}
}
