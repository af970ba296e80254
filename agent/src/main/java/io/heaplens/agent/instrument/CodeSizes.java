package io.heaplens.agent.instrument;

import org.objectweb.asm.ClassReader;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The bytecode length of each method of a class file, read from its Code attributes. HotSpot compiles no method of
 * more than {@link #HUGE_METHOD_LIMIT} bytes (DontCompileHugeMethods, on by default): a method the probes push past it
 * would run in the interpreter for the rest of the run (rhino's interpreter loop, 6,791 → 8,300 bytes: twice the
 * CPU, docs/benchmark.md "Round 21").
 */
final class CodeSizes {
    /** HotSpot's HugeMethodLimit (a constant in product builds). */
    static final int HUGE_METHOD_LIMIT = 8000;
    /**
     * No probe adds more than four times the bytes of the code it watches (a boxing call with its argument and its
     * use, 5 bytes, gains 15), so a method below a fifth of the limit cannot pass it: most classes are not read twice.
     */
    private static final int NEVER_HUGE = HUGE_METHOD_LIMIT / 5;

    private CodeSizes() {}

    /** Method name + descriptor → code length. */
    static Map<String, Integer> of(byte[] classFile) {
        ClassReader r = new ClassReader(classFile);
        char[] buf = new char[r.getMaxStringLength()];
        int u = r.header + 6;                                  // access, this class, super class
        u += 2 + 2 * r.readUnsignedShort(u);                   // interfaces
        int fields = r.readUnsignedShort(u);
        u += 2;
        for (int i = 0; i < fields; i++) {
            int attrs = r.readUnsignedShort(u + 6);
            u += 8;
            for (int a = 0; a < attrs; a++) u += 6 + r.readInt(u + 2);
        }
        int methods = r.readUnsignedShort(u);
        u += 2;
        Map<String, Integer> sizes = new HashMap<>();
        for (int i = 0; i < methods; i++) {
            String name = r.readUTF8(u + 2, buf), desc = r.readUTF8(u + 4, buf);
            int attrs = r.readUnsignedShort(u + 6);
            u += 8;
            for (int a = 0; a < attrs; a++) {
                if ("Code".equals(r.readUTF8(u, buf))) sizes.put(name + desc, r.readInt(u + 10));  // after max_stack, max_locals
                u += 6 + r.readInt(u + 2);
            }
        }
        return sizes;
    }

    /** Whether some method of the original is long enough that probes could push it past the limit. */
    static boolean mayGrowPastLimit(Map<String, Integer> original) {
        for (int size : original.values()) if (size > NEVER_HUGE && size <= HUGE_METHOD_LIMIT) return true;
        return false;
    }

    /** The methods within the limit in the original that are past it in the instrumented class. */
    static Set<String> grownPastLimit(Map<String, Integer> original, byte[] instrumented) {
        Set<String> past = new HashSet<>();
        for (Map.Entry<String, Integer> e : of(instrumented).entrySet()) {
            Integer before = original.get(e.getKey());
            if (before != null && before <= HUGE_METHOD_LIMIT && e.getValue() > HUGE_METHOD_LIMIT) past.add(e.getKey());
        }
        return past;
    }
}
