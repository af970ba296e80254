package io.heaplens.agent.instrument;

import io.heaplens.agent.core.Registry;
import io.heaplens.agent.core.Registry.SiteInfo;
import io.heaplens.agent.core.Types;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.MethodInsnNode;

/**
 * The fast path for classes without call-tree probes (the JDK, excluded packages): one streaming pass that adds
 * allocation probes after each allocation. It adds no local and no branch, so the class's stack map frames are
 * copied as they are. Retransforming the ~1,000 JDK classes loaded before the agent is what start-up pays for,
 * so this path matters. A multianewarray of three or more dimensions needs temporaries: such a class goes
 * through the tree instrumenter instead ({@link NeedsTree}).
 */
final class StreamingAllocations {
    static final class NeedsTree extends RuntimeException {
        NeedsTree() { super(null, null, false, false); }
    }

    private StreamingAllocations() {}

    /** @return the instrumented class, or null when it has no allocation site */
    static byte[] instrument(byte[] original, Registry registry, ClassInstrumenter.Result result, boolean outOfLine) {
        OffsetReader reader = new OffsetReader(original);
        ClassWriter writer = new ClassWriter(reader, 0);
        Adapter adapter = new Adapter(writer, registry, reader);
        adapter.outOfLine = outOfLine;
        reader.accept(adapter, 0);
        result.sites = adapter.sites;
        return adapter.sites == 0 ? null : writer.toByteArray();
    }

    private static final class Adapter extends ClassVisitor {
        final Registry registry;
        final OffsetReader reader;
        String owner, sourceFile;
        int sites;
        /** No call tree at this level (sites, sampled): out-of-line allocation probes (Probes.object). */
        boolean outOfLine;

        Adapter(ClassVisitor next, Registry registry, OffsetReader reader) {
            super(Opcodes.ASM9, next);
            this.registry = registry;
            this.reader = reader;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            owner = name;
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public void visitSource(String source, String debug) {
            sourceFile = source;
            super.visitSource(source, debug);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
            if (AllocatingCalls.countedByCaller(owner, name, desc)) return mv;
            return new Probe(mv, this, name, desc);
        }
    }

    private static final class Probe extends MethodVisitor implements Opcodes {
        private final Adapter cls;
        private final String name, desc;
        private Registry.MethodInfo info;
        private int line = -1, firstLine = -1;

        Probe(MethodVisitor next, Adapter cls, String name, String desc) {
            super(Opcodes.ASM9, next);
            this.cls = cls;
            this.name = name;
            this.desc = desc;
        }

        private SiteInfo site(String kind, String descriptor) {
            if (info == null) info = cls.registry.method(cls.owner, name, desc);
            cls.sites++;
            return cls.registry.site(info.id, cls.reader.offset, line, kind, descriptor);
        }

        @Override
        public void visitLineNumber(int l, Label start) {
            line = l;
            if (firstLine < 0) firstLine = l;
            super.visitLineNumber(l, start);
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            super.visitTypeInsn(opcode, type);
            if (opcode == NEW) {
                int key = cls.registry.singleKey(site("new", Types.descriptorOfInternal(type)));
                AllocatingCalls.BoxKind box = AllocatingCalls.boxBody(cls.owner, name, desc);
                emit(box != null ? Probes.boxInside(box, key) : Probes.object(key, -1, cls.outOfLine));
            } else if (opcode == ANEWARRAY) {
                array("anewarray", "[" + Types.descriptorOfInternal(type));
            }
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            super.visitIntInsn(opcode, operand);
            if (opcode == NEWARRAY) array("newarray", Types.newarrayDescriptor(operand));
        }

        @Override
        public void visitMultiANewArrayInsn(String descriptor, int dims) {
            if (dims > 2) throw new NeedsTree();
            if (dims == 1) {
                super.visitMultiANewArrayInsn(descriptor, dims);
                array("multianewarray", descriptor);
                return;
            }
            SiteInfo s = site("multianewarray", descriptor);
            int firstKey = cls.registry.levelKeys(s, 2);
            // [d1 d2] → [d1 d2 d1 d2] → Recorder.multi(null, key, d1, d2) needs (Node, int, int, int): reorder on
            // the stack would need a temporary, so count through the two-int helper before allocating instead.
            super.visitInsn(DUP2);
            super.visitLdcInsn(firstKey);
            super.visitMethodInsn(INVOKESTATIC, Probes.RECORDER, "jmulti", "(III)V", false);
            super.visitMultiANewArrayInsn(descriptor, dims);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String mname, String mdesc, boolean itf) {
            MethodInsnNode call = new MethodInsnNode(opcode, owner, mname, mdesc, itf);
            AllocatingCalls.BoxKind box = AllocatingCalls.boxOf(call);
            if (box != null) emit(Probes.box(box, cls.registry.singleKey(site("box", box.typeDescriptor())), -1));
            super.visitMethodInsn(opcode, owner, mname, mdesc, itf);
            String kind = AllocatingCalls.kindOf(call);
            if (kind == null) return;
            SiteInfo s = site(kind.equals("reflect-multi") ? "reflect" : kind, owner.charAt(0) == '[' ? owner : "Ljava/lang/Object;");
            emit(kind.equals("reflect-multi") ? Probes.dynamicMulti(s.id, -1) : Probes.dynamic(s.id, -1));
        }

        @Override
        public void visitInvokeDynamicInsn(String iname, String idesc, org.objectweb.asm.Handle bsm, Object... bsmArgs) {
            super.visitInvokeDynamicInsn(iname, idesc, bsm, bsmArgs);
            if (!AllocatingCalls.isCapturingLambda(bsm, idesc)) return;
            emit(Probes.dynamic(site("lambda", org.objectweb.asm.Type.getReturnType(idesc).getDescriptor()).id, -1));
        }

        private void array(String kind, String descriptor) {
            SiteInfo s = site(kind, descriptor);
            emit(Probes.array(cls.registry.singleKey(s), cls.registry.type(s).elementSize, -1, cls.outOfLine));
        }

        private void emit(InsnList probe) {
            for (AbstractInsnNode i = probe.getFirst(); i != null; i = i.getNext()) i.accept(mv);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitMaxs(maxStack + 4, maxLocals);     // the longest probe pushes four values
        }

        @Override
        public void visitEnd() {
            if (info != null) {
                info.file = cls.sourceFile;
                info.line = firstLine;
            }
            super.visitEnd();
        }
    }
}
