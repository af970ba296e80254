package io.heaplens.agent.instrument;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

import java.util.IdentityHashMap;
import java.util.Map;

/** A ClassNode whose methods record the original bytecode offset of allocation and call instructions. */
final class OffsetClassNode extends ClassNode {
    private final OffsetReader reader;

    OffsetClassNode(OffsetReader reader) {
        super(Opcodes.ASM9);
        this.reader = reader;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        OffsetMethodNode m = new OffsetMethodNode(access, name, descriptor, signature, exceptions, reader);
        methods.add(m);
        return m;
    }

    static final class OffsetMethodNode extends MethodNode {
        final Map<AbstractInsnNode, Integer> bci = new IdentityHashMap<>();
        private final OffsetReader reader;

        OffsetMethodNode(int access, String name, String desc, String sig, String[] exc, OffsetReader reader) {
            super(Opcodes.ASM9, access, name, desc, sig, exc);
            this.reader = reader;
        }

        private void mark() { bci.put(instructions.getLast(), reader.offset); }

        @Override public void visitTypeInsn(int opcode, String type) { super.visitTypeInsn(opcode, type); mark(); }
        @Override public void visitIntInsn(int opcode, int operand) { super.visitIntInsn(opcode, operand); mark(); }
        @Override public void visitMultiANewArrayInsn(String d, int dims) { super.visitMultiANewArrayInsn(d, dims); mark(); }
        @Override public void visitInvokeDynamicInsn(String name, String desc, org.objectweb.asm.Handle bsm, Object... args) {
            super.visitInvokeDynamicInsn(name, desc, bsm, args);
            mark();
        }
        @Override public void visitMethodInsn(int op, String owner, String name, String desc, boolean itf) {
            super.visitMethodInsn(op, owner, name, desc, itf);
            mark();
        }

        int bciOf(AbstractInsnNode insn) {
            Integer b = bci.get(insn);
            return b == null ? -1 : b;
        }
    }
}
