package io.heaplens.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The heap guard hears of a full heap from the collectors' notifications, on another thread and late when the machine
 * is loaded; a program near its -Xmx then made its whole node budget first and died of OutOfMemoryError (the
 * nearxmx fixture, 3 of 8 concurrent runs). The thread that grows a tree asks the guard itself every
 * {@link ThreadState#CHECK_EVERY} new nodes, as the agent's own work (busy: nothing it allocates is recorded).
 *
 * Each check runs on a thread of its own whose state is then marked as the agent's: its nodes carry made-up method
 * ids, and the writers and the channel (other tests in this JVM, in whatever order the runner picks) skip agent threads.
 */
class GrowthCheckTest {
    interface Check { void run() throws Exception; }

    /** Runs the check on a fresh thread, rethrows what it threw, and hides that thread's tree from every writer. */
    static void onOwnThread(Check check) throws Exception {
        Exception[] failed = {null};
        Error[] broke = {null};
        Thread t = new Thread(() -> {
            try {
                check.run();
            } catch (Exception e) {
                failed[0] = e;
            } catch (Error e) {
                broke[0] = e;
            } finally {
                ThreadState.current().agentThread = true;
            }
        }, "growth-check-test");
        t.start();
        t.join();
        if (broke[0] != null) throw broke[0];
        if (failed[0] != null) throw failed[0];
    }

    @Test
    void everyFewHundredNewNodesTheGrowingThreadAsksTheGuardAsAgentWork() throws Exception {
        onOwnThread(this::growingThreadAsksTheGuard);
    }

    @Test
    void aCheckThatThrowsIsNotTheProgramsProblem() throws Exception {
        onOwnThread(this::throwingCheckIsSwallowed);
    }

    private void growingThreadAsksTheGuard() {
        ThreadState ts = ThreadState.current();
        int[] asked = {0};
        int[] busyWhenAsked = {-1};
        ThreadState.growthCheck = () -> { asked[0]++; busyWhenAsked[0] = ts.busy; };
        try {
            long before = ThreadState.nodes;
            Node parent = ts.root.child(1_000_001);
            int made = 3 * ThreadState.CHECK_EVERY;
            for (int m = 0; m < made; m++) parent.child(2_000_000 + m);
            long after = ThreadState.nodes;
            long expected = after / ThreadState.CHECK_EVERY - before / ThreadState.CHECK_EVERY;
            assertEquals(made + 1, after - before);
            assertEquals(expected, asked[0]);
            assertTrue(expected >= 3, "1,537 new nodes pass at least three multiples of " + ThreadState.CHECK_EVERY);
            assertEquals(1, busyWhenAsked[0], "the check runs as the agent's work");
            assertEquals(0, ts.busy, "and leaves the thread as it found it");
        } finally {
            ThreadState.growthCheck = null;
        }
    }

    private void throwingCheckIsSwallowed() {
        ThreadState ts = ThreadState.current();
        ThreadState.growthCheck = () -> { throw new IllegalStateException("no pools"); };
        try {
            Node parent = ts.root.child(1_000_002);
            for (int m = 0; m < 2 * ThreadState.CHECK_EVERY; m++) parent.child(3_000_000 + m);
            assertEquals(0, ts.busy);
        } finally {
            ThreadState.growthCheck = null;
        }
    }
}
