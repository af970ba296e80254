package io.heaplens.agent.collect;

import io.heaplens.agent.core.Registry;
import io.heaplens.agent.core.Registry.TypeInfo;
import org.junit.jupiter.api.Test;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TypeSizesTest {
    /** A class "loaded" only after the collector's scan began: two ints after the header. */
    static final class LoadedLate { int a, b; }

    /**
     * The final write asks for a rescan while the collector's cycle is scanning the loaded classes (a list taken
     * before the class loaded). The final write's lookup must still scan again and find it: the collector's scan
     * ending afterwards must not mark the list fresh.
     */
    @Test
    void aRescanAskedDuringTheCollectorsScanStillHappens() throws Exception {
        CountDownLatch scanning = new CountDownLatch(1), release = new CountDownLatch(1), go = new CountDownLatch(1);
        AtomicInteger scans = new AtomicInteger();
        Instrumentation inst = (Instrumentation) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { Instrumentation.class },
            (proxy, method, args) -> {
                if (!method.getName().equals("getAllLoadedClasses")) throw new UnsupportedOperationException(method.getName());
                if (scans.incrementAndGet() == 1) {           // the collector's scan: before the class loaded
                    scanning.countDown();
                    release.await();
                    return new Class<?>[0];
                }
                return new Class<?>[] { LoadedLate.class };
            });
        TypeSizes sizes = new TypeSizes(inst);
        Registry r = new Registry();
        TypeInfo other = r.type(r.site(r.method("a/B", "run", "()V").id, 1, 1, "new", "Lnot/Loaded;"));
        TypeInfo late = r.type(r.site(r.method("a/B", "end", "()V").id, 2, 2, "new", "L" + LoadedLate.class.getName().replace('.', '/') + ";"));

        Thread collector = new Thread(() -> sizes.sizeOf(other));
        collector.start();
        scanning.await();
        AtomicLong size = new AtomicLong(-3);
        CountDownLatch rescanned = new CountDownLatch(1);
        Thread finalWrite = new Thread(() -> {
            sizes.rescanNextTime();
            rescanned.countDown();
            try { go.await(); } catch (InterruptedException e) { return; }
            size.set(sizes.sizeOf(late));
        });
        finalWrite.start();
        // the final write has asked (unsynchronized) or waits to ask (synchronized) before the collector's scan ends
        while (rescanned.getCount() > 0 && finalWrite.getState() != Thread.State.BLOCKED) Thread.sleep(1);
        release.countDown();
        collector.join();
        go.countDown();
        finalWrite.join();
        assertTrue(size.get() > 0, "the late class was sized: " + size.get());
        assertEquals(TypeSizes.estimate(LoadedLate.class), size.get());
        assertEquals(2, scans.get());
    }
}
