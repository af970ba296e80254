package io.heaplens.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The heap guard hears of a full heap from the collectors' notifications, on another thread and late when the machine
 * is loaded; a program near its -Xmx then made its whole node budget first and died of OutOfMemoryError (the
 * nearxmx fixture, 3 of 8 concurrent runs). The thread that grows a tree asks the guard itself every
 * {@link ThreadState#CHECK_EVERY} new nodes, as the agent's own work (busy: nothing it allocates is recorded).
 */
class GrowthCheckTest {
    /**
     * A node outside the thread's tree: its children grow the node count as any would, but no later test in this JVM
     * finds the made-up method ids in the thread's tree (ChannelServerTest's delta looked them up in its registry).
     */
    private static Node detached(ThreadState ts, int method) {
        return new Node(method, null, ts, 1);
    }

    @Test
    void everyFewHundredNewNodesTheGrowingThreadAsksTheGuardAsAgentWork() {
        ThreadState ts = ThreadState.current();
        int[] asked = {0};
        int[] busyWhenAsked = {-1};
        ThreadState.growthCheck = () -> { asked[0]++; busyWhenAsked[0] = ts.busy; };
        try {
            long before = ThreadState.nodes;
            Node parent = detached(ts, 1_000_001);
            int made = 3 * ThreadState.CHECK_EVERY;
            for (int m = 0; m < made; m++) parent.child(2_000_000 + m);
            long after = ThreadState.nodes;
            long expected = after / ThreadState.CHECK_EVERY - before / ThreadState.CHECK_EVERY;
            assertEquals(made, after - before);
            assertEquals(expected, asked[0]);
            assertTrue(expected >= 3, "1,537 new nodes pass at least three multiples of " + ThreadState.CHECK_EVERY);
            assertEquals(1, busyWhenAsked[0], "the check runs as the agent's work");
            assertEquals(0, ts.busy, "and leaves the thread as it found it");
        } finally {
            ThreadState.growthCheck = null;
        }
    }

    @Test
    void aCheckThatThrowsIsNotTheProgramsProblem() {
        ThreadState ts = ThreadState.current();
        ThreadState.growthCheck = () -> { throw new IllegalStateException("no pools"); };
        try {
            Node parent = detached(ts, 1_000_002);
            for (int m = 0; m < 2 * ThreadState.CHECK_EVERY; m++) parent.child(3_000_000 + m);
            assertEquals(0, ts.busy);
        } finally {
            ThreadState.growthCheck = null;
        }
    }
}
