package io.heaplens.agent.collect;

import io.heaplens.runtime.Layout;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A class's instance-field bytes read from its class file equal what reflection says (reflection loads every field's
 * type, on the collector thread: issue 20 item 14, docs/reliability.md §2h), for JDK, application and nested classes.
 */
class ClassFileFieldsTest {
    static final class Mixed { long a; double b; int c; float d; short e; char f; byte g; boolean h; Object i; int[] j; static long notCounted; }

    private static long byReflection(Class<?> k) {
        long bytes = 0;
        for (Field f : k.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) continue;
            Class<?> t = f.getType();
            bytes += !t.isPrimitive() ? Layout.reference : t == long.class || t == double.class ? 8
                : t == int.class || t == float.class ? 4 : t == short.class || t == char.class ? 2 : 1;
        }
        return bytes;
    }

    @Test
    void sameBytesAsReflection() {
        for (Class<?> k : new Class<?>[] {String.class, java.util.ArrayList.class, java.util.HashMap.class,
                java.util.concurrent.ConcurrentHashMap.class, Mixed.class, ClassFileFieldsTest.class, Thread.class}) {
            assertEquals(byReflection(k), ClassFileFields.instanceBytes(k), k.getName());
        }
    }

    @Test
    void hiddenAndArrayClassesFallBack() {
        Runnable r = () -> { };
        assertEquals(-1, ClassFileFields.instanceBytes(r.getClass()));
        assertEquals(-1, ClassFileFields.instanceBytes(int[].class));
    }
}
