package io.heaplens.agent.instrument;

import io.heaplens.agent.core.Registry;
import io.heaplens.runtime.Keys;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The late entry (leaves=skip, EntryPlacement): an invocation that returns or throws before its first call or
 * allocation is no call of the tree, and leaves the thread's current node as it found it; every other invocation
 * is counted with all it allocated. The same fixture loaded with leaves=keep counts every invocation (surefire
 * verifies every rewritten class: -Xverify:all).
 */
class LateEntryTest {
    static final Registry REGISTRY = io.heaplens.agent.core.SharedRegistry.REGISTRY;
    static Class<?> late, eager;

    @BeforeAll
    static void load() throws Exception {
        Keys.resolver = REGISTRY;
        boolean was = ClassInstrumenter.skipLeaves;
        try {
            ClassInstrumenter.skipLeaves = true;
            late = new InstrumentedLoader(REGISTRY).loadClass("io.heaplens.fixtures.QuickPaths");
            ClassInstrumenter.skipLeaves = false;
            eager = new InstrumentedLoader(REGISTRY).loadClass("io.heaplens.fixtures.QuickPaths");
        } finally {
            ClassInstrumenter.skipLeaves = was;
        }
    }

    /** The fixture's method on a new thread: no exception, and the thread's current node back at the root. */
    static InstrumenterTest.Run run(Class<?> c, String method, Object... args) throws Exception {
        InstrumenterTest.Run r = InstrumenterTest.run(c, method, args);
        assertNull(r.thrown);
        r.assertBalanced();
        return r;
    }

    @Test
    void aQuickPathIsNoCall() throws Exception {
        InstrumenterTest.Run r = run(late, "mixed");
        assertEquals(3, r.result);
        assertEquals(1, r.calls("QuickPaths.mixed"));
        assertEquals(3, r.calls("QuickPaths.mixed;QuickPaths.numeric"), "only the three values that were made Strings");
        InstrumenterTest.Run e = run(eager, "mixed");
        assertEquals(10, e.calls("QuickPaths.mixed;QuickPaths.numeric"), "leaves=keep counts every invocation");
        long lateStrings = r.objects().entrySet().stream()
            .filter(x -> x.getKey().startsWith("QuickPaths.mixed;QuickPaths.numeric;") && x.getKey().endsWith("java.lang.String"))
            .mapToLong(Map.Entry::getValue).sum();
        long eagerStrings = e.objects().entrySet().stream()
            .filter(x -> x.getKey().startsWith("QuickPaths.mixed;QuickPaths.numeric;") && x.getKey().endsWith("java.lang.String"))
            .mapToLong(Map.Entry::getValue).sum();
        assertEquals(eagerStrings, lateStrings, "the same Strings, charged to the same node: " + r.objects());
    }

    @Test
    void anEntryInsideALoopHappensOnce() throws Exception {
        InstrumenterTest.Run r = run(late, "loops");
        assertEquals(1 + 4, r.result);
        assertEquals(1, r.calls("QuickPaths.loops;QuickPaths.everyThird"), "everyThird(0) allocated nothing");
        assertEquals(2L, r.objects().get("QuickPaths.loops;QuickPaths.everyThird;int[]"));
        assertEquals(2, run(eager, "loops").calls("QuickPaths.loops;QuickPaths.everyThird"));
    }

    @Test
    void aHandlerBeforeTheEntryLeavesTheCallerCurrent() throws Exception {
        InstrumenterTest.Run r = run(late, "catches");
        assertEquals(-1 + 0 - 1 + "big:42".length(), r.result);
        assertEquals(1, r.calls("QuickPaths.catches;QuickPaths.catchEarly"), "only catchEarly(42) called");
        assertEquals(1L, r.objects().get("QuickPaths.catches;QuickPaths.catchEarly;java.lang.StringBuilder"));
        assertEquals(4, run(eager, "catches").calls("QuickPaths.catches;QuickPaths.catchEarly"));
    }

    @Test
    void anExceptionBeforeTheEntryLeavesTheCallerCurrent() throws Exception {
        InstrumenterTest.Run r = run(late, "escapes");
        assertEquals(2, r.result);
        assertEquals(3, r.calls("QuickPaths.escapes;QuickPaths.throwEarly"), "throwEarly(1..3): not -2, -1 (thrown) or 0");
        assertEquals(3L, r.objects().get("QuickPaths.escapes;QuickPaths.throwEarly;java.util.ArrayList"));
        assertEquals(6, run(eager, "escapes").calls("QuickPaths.escapes;QuickPaths.throwEarly"));
    }

    @Test
    void aClassInitialisedByTheFirstNewIsACalleeOfTheMethod() throws Exception {
        InstrumenterTest.Run r = run(late, "lazyInit");
        assertEquals(3, r.result);
        assertEquals(2, r.calls("QuickPaths.lazyInit;QuickPaths.makeLazy"));
        assertEquals(1, r.calls("QuickPaths.lazyInit;QuickPaths.makeLazy;QuickPaths$Lazy.<clinit>"), "initialised inside makeLazy: " + r.objects());
        assertEquals(1L, r.objects().get("QuickPaths.lazyInit;QuickPaths.makeLazy;QuickPaths$Lazy.<clinit>;int[]"));
        assertEquals(2L, r.objects().get("QuickPaths.lazyInit;QuickPaths.makeLazy;io.heaplens.fixtures.QuickPaths$Lazy"));
    }

    @Test
    void theInnermostRecursionThatReturnsAtOnceIsNoNode() throws Exception {
        InstrumenterTest.Run r = run(late, "depth", 3);
        assertEquals(3, r.result);
        assertEquals(1, r.calls("QuickPaths.depth;QuickPaths.depth;QuickPaths.depth"));
        assertEquals(0, r.calls("QuickPaths.depth;QuickPaths.depth;QuickPaths.depth;QuickPaths.depth"));
        assertEquals(1, run(eager, "depth", 3).calls("QuickPaths.depth;QuickPaths.depth;QuickPaths.depth;QuickPaths.depth"));
    }
}
