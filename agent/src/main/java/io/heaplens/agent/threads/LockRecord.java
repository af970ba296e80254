package io.heaplens.agent.threads;

import io.heaplens.agent.collect.Json;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** A monitor (or lock) that threads were seen blocked on: sampled observations per waiter and per waiting stack. */
final class LockRecord {
    final String lock;
    long observations;
    /** blocked-count increments of the waiters counted while they were blocked on this lock */
    long episodes;
    final Set<String> owners = new LinkedHashSet<String>();
    final Map<String, long[]> waiters = new LinkedHashMap<String, long[]>();
    final Map<String, long[]> stacks = new LinkedHashMap<String, long[]>();
    private final Map<String, String[]> stackFrames = new LinkedHashMap<String, String[]>();

    LockRecord(String lock) { this.lock = lock; }

    void observe(String waiter, String owner, String[] stack, long newEpisodes) {
        observations++;
        episodes += newEpisodes;
        if (owner != null) owners.add(owner);
        bump(waiters, waiter);
        String key = String.join("\n", stack);
        bump(stacks, key);
        if (!stackFrames.containsKey(key)) stackFrames.put(key, stack);
    }

    private static void bump(Map<String, long[]> m, String key) {
        long[] c = m.get(key);
        if (c == null) m.put(key, new long[] {1});
        else c[0]++;
    }

    void write(Json j, int intervalMillis) throws IOException {
        j.begin('{').field("lock", lock).field("observations", observations).field("episodes", episodes)
            .field("sampledBlockedMillis", observations * intervalMillis);
        j.name("owners").begin('[');
        for (String o : owners) j.value(o);
        j.end(']');
        j.name("waiters").begin('[');
        for (Map.Entry<String, long[]> e : waiters.entrySet()) j.begin('{').field("thread", e.getKey()).field("observations", e.getValue()[0]).end('}');
        j.end(']');
        j.name("stacks").begin('[');
        for (Map.Entry<String, long[]> e : stacks.entrySet()) {
            j.begin('{').field("observations", e.getValue()[0]).name("frames").begin('[');
            for (String f : stackFrames.get(e.getKey())) j.value(f);
            j.end(']').end('}');
        }
        j.end(']');
        j.end('}');
    }
}
