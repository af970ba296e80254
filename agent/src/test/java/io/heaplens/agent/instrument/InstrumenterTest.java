package io.heaplens.agent.instrument;

import io.heaplens.agent.core.Registry;
import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Node;
import io.heaplens.runtime.ThreadState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Runs the fixtures instrumented (surefire passes -Xverify:all, so every rewritten frame is verified) on a fresh
 * thread each, then reads that thread's MCT. After every scenario — exceptions included — the thread's current
 * node must be back at the root.
 */
class InstrumenterTest {
    static final Registry REGISTRY = io.heaplens.agent.core.SharedRegistry.REGISTRY;
    static InstrumentedLoader loader;
    static Class<?> tricky;

    @BeforeAll
    static void load() throws Exception {
        Keys.resolver = REGISTRY;
        loader = new InstrumentedLoader(REGISTRY);
        tricky = loader.loadClass("io.heaplens.fixtures.Tricky");
    }

    /** Runs Tricky.method(args) on a new thread; returns that thread's state after the call. */
    static Run run(String method, Object... args) throws Exception {
        return run(tricky, method, args);
    }

    /** Runs the static method of an instrumented fixture class on a new thread; returns that thread's state after the call. */
    static Run run(Class<?> fixture, String method, Object... args) throws Exception {
        Method m = null;
        for (Method c : fixture.getMethods()) if (c.getName().equals(method)) m = c;
        assertNotNull(m, method);
        Method target = m;
        AtomicReference<Run> out = new AtomicReference<>();
        Thread t = new Thread(() -> {
            Run r = new Run();
            try {
                r.result = target.invoke(null, args);
            } catch (InvocationTargetException e) {
                r.thrown = e.getCause();
            } catch (Throwable e) {
                r.thrown = e;
            }
            r.state = ThreadState.current();
            out.set(r);
        });
        t.start();
        t.join();
        return out.get();
    }

    static final class Run {
        Object result;
        Throwable thrown;
        ThreadState state;
        Map<String, Long> objects() { return TreeDump.objects(state.root, REGISTRY); }
        long calls(String path) { return TreeDump.calls(state.root, REGISTRY, path); }
        void assertBalanced() { assertSame(state.root, state.currentNode(), "the thread's current node is back at the root"); }
    }

    @Test
    void longsDoublesAndLoops() throws Exception {
        Run r = run("longsAndDoubles", 7);
        assertNull(r.thrown);
        assertEquals(22L + (long) (2 * Math.pow(1.5, 7)), r.result);
        assertEquals(7L, r.objects().get("Tricky.longsAndDoubles;long[]"));
        assertEquals(1, r.calls("Tricky.longsAndDoubles"));
        r.assertBalanced();
    }

    @Test
    void catchBlockAllocationsBelongToTheCatchingMethod() throws Exception {
        Run r = run("tryCatchFinally", 5);
        assertEquals(2 + 50, r.result);
        Map<String, Long> o = r.objects();
        assertEquals(3L, o.get("Tricky.tryCatchFinally;java.lang.IllegalStateException"));
        assertEquals(3L, o.get("Tricky.tryCatchFinally;java.lang.Object"));
        r.assertBalanced();
    }

    @Test
    void switchesAndMultiArrays() throws Exception {
        Run r = run("switches", 5);
        assertEquals(5, r.result);
        Map<String, Long> o = r.objects();
        assertEquals(1L, o.get("Tricky.switches;int[][]"));
        assertEquals(2L, o.get("Tricky.switches;int[]"));
        assertEquals(1000, run("switches", 1000).result);
        assertEquals(14, run("switches", 7).result);
        r.assertBalanced();
    }

