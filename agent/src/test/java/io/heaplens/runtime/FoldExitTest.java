package io.heaplens.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The exit probe has no fold check: a fold node's exit must still leave the thread's current node alone, and a catch
 * in a folded method ({@link Recorder#caught}) must restore the node whose call folded. Each case runs on a thread of
 * its own marked as the agent's, so its made-up method ids never reach another test's tree walk.
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

    @Test
    void aCallPastTheDepthLimitGetsItsCallersFoldChild() throws Throwable {
        onOwnThread(FoldExitTest::pastTheDepthLimit);
    }

    @Test
    void aCatchInAFoldedMethodPastTheBudgetRestoresTheCaller() throws Throwable {
        onOwnThread(FoldExitTest::pastTheBudget);
    }

    @Test
    void aCatchRestoresTheCatchersNode() throws Throwable {
        onOwnThread(FoldExitTest::catchTwoFramesUp);
    }

    private static void pastTheDepthLimit() {
        ThreadState ts = ThreadState.current();
        Node caller = Recorder.enter(900_010);
        int depth = ThreadState.maxDepth;
        ThreadState.maxDepth = caller.depth;             // every call from caller folds
        try {
            long folded = caller.folded, made = ThreadState.foldChildren;
            Node f = Recorder.enter(900_011);
            assertTrue(f.isFold());
            assertSame(caller, f.parent, "a fold child's parent is the caller");
            assertSame(ts, f.thread, "a fold child's thread is the real one");
            assertSame(caller, ts.current, "a fold child is never current");
            Node deeper = Recorder.enter(900_012);        // the folded method's own call folds from the caller too
            assertSame(f, deeper, "one fold child per caller");
            Recorder.exit(deeper);
            assertSame(caller, ts.current);
            Recorder.caught(f);
            assertSame(caller, ts.current);
            Recorder.exit(f);
            assertSame(caller, ts.current);
            assertEquals(folded + 2, caller.folded, "the folded counts are the caller's, as before");
            assertEquals(made + 1, ThreadState.foldChildren);
        } finally {
            ThreadState.maxDepth = depth;
        }
        Recorder.exit(caller);
    }

    /**
     * Past the budget a folded method's callee may still enter an existing child of the caller; when the callee throws
     * and the folded method catches, the callee had no exit: the catch restores the caller.
     */
    private static void pastTheBudget() {
        ThreadState ts = ThreadState.current();
        Node caller = Recorder.enter(900_020);
        Node existing = Recorder.enter(900_021);
        Recorder.exit(existing);
        long budget = ThreadState.maxNodes;
        ThreadState.maxNodes = 0;                        // the budget is spent: a new context folds
        try {
            Node f = Recorder.enter(900_022);
            assertTrue(f.isFold());
            assertSame(caller, f.parent);
            Node again = Recorder.enter(900_021);        // the folded method calls the existing child's method
            assertSame(existing, again);
            assertSame(existing, ts.current);
            // `again` throws; no exit runs. The folded method catches:
            Recorder.caught(f);
            assertSame(caller, ts.current, "the caught exception's thrower is no longer current");
            Recorder.exit(f);
            assertSame(caller, ts.current);
        } finally {
            ThreadState.maxNodes = budget;
        }
        Recorder.exit(caller);
        assertSame(caller.parent, ts.current);
    }

    /** The catcher two frames up: the two frames unwound had no exit, the catch restores the catcher's node. */
    private static void catchTwoFramesUp() {
        ThreadState ts = ThreadState.current();
        Node catcher = Recorder.enter(900_030);
        Node middle = Recorder.enter(900_031);
        Node thrower = Recorder.enter(900_032);
        assertSame(middle, thrower.parent);
        assertSame(thrower, ts.current);
        Recorder.caught(catcher);
        assertSame(catcher, ts.current);
        Node after = Recorder.enter(900_033);
        assertSame(catcher, after.parent, "a call after the catch is the catcher's child");
        Recorder.exit(after);
        Recorder.exit(catcher);
        assertSame(catcher.parent, ts.current);
    }

    private static void foldAndExit() {
        ThreadState ts = ThreadState.current();
        Node caller = Recorder.enter(900_001);
        assertFalse(caller.isFold());
        assertSame(caller, ts.current);
        ts.busy++;                                       // the agent's own work: the entry folds
        try {
            Node folded = Recorder.enter(900_002);
            assertTrue(folded.isFold());
            assertTrue(folded.thread != ts && folded.thread.thread == null, "a fold node's thread is a sink");
            assertSame(caller, ts.current);
            Recorder.exit(folded);
            assertSame(caller, ts.current);
            Recorder.caught(folded);                     // a catch in the agent's own work
            assertSame(caller, ts.current);
        } finally {
            ts.busy--;
        }
        Node callee = Recorder.enter(900_003);
        assertSame(caller, callee.parent);
        Recorder.exit(callee);
        assertSame(caller, ts.current);
        Recorder.exit(caller);
        assertSame(caller.parent, ts.current);
    }

    private static void offAndExit() {
        ThreadState ts = ThreadState.current();
        Node before = ts.current;
        Mode.set(Mode.SITES);
        try {
            Node off = Recorder.enter(900_004);
            assertTrue(off.isFold());
            Recorder.exit(off);
            assertSame(before, ts.current);
            Recorder.caught(off);                        // a catch in a method entered outside the exact mode
            assertSame(before, ts.current);
        } finally {
            Mode.set(Mode.EXACT);
        }
    }
}
