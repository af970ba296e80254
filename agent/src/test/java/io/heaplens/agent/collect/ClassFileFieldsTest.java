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

    /** HotSpot pads @Contended fields of JDK classes by 128 bytes per group and once after (e2e `contended`: the JVM's sizes). */
    @Test
    void contendedPaddingOfJdkClasses() throws Exception {
        // Thread: the ThreadLocalRandom fields are one group, "tlr": 128 before it, 128 after the fields.
        assertEquals(ClassFileFields.instanceBytes(Thread.class) + 256 * ClassFileFields.layout(Thread.class)[1],
            ClassFileFields.layout(Thread.class)[0]);      // padded on JDK 17, not on JDK 25
        // ForkJoinPool's control fields, one group ("fjpctl"), on both JDKs.
        assertEquals(ClassFileFields.instanceBytes(java.util.concurrent.ForkJoinPool.class) + 256,
            ClassFileFields.layout(java.util.concurrent.ForkJoinPool.class)[0]);
        // A contended class: 128 before its fields, 128 after (ConcurrentHashMap's counter cell: one long).
        Class<?> cell = Class.forName("java.util.concurrent.ConcurrentHashMap$CounterCell");
        assertEquals(8 + 256, ClassFileFields.layout(cell)[0]);
        // No @Contended: the fields alone; and an application class could not have it honoured (RestrictContended).
        for (Class<?> k : new Class<?>[] {String.class, java.util.HashMap.class, Mixed.class}) {
            assertEquals(ClassFileFields.instanceBytes(k), ClassFileFields.layout(k)[0], k.getName());
            assertEquals(0, ClassFileFields.layout(k)[1], k.getName());
        }
    }

    @Test
    void hiddenAndArrayClassesFallBack() {
        Runnable r = () -> { };
        assertEquals(-1, ClassFileFields.instanceBytes(r.getClass()));
        assertEquals(-1, ClassFileFields.instanceBytes(int[].class));
        assertEquals(null, ClassFileFields.layout(r.getClass()));
    }
}