    @Test
    void fourDimensionsUseTheGenericPath() throws Exception {
        Run r = run("fourDimensions");
        Map<String, Long> o = r.objects();
        assertEquals(1L, o.get("Tricky.fourDimensions;byte[][][][]"));
        assertEquals(2L, o.get("Tricky.fourDimensions;byte[][][]"));
        assertEquals(4L, o.get("Tricky.fourDimensions;byte[][]"));
        assertEquals(8L, o.get("Tricky.fourDimensions;byte[]"));
        assertEquals(3, ((byte[][][][]) r.result)[1][1][1].length);
    }

    @Test
    void constructorWithConditionalArgument() throws Exception {
        Run r = run("conditionalConstructorArgument", true);
        Map<String, Long> o = r.objects();
        assertEquals(1L, o.get("Tricky.conditionalConstructorArgument;io.heaplens.fixtures.Tricky$Holder"));
        assertEquals(1L, o.get("Tricky.conditionalConstructorArgument;Tricky$Holder.<init>;java.lang.Object"));
        assertEquals(1, r.calls("Tricky.conditionalConstructorArgument;Tricky$Holder.<init>;Tricky$Holder.<init>"));
        r.assertBalanced();
    }

    @Test
    void synchronizedBlockAndRecursion() throws Exception {
        assertEquals(4, run("synchronizedBlock", new Object()).result);
        Run r = run("recursion", 50);
        assertEquals(50, r.result);
        long total = r.objects().entrySet().stream().filter(e -> e.getKey().endsWith(";java.lang.Object")).mapToLong(Map.Entry::getValue).sum();
        assertEquals(51, total);
        r.assertBalanced();
    }

    @Test
    void exceptionsThroughJdkFramesAndUncaughtExceptionsKeepTheTreeBalanced() throws Exception {
        Run r = run("exceptionThroughJdkFrames");
        assertEquals(1, r.result);
        Map<String, Long> o = r.objects();
        assertEquals(1L, o.get("Tricky.exceptionThroughJdkFrames;java.lang.Object"));
        assertEquals(1L, o.get("Tricky.exceptionThroughJdkFrames;Tricky.lambda$exceptionThroughJdkFrames$1;java.lang.IllegalArgumentException"));
        r.assertBalanced();
        Run u = run("uncaught");
        assertInstanceOf(UnsupportedOperationException.class, u.thrown);
        assertEquals(1L, u.objects().get("Tricky.uncaught;java.lang.Object"));
        u.assertBalanced();
    }

    @Test
    void lambdaBodiesAreFramesAndArrayClonesAreCounted() throws Exception {
        Run r = run("lambda");
        Map<String, Long> o = r.objects();
        assertEquals(1L, o.get("Tricky.lambda;Tricky.lambda$lambda$0;io.heaplens.fixtures.Tricky$Holder"));
        assertEquals(1L, o.get("Tricky.lambda;Tricky.lambda$lambda$0;java.lang.Object"));
        Run c = run("arrayClone");
        assertEquals(2L, c.objects().get("Tricky.arrayClone;int[]"));
    }

    @Test
    void figure1MapM() throws Exception {
        Class<?> a = loader.loadClass("io.heaplens.fixtures.Tricky$A");
        assertNotNull(a);
        Registry.MethodInfo noArg = REGISTRY.method("io/heaplens/fixtures/Tricky$A", "<init>", "()V");
        Registry.MethodInfo withObject = REGISTRY.method("io/heaplens/fixtures/Tricky$A", "<init>", "(Ljava/lang/Object;)V");
        assertEquals(withObject.id, noArg.ctorTarget, "M(A()) = A(Object)");
        Registry.MethodInfo objectInit = REGISTRY.method("java/lang/Object", "<init>", "()V");
        assertEquals(objectInit.id, withObject.ctorTarget, "M(A(Object)) = Object()");
        assertNull(noArg.ctorWarning);
        assertTrue(noArg.profiled);
    }

    @Test
    void nodesAreOnlyCreatedForProfiledMethods() {
        Node root = ThreadState.current().root;
        assertEquals(Node.ROOT, root.method);
    }
}
