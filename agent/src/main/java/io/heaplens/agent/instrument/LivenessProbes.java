package io.heaplens.agent.instrument;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.ArrayDeque;

/**
 * Liveness (accounts mode): hands each new object to {@code Accounts.born(Object)} once it exists — after the
 * {@code invokespecial <init>} that completes a {@code new} (an uninitialised object cannot be passed anywhere),
 * after {@code newarray}/{@code anewarray}/{@code multianewarray} (the outer array). A streaming pass over the
 * allocation instrumenter's output: it matches each {@code new T; dup} with its {@code <init>} on T in last-in
 * first-out order, which is how javac nests them; a {@code new} not followed by {@code dup} (so no reference
 * remains after the constructor) gets no probe. The probes only add {@code dup; invokestatic} between two
 * instructions, so the class's frames stay valid as they are.
 */
public final class LivenessProbes {
    private LivenessProbes() {}

    /** @return the class with liveness probes, or null when it has no allocation to watch */
    public static byte[] apply(byte[] classFile) {
        ClassReader reader = new ClassReader(classFile);
        ClassWriter writer = new ClassWriter(reader, 0);
        int[] probes = {0};
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                return new Born(super.visitMethod(access, name, desc, sig, exc), probes);
            }
        }, 0);
        return probes[0] == 0 ? null : writer.toByteArray();
    }

    private static final class Pending {
        final String type;
        boolean dup;
        Pending(String type) { this.type = type; }
    }

    private static final class Born extends MethodVisitor implements Opcodes {
        private final int[] probes;
        private final ArrayDeque<Pending> pending = new ArrayDeque<>();
        /** The latest new, until the next instruction of the program's own shows whether it is a dup. */
        private Pending watch;
        /** Whether the instructions since that new were nothing, or ended with a recorder call (a probe). */
        private boolean cleanSinceNew;

        Born(MethodVisitor next, int[] probes) {
            super(ASM9, next);
            this.probes = probes;
        }

        /** Probe instructions between a new and its dup are pushes and a static call into the recorder. */
        private void other(boolean mayBeProbePart, boolean recorderCall) {
            if (watch == null) return;
            if (!mayBeProbePart) { watch = null; return; }
            cleanSinceNew = recorderCall;
        }

        private void born() {
            super.visitInsn(DUP);
            super.visitMethodInsn(INVOKESTATIC, AccountProbes.ACCOUNTS, "born", "(Ljava/lang/Object;)V", false);
            probes[0]++;
        }

        @Override
        public void visitInsn(int opcode) {
            if (watch != null && opcode == DUP && cleanSinceNew) {
                watch.dup = true;
                watch = null;
            } else {
                other(opcode >= ICONST_M1 && opcode <= ICONST_5 || opcode == I2L, false);
            }
            super.visitInsn(opcode);
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            other(false, false);
            super.visitTypeInsn(opcode, type);
            if (opcode == NEW) {
                Pending p = new Pending(type);
                pending.push(p);
                watch = p;
                cleanSinceNew = true;
            } else if (opcode == ANEWARRAY) {
                born();
            }
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            other(opcode == BIPUSH || opcode == SIPUSH, false);
            super.visitIntInsn(opcode, operand);
            if (opcode == NEWARRAY) born();
        }

        @Override
        public void visitMultiANewArrayInsn(String descriptor, int dims) {
            other(false, false);
            super.visitMultiANewArrayInsn(descriptor, dims);
            born();
        }

        @Override
        public void visitVarInsn(int opcode, int var) {
            other(opcode == ALOAD || opcode == ILOAD || opcode == LLOAD, false);
            super.visitVarInsn(opcode, var);
        }

        @Override
        public void visitLdcInsn(Object value) {
            other(value instanceof Integer, false);
            super.visitLdcInsn(value);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
            other(opcode == INVOKESTATIC && owner.equals(Probes.RECORDER), opcode == INVOKESTATIC && owner.equals(Probes.RECORDER));
            super.visitMethodInsn(opcode, owner, name, desc, itf);
            if (opcode == INVOKESPECIAL && name.equals("<init>") && !pending.isEmpty() && pending.peek().type.equals(owner)) {
                Pending p = pending.pop();
                if (p.dup) born();
            }
        }

        @Override public void visitFieldInsn(int o, String a, String b, String c) { other(false, false); super.visitFieldInsn(o, a, b, c); }
        @Override public void visitJumpInsn(int o, Label l) { other(false, false); super.visitJumpInsn(o, l); }
        @Override public void visitIincInsn(int v, int i) { other(false, false); super.visitIincInsn(v, i); }
        @Override public void visitTableSwitchInsn(int a, int b, Label d, Label... l) { other(false, false); super.visitTableSwitchInsn(a, b, d, l); }
        @Override public void visitLookupSwitchInsn(Label d, int[] k, Label[] l) { other(false, false); super.visitLookupSwitchInsn(d, k, l); }
        @Override public void visitInvokeDynamicInsn(String n, String d, Handle h, Object... a) { other(false, false); super.visitInvokeDynamicInsn(n, d, h, a); }
        @Override public void visitLabel(Label l) { other(false, false); super.visitLabel(l); }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitMaxs(maxStack + 1, maxLocals);
        }
    }
}
