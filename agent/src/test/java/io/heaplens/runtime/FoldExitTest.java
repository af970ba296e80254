package io.heaplens.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The exit probe has no fold check: a fold node's exit must still leave the thread's current node alone. Each case
 * runs on a thread of its own marked as the agent's, so its made-up method ids never reach another test's tree walk.
 */
class FoldExitTest {
    private static void onOwnThread(Runnable body) throws Throwable {
        Throwable[] failed = {null};
        Thread t = new Thread(() -> {
            ThreadState.current().agentThread = true;
            try { body.run(); } catch (Throwable e) { failed[0] = e; }
        });
        t.start();
        t.join();
        if (failed[0] != null) throw failed[0];
    }

    @Test
    void aFoldNodesExitLeavesTheCurrentNodeAsItWas() throws Throwable {
        onOwnThread(FoldExitTest::foldAndExit);
    }

    @Test
    void outsideTheExactModeTheEntryFoldsAndItsExitChangesNothing() throws Throwable {
        onOwnThread(FoldExitTest::offAndExit);
    }

    private static void foldAndExit() {
        ThreadState ts = ThreadState.current();
        Node caller = Recorder.enter(900_001);
        assertFalse(caller.isFold());
        assertSame(caller, ts.currentNode());
        ts.busy++;                                       // the agent's own work: the entry folds
        try {
            Node folded = Recorder.enter(900_002);
            assertTrue(folded.isFold());
            assertTrue(folded.thread != ts && folded.thread.thread == null, "a fold node's thread is a sink");
            assertSame(caller, ts.currentNode());
            Recorder.exit(folded);
            assertSame(caller, ts.currentNode());
            Recorder.unwind(folded);
            assertSame(caller, ts.currentNode());
        } finally {
            ts.busy--;
        }
        Node callee = Recorder.enter(900_003);
        assertSame(caller, callee.parent);
        Recorder.exit(callee);
        assertSame(caller, ts.currentNode());
        Recorder.exit(caller);
        assertSame(caller.parent, ts.currentNode());
    }

    private static void offAndExit() {
        ThreadState ts = ThreadState.current();
        Node before = ts.currentNode();
        Mode.set(Mode.SITES);
        try {
            Node off = Recorder.enter(900_004);
            assertTrue(off.isFold());
            Recorder.exit(off);
            assertSame(before, ts.currentNode());
        } finally {
            Mode.set(Mode.EXACT);
        }
    }
}
