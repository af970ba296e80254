package io.heaplens.runtime;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shape the JIT sees (issue 26, issue 20 item 1): the probes' fast paths are methods that C1 calls and C2
 * inlines. HotSpot's C1 inlines a method only up to C1MaxInlineSize = 35 bytes of bytecode unless it is
 * {@code @ForceInline}; C2 inlines a hot call up to FreqInlineSize = 325 bytes. Inlined into C1 code, the entry probe
 * made every C1 frame of an instrumented method about 5× larger and was compiled again at every method entry.
 */
class RecorderShapeTest {
    private static final int C1_MAX_INLINE_SIZE = 35, FREQ_INLINE_SIZE = 325;
    private static final String FORCE = "Ljdk/internal/vm/annotation/ForceInline;";
    private static final String DONT = "Ljdk/internal/vm/annotation/DontInline;";

    private static ClassNode read(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
            assertNotNull(in, c.getName());
            ClassNode cn = new ClassNode();
            new ClassReader(in).accept(cn, 0);
            return cn;
        }
    }

    private static MethodNode method(ClassNode cn, String name, String desc) {
        for (MethodNode m : cn.methods) if (m.name.equals(name) && m.desc.equals(desc)) return m;
        throw new AssertionError(cn.name + "." + name + desc + " not found");
    }

    private static List<String> annotations(MethodNode m) {
        List<String> out = new ArrayList<>();
        for (List<AnnotationNode> l : java.util.Arrays.asList(m.visibleAnnotations, m.invisibleAnnotations)) {
            if (l != null) for (AnnotationNode a : l) out.add(a.desc);
        }
        return out;
    }

    /** code_length of a method's Code attribute (HotSpot's code_size), read from the class file itself. */
    private static int codeSize(Class<?> c, String name, String desc) throws IOException {
        byte[] b;
        try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) { b = in.readAllBytes(); }
        ClassReader r = new ClassReader(b);
        char[] buf = new char[r.getMaxStringLength()];
        int p = r.header + 6;
        p += 2 + 2 * r.readUnsignedShort(p);                       // interfaces
        for (int pass = 0; pass < 2; pass++) {                      // fields, then methods
            int n = r.readUnsignedShort(p);
            p += 2;
            for (int i = 0; i < n; i++) {
                String mName = r.readUTF8(p + 2, buf), mDesc = r.readUTF8(p + 4, buf);
                int attrs = r.readUnsignedShort(p + 6);
                p += 8;
                for (int j = 0; j < attrs; j++) {
                    String an = r.readUTF8(p, buf);
                    int len = r.readInt(p + 2);
                    if (pass == 1 && an.equals("Code") && mName.equals(name) && mDesc.equals(desc)) return r.readInt(p + 10);
                    p += 6 + len;
                }
            }
        }
        throw new AssertionError(c.getName() + "." + name + desc + ": no code");
    }

    private static void calledByC1InlinedByC2(Class<?> c, String name, String desc) throws IOException {
        MethodNode m = method(read(c), name, desc);
        assertFalse(annotations(m).contains(FORCE), name + " must not be @ForceInline (C1 would inline it)");
        assertFalse(annotations(m).contains(DONT), name + " must not be @DontInline (C2 must inline it)");
        int size = codeSize(c, name, desc);
        assertTrue(size > C1_MAX_INLINE_SIZE, name + desc + ": " + size + " bytes, C1 would inline it");
        assertTrue(size <= FREQ_INLINE_SIZE, name + desc + ": " + size + " bytes, C2 would not inline it");
    }

    @Test
    void theFastPathsAreCalledByC1AndInlinedByC2() throws IOException {
        calledByC1InlinedByC2(Node.class, "record", "(JJJJ)J");
        calledByC1InlinedByC2(Recorder.class, "jexact", "(IJJ)V");
        calledByC1InlinedByC2(Recorder.class, "obj", "(Lio/heaplens/runtime/Node;I)V");
        calledByC1InlinedByC2(Recorder.class, "arr", "(ILio/heaplens/runtime/Node;II)V");
    }

    /** The entry's work is one call from C1 and C2 code alike: inlined by C2 it cost h2 ~18 % more CPU (Round 6). */
    @Test
    void theEntryIsACallInCompiledCode() throws IOException {
        MethodNode m = method(read(ThreadState.class), "enterCurrent", "(I)Lio/heaplens/runtime/Node;");
        assertTrue(annotations(m).contains(DONT), "enterCurrent must be @DontInline");
        assertFalse(annotations(m).contains(FORCE), "enterCurrent must not be @ForceInline");
    }

    /**
     * The exit probe, inlined at every return, has no branch: C2 pruned a fold check's untaken path and deoptimised
     * every method with an inlined exit once calls began to fold (docs/benchmark.md "Round 8").
     */
    @Test
    void theExitHasNoBranch() throws IOException {
        MethodNode m = method(read(Recorder.class), "exit", "(Lio/heaplens/runtime/Node;)V");
        for (org.objectweb.asm.tree.AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
            assertFalse(i instanceof org.objectweb.asm.tree.JumpInsnNode, "Recorder.exit must not branch");
        }
    }

    @Test
    void theInlinedProbesOnlyDispatch() throws IOException {
        ClassNode r = read(Recorder.class);
        for (String[] p : new String[][] {
            {"enter", "(I)Lio/heaplens/runtime/Node;"}, {"exit", "(Lio/heaplens/runtime/Node;)V"},
            {"jobj", "(I)V"}, {"jarr", "(III)V"}}) {
            assertTrue(annotations(method(r, p[0], p[1])).contains(FORCE), p[0]);
            int size = codeSize(Recorder.class, p[0], p[1]);
            assertTrue(size <= 48, p[0] + p[1] + ": " + size + " bytes inlined at every site (a dispatch on the mode, an array's byte count)");
        }
        // what an exception, another mode or a miss needs is never compiled into the program's methods
        for (String[] p : new String[][] {{"unwind", "(Lio/heaplens/runtime/Node;)V"}, {"objOther", "(II)V"},
            {"arrOther", "(IIII)V"}, {"jOther", "(IIJJJ)V"}, {"aobj", "(I)V"}, {"aarr", "(III)V"}}) {
            assertTrue(annotations(method(r, p[0], p[1])).contains(DONT), p[0]);
        }
    }

    /**
     * The allocation probes in profiled methods read no fold flag: a fold node's record table never matches, so its
     * allocations take the slow path (NodeTablesTest). The test was compiled by C2 as a trap while nothing folded and
     * deoptimised them 43 times on checkstyle once its node budget was spent (docs/benchmark.md "Round 10").
     */
    @Test
    void theAllocationProbesDoNotAskWhetherTheNodeFolded() throws IOException {
        ClassNode r = read(Recorder.class);
        for (String[] p : new String[][] {{"obj", "(Lio/heaplens/runtime/Node;I)V"}, {"arr", "(ILio/heaplens/runtime/Node;II)V"}}) {
            MethodNode m = method(r, p[0], p[1]);
            for (org.objectweb.asm.tree.AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
                if (i instanceof org.objectweb.asm.tree.MethodInsnNode) {
                    assertFalse(((org.objectweb.asm.tree.MethodInsnNode) i).name.equals("isFold"), p[0] + " asks isFold");
                }
                if (i instanceof org.objectweb.asm.tree.FieldInsnNode) {
                    String f = ((org.objectweb.asm.tree.FieldInsnNode) i).name;
                    assertTrue(f.equals("records"), p[0] + " reads the node's " + f);
                }
            }
        }
    }

    /**
     * A node is 80 bytes with compressed oops: a 12-byte header, two longs and at most 13 ints or references (the last
     * two, its slot and its parent's, since the entry and exit store ints: docs/benchmark.md "Round 20"). Every field
     * more is 4 or 8 bytes on each of a million nodes (maven, docs/benchmark.md "Round 10").
     */
    @Test
    void aNodeHasTwoLongsAndThirteenSmallFields() throws IOException {
        int longs = 0, small = 0;
        for (org.objectweb.asm.tree.FieldNode f : read(Node.class).fields) {
            if ((f.access & org.objectweb.asm.Opcodes.ACC_STATIC) != 0) continue;
            if (f.desc.equals("J") || f.desc.equals("D")) longs++; else small++;
        }
        assertEquals(2, longs, "calls and folded");
        assertTrue(small <= 13, small + " int or reference fields");
    }

    /**
     * What every method entry and exit runs stores no reference into the heap: a reference store into a long-lived
     * object takes G1's post-write barrier, whose memory fence (a {@code lock addl}) was ~70 % of the entry's time on
     * rhino before the current node became an int slot (docs/benchmark.md "Round 20"). Their stores are ints and longs.
     */
    @Test
    void theEntryAndExitStoreNoReference() throws IOException {
        ClassNode recorder = read(Recorder.class), state = read(ThreadState.class);
        List<MethodNode> perCall = java.util.Arrays.asList(
            method(recorder, "enter", "(I)Lio/heaplens/runtime/Node;"),
            method(recorder, "enterIfNot", "(Lio/heaplens/runtime/Node;I)Lio/heaplens/runtime/Node;"),
            method(recorder, "exit", "(Lio/heaplens/runtime/Node;)V"),
            method(recorder, "exitIfEntered", "(Lio/heaplens/runtime/Node;)V"),
            method(state, "enterCurrent", "(I)Lio/heaplens/runtime/Node;"));
        int stores = 0;
        for (MethodNode m : perCall) {
            for (org.objectweb.asm.tree.AbstractInsnNode i : m.instructions) {
                int op = i.getOpcode();
                if (op == org.objectweb.asm.Opcodes.AASTORE) throw new AssertionError(m.name + " stores into a reference array");
                if (op != org.objectweb.asm.Opcodes.PUTFIELD && op != org.objectweb.asm.Opcodes.PUTSTATIC) continue;
                org.objectweb.asm.tree.FieldInsnNode f = (org.objectweb.asm.tree.FieldInsnNode) i;
                assertTrue(f.desc.length() == 1, m.name + " stores the reference " + f.owner + "." + f.name + " " + f.desc);
                stores++;
            }
        }
        assertEquals(4, stores, "exit and exitIfEntered: the current slot; enterCurrent: the call count and the current slot");
    }
}
