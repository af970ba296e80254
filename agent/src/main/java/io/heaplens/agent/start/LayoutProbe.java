package io.heaplens.agent.start;

import io.heaplens.runtime.Layout;

import java.lang.instrument.Instrumentation;

/** Measures the running JVM's object layout with Instrumentation.getObjectSize on a few objects of known shape. */
final class LayoutProbe {
    private LayoutProbe() {}

    static String measure(Instrumentation inst) {
        long longBox = inst.getObjectSize(Long.valueOf(Long.MAX_VALUE));   // header + 8
        long intBox = inst.getObjectSize(Integer.valueOf(Integer.MAX_VALUE)); // header + 4
        int align = 8;
        Layout.alignment = align;
        Layout.objectHeader = longBox == 16 ? 8 : intBox == 16 ? 12 : 16;
        long size0 = inst.getObjectSize(new byte[0]);
        int firstGrowth = 1;
        while (firstGrowth < 64 && inst.getObjectSize(new byte[firstGrowth]) == size0) firstGrowth++;
        Layout.arrayHeader = (int) (size0 - (firstGrowth - 1));
        long refs4 = inst.getObjectSize(new Object[4]);
        Layout.reference = refs4 == Layout.arrayBytes(4, 4) ? 4 : 8;
        return "Instrumentation.getObjectSize: Integer=" + intBox + " Long=" + longBox + " byte[0]=" + size0
            + " Object[4]=" + refs4;
    }
}
