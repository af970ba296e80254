package io.heaplens.agent.instrument;

import io.heaplens.agent.core.Registry;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.MethodNode;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;
import static org.objectweb.asm.Opcodes.*;

/**
 * HotSpot compiles no method of more than 8,000 bytes of bytecode. A method within the limit must stay within it once
 * instrumented, if dropping its call-site numbers is enough; one the allocation probes alone take past it is kept
 * exact and named in a warning.
 */
class HugeMethodTest {
    static final String NAME = "huge/Calls";
    static final int CALLS = 900, ARRAYS = 1700;

    static byte[] calls() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(V17, ACC_PUBLIC, NAME, null, "java/lang/Object", null);
        MethodVisitor f = cw.visitMethod(ACC_STATIC, "f", "(I)I", null, null);
        f.visitCode();
        f.visitVarInsn(ILOAD, 0);
        f.visitInsn(IRETURN);
        f.visitMaxs(0, 0);
        f.visitEnd();
        method(cw, "many", CALLS);                      // 900 × 5 + 2 = 4,502 bytes; ~7,200 more with call-site numbers
        method(cw, "some", 10);
        MethodVisitor a = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "arrays", "()I", null, null);
        a.visitCode();
        for (int i = 0; i < ARRAYS; i++) {                 // 1,700 × 4 + 2 = 6,802 bytes; an array probe each
            a.visitInsn(ICONST_1);
            a.visitIntInsn(NEWARRAY, T_INT);
            a.visitInsn(POP);
        }
        a.visitInsn(ICONST_0);
        a.visitInsn(IRETURN);
        a.visitMaxs(0, 0);
        a.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static void method(ClassWriter cw, String name, int calls) {
        MethodVisitor m = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, name, "()I", null, null);
        m.visitCode();
        for (int i = 0; i < calls; i++) {
            m.visitInsn(ICONST_1);
            m.visitMethodInsn(INVOKESTATIC, NAME, "f", "(I)I", false);
            m.visitInsn(POP);
        }
        m.visitInsn(ICONST_0);
        m.visitInsn(IRETURN);
        m.visitMaxs(0, 0);
        m.visitEnd();
    }

    private static int callSiteStores(byte[] classFile, String method) {
        ClassNode cn = new ClassNode();
        new ClassReader(classFile).accept(cn, 0);
        int n = 0;
        for (MethodNode m : cn.methods) {
            if (!(m.name + m.desc).equals(method)) continue;
            for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
                if (i.getOpcode() == PUTFIELD && ((FieldInsnNode) i).name.equals("callSite")) n++;
            }
        }
        return n;
    }

    @Test
    void aMethodTheCallSiteNumbersWouldPushPastTheLimitKeepsItsCallsButNotTheirNumbers() throws Exception {
        Registry registry = InstrumenterTest.REGISTRY;
        byte[] original = calls();
        Map<String, Integer> before = CodeSizes.of(original);
        assertEquals(CALLS * 5 + 2, before.get("many()I"));
        assertEquals(ARRAYS * 4 + 2, before.get("arrays()I"));
        assertEquals(2, before.get("f(I)I"));

        ClassInstrumenter.Result r = ClassInstrumenter.instrument(original, registry, true);
        Map<String, Integer> after = CodeSizes.of(r.bytes);
        assertTrue(after.get("many()I") <= CodeSizes.HUGE_METHOD_LIMIT, "many()I is " + after.get("many()I") + " bytes");
        assertTrue(after.get("many()I") > before.get("many()I"), "many()I still has its entry and exits");
        assertEquals(0, callSiteStores(r.bytes, "many()I"));
        assertEquals(10, callSiteStores(r.bytes, "some()I"), "a small method keeps a call-site number per call");
        assertTrue(after.get("arrays()I") > CodeSizes.HUGE_METHOD_LIMIT, "the array probes alone take arrays()I past the limit");

        assertEquals(2, r.warnings.size(), String.valueOf(r.warnings));
        assertTrue(r.warnings.stream().anyMatch((w) -> w.startsWith("huge.Calls.many()I: its calls are not told apart by line")), String.valueOf(r.warnings));
        assertTrue(r.warnings.stream().anyMatch((w) -> w.startsWith("huge.Calls.arrays()I: longer than the 8000 bytes of bytecode HotSpot compiles")), String.valueOf(r.warnings));

        InstrumentedLoader loader = new InstrumentedLoader(registry);
        loader.add("huge.Calls", original);
        Class<?> c = loader.loadClass("huge.Calls");
        assertEquals(0, c.getMethod("many").invoke(null));
        assertEquals(0, c.getMethod("arrays").invoke(null));
    }
}
