package io.heaplens.agent.instrument;

import io.heaplens.agent.core.AccountPatterns;
import io.heaplens.agent.core.Registry;
import io.heaplens.runtime.Accounts;
import io.heaplens.runtime.Keys;
import io.heaplens.runtime.Mode;
import io.heaplens.runtime.Node;
import io.heaplens.runtime.ThreadState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The accounts mode's passes on the instrumenter fixtures (surefire runs -Xverify:all, so the added local,
 * handler and liveness probes are verified): every method of Tricky — exceptions, finally, switches, long and
 * double locals, constructors with conditional arguments, multi-dimensional arrays — runs on a fresh thread in
 * account 1 and leaves the thread's account back at 0, with its allocations charged to account 1.
 */
class AccountsInstrumentTest {
    static final Registry REGISTRY = io.heaplens.agent.core.SharedRegistry.REGISTRY;
    static Class<?> tricky;

    static final class AccountsLoader extends ClassLoader {
        final AccountsPlan plan = new AccountsPlan(new AccountPatterns(java.util.List.of("io.heaplens.fixtures")), true);
        AccountsLoader() { super(AccountsInstrumentTest.class.getClassLoader()); }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c != null) return c;
                if (!name.startsWith("io.heaplens.fixtures.")) return super.loadClass(name, resolve);
                byte[] original;
                try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                    original = in.readAllBytes();
                } catch (Exception e) {
                    throw new ClassNotFoundException(name, e);
                }
                ClassInstrumenter.Result r = ClassInstrumenter.instrument(original, REGISTRY, false);
                byte[] b = plan.apply(name.replace('.', '/'), original, r.bytes);
                assertNotNull(b, name + " should get account probes");
                return defineClass(name, b, 0, b.length);
            }
        }
    }

    @BeforeAll
    static void load() throws Exception {
        Keys.resolver = REGISTRY;
        Accounts.liveness = true;
        Accounts.every = 1;
        Mode.set(Mode.ACCOUNTS);
        tricky = new AccountsLoader().loadClass("io.heaplens.fixtures.Tricky");
    }

    @AfterAll
    static void restore() { Mode.set(Mode.EXACT); }

    static long charged(ThreadState ts, int account) {
        Node[] nodes = ts.accountsSnapshot();
        if (account >= nodes.length || nodes[account] == null) return 0;
        long[] rec = nodes[account].recordsSnapshot();
        long n = 0;
        for (int b = 0; b < rec.length; b += 4) if (rec[b] != 0) n += rec[b + 1];
        return n;
    }

    @Test
    void everyMethodRestoresTheCallersAccountAndChargesItsOwn() throws Exception {
        int methods = 0;
        for (Method m : tricky.getMethods()) {
            if (m.getDeclaringClass() != tricky || !java.lang.reflect.Modifier.isStatic(m.getModifiers())) continue;
            Object[] args = new Object[m.getParameterCount()];
            Class<?>[] types = m.getParameterTypes();
            for (int i = 0; i < args.length; i++) {
                args[i] = types[i] == int.class ? (Object) 3 : types[i] == boolean.class ? (Object) true : new Object();
            }
            AtomicReference<ThreadState> state = new AtomicReference<>();
            AtomicReference<Integer> during = new AtomicReference<>();
            Thread t = new Thread(() -> {
                ThreadState ts = ThreadState.current();
                try {
                    m.invoke(null, args);
                } catch (InvocationTargetException | IllegalAccessException expectedForSome) {
                    // uncaught() throws on purpose: the handler must still restore the account
                }
                during.set(ts.account);
                state.set(ts);
            });
            t.start();
            t.join();
            assertEquals(0, during.get(), m.getName() + " left its account current");
            if (!m.getName().equals("switches") && !m.getName().equals("recursion") && !m.getName().equals("synchronizedBlock")
                && !m.getName().equals("tryCatchFinally") && !m.getName().equals("uncaught")) {
                assertTrue(charged(state.get(), 1) > 0, m.getName() + " should charge account 1");
            }
            assertEquals(0, charged(state.get(), 0), m.getName() + ": nothing is unaccounted inside an accounted method");
            methods++;
        }
        assertTrue(methods >= 10, "ran " + methods + " methods");
        assertTrue(Accounts.counts()[0] > 0, "liveness probes tracked objects");
    }
    /**
     * A constructor that throws before its super(...) call (in the call's argument), caught by an unaccounted frame (this
     * test's): its account is not current after the catch. Without the handler over the code before super(...) the
     * thread stayed in account 1 (checked: this test fails without it).
     */
    @Test
    void aConstructorThrowingBeforeSuperLeavesNoAccountCurrent() throws Exception {
        Class<?> c = tricky.getClassLoader().loadClass("io.heaplens.fixtures.Tricky$ThrowsBeforeSuper");
        java.lang.reflect.Constructor<?> ctor = c.getDeclaredConstructor(String.class);
        ctor.setAccessible(true);
        for (String arg : new String[] {"", "super", "fine"}) {
            AtomicReference<Integer> after = new AtomicReference<>();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicReference<ThreadState> state = new AtomicReference<>();
            Thread t = new Thread(() -> {
                ThreadState ts = ThreadState.current();
                try {
                    ctor.newInstance(arg);
                } catch (InvocationTargetException e) {
                    thrown.set(e.getCause());
                } catch (ReflectiveOperationException e) {
                    thrown.set(e);
                }
                after.set(ts.account);
                state.set(ts);
            });
            t.start();
            t.join();
            String expected = arg.isEmpty() ? "IllegalArgumentException" : arg.equals("super") ? "IllegalStateException" : null;
            assertEquals(expected, thrown.get() == null ? null : thrown.get().getClass().getSimpleName(), "'" + arg + "'");
            // "super": thrown inside the super constructor's call, which no handler may cover (docs/accounts.md): the
            // constructor's account stays current there; only that the class verifies and the exception passes is checked
            if (!arg.equals("super")) {
                assertEquals(0, after.get(), "'" + arg + "': the constructor's account stayed current after the catch");
            }
            assertTrue(charged(state.get(), 1) > 0, "'" + arg + "': check()'s allocation is the constructor's account's");
        }
    }
}
