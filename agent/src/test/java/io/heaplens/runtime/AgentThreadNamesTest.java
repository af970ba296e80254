package io.heaplens.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A thread whose name the agent adopted (the JVM's "Notification Thread", which builds the heap guard's GC
 * notifications) is the agent's from its very first probe: before this, the JDK's work for a notification landed in
 * the profile whenever a collection ran, and two runs of the budget fixture differed by up to 500 objects.
 */
class AgentThreadNamesTest {
    private static final class Seen {
        boolean agent;
        int busy;
    }

    private static Seen firstLookOn(String name) throws InterruptedException {
        Seen seen = new Seen();
        Thread t = new Thread(() -> {
            ThreadState ts = ThreadState.current();
            seen.agent = ts.agentThread;
            seen.busy = ts.busy;
            ts.agentThread = true;                 // keep this test's thread out of every later writer
        }, name);
        t.start();
        t.join();
        return seen;
    }

    @Test
    void adoptedNamesAreAgentThreadsFromTheFirstProbeOthersAreNot() throws InterruptedException {
        ThreadState.adoptThreadsNamed("heaplens-test-adopted");
        Seen adopted = firstLookOn("heaplens-test-adopted");
        assertTrue(adopted.agent, "adopted by name");
        assertEquals(1, adopted.busy, "records nothing from the first probe on");
        Seen other = firstLookOn("heaplens-test-other");
        assertFalse(other.agent, "another name stays the program's");
        assertEquals(0, other.busy);
    }
}
