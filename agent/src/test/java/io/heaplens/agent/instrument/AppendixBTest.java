package io.heaplens.agent.instrument;

import io.heaplens.agent.core.Registry;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

import static org.junit.jupiter.api.Assertions.*;
import static org.objectweb.asm.Opcodes.*;

/**
 * Binder 2006 Appendix B, Figure 7: a constructor that invokes the alternate or the superclass constructor depending
 * on its argument. Compiled Java never does this; the analyser must say so, and the instrumented class must
 * still verify and behave exactly as the original (count = 1).
 */
class AppendixBTest {
    static final String NAME = "appb/DifferentConstructors";

    static byte[] figure7() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(V17, ACC_PUBLIC, NAME, null, "java/lang/Object", null);
        cw.visitField(ACC_PUBLIC | ACC_STATIC, "count", "I", null, null).visitEnd();
        MethodVisitor m = cw.visitMethod(0, "<init>", "(Z)V", null, null);
        m.visitCode();
        Label superclass = new Label();
        m.visitVarInsn(ALOAD, 0);
        m.visitVarInsn(ILOAD, 1);
        m.visitJumpInsn(IFEQ, superclass);
        m.visitMethodInsn(INVOKESPECIAL, NAME, "<init>", "()V", false);
        m.visitInsn(RETURN);
        m.visitLabel(superclass);
        m.visitMethodInsn(INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        m.visitInsn(RETURN);
        m.visitMaxs(0, 0);
        m.visitEnd();
        MethodVisitor n = cw.visitMethod(0, "<init>", "()V", null, null);
        n.visitCode();
        n.visitVarInsn(ALOAD, 0);
        n.visitMethodInsn(INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        n.visitFieldInsn(GETSTATIC, NAME, "count", "I");
        n.visitInsn(ICONST_1);
        n.visitInsn(IADD);
        n.visitFieldInsn(PUTSTATIC, NAME, "count", "I");
        n.visitInsn(RETURN);
        n.visitMaxs(0, 0);
        n.visitEnd();
        MethodVisitor r = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "run", "()I", null, null);
        r.visitCode();
        for (int flag = 0; flag <= 1; flag++) {
            r.visitTypeInsn(NEW, NAME);
            r.visitInsn(DUP);
            r.visitInsn(flag == 0 ? ICONST_0 : ICONST_1);
            r.visitMethodInsn(INVOKESPECIAL, NAME, "<init>", "(Z)V", false);
            r.visitInsn(POP);
        }
        r.visitFieldInsn(GETSTATIC, NAME, "count", "I");
        r.visitInsn(IRETURN);
        r.visitMaxs(0, 0);
        r.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    @Test
    void twoTargetsAreDetectedAndTheClassStillBehaves() throws Exception {
        Registry registry = InstrumenterTest.REGISTRY;
        InstrumentedLoader loader = new InstrumentedLoader(registry);
        byte[] original = figure7();
        ClassInstrumenter.Result result = ClassInstrumenter.instrument(original, registry, true);
        assertEquals(1, result.warnings.size());
        assertTrue(result.warnings.get(0).contains("invokes 2 different constructors on this"), result.warnings.get(0));
        Registry.MethodInfo ctor = registry.method(NAME, "<init>", "(Z)V");
        assertEquals(-1, ctor.ctorTarget);
        assertNotNull(ctor.ctorWarning);
        Registry.MethodInfo alternate = registry.method(NAME, "<init>", "()V");
        assertEquals(registry.method("java/lang/Object", "<init>", "()V").id, alternate.ctorTarget);

        loader.add("appb.DifferentConstructors", original);
        Class<?> c = loader.loadClass("appb.DifferentConstructors");
        assertEquals(1, c.getMethod("run").invoke(null), "the program's output is unchanged: count = 1");
    }
}
