package io.heaplens.runtime;

import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;

/** The running JVM's object layout, measured once at start (see the agent's LayoutProbe). All byte figures are estimates. */
public final class Layout {
    public static int objectHeader = 12;
    public static int arrayHeader = 16;
    public static int reference = 4;
    public static int alignment = 8;

    private Layout() {}

    /** Aligned size of one array of {@code length} elements of {@code elementSize} bytes. */
    @ForceInline
    public static long arrayBytes(long length, int elementSize) {
        long a = alignment - 1;
        return (arrayHeader + length * elementSize + a) & ~a;
    }

    /** Aligned size of an object whose fields take {@code fieldBytes}. */
    public static long objectBytes(long fieldBytes) {
        long a = alignment - 1;
        return (objectHeader + fieldBytes + a) & ~a;
    }
}
