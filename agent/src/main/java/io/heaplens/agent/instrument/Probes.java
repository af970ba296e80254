package io.heaplens.agent.instrument;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/** The instruction sequences the instrumenter inserts: calls into io.heaplens.runtime.Recorder, nothing else. */
final class Probes implements Opcodes {
    static final String RECORDER = "io/heaplens/runtime/Recorder";
    static final String NODE = "io/heaplens/runtime/Node";
    private static final String N = "L" + NODE + ";";

    private Probes() {}

    static AbstractInsnNode push(int v) {
        if (v >= -1 && v <= 5) return new InsnNode(ICONST_0 + v);
        if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) return new IntInsnNode(BIPUSH, v);
        if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) return new IntInsnNode(SIPUSH, v);
        return new LdcInsnNode(v);
    }

    private static MethodInsnNode call(String name, String desc) {
        return new MethodInsnNode(INVOKESTATIC, RECORDER, name, desc, false);
    }

    /** node = Recorder.enter(methodId) */
    static InsnList enter(int methodId, int nodeLocal) {
        InsnList l = new InsnList();
        l.add(push(methodId));
        l.add(call("enter", "(I)" + N));
        l.add(new VarInsnNode(ASTORE, nodeLocal));
        return l;
    }

    /** A method whose entry may come late (EntryPlacement): node = null at its start. */
    static InsnList noNodeYet(int nodeLocal) {
        InsnList l = new InsnList();
        l.add(new InsnNode(ACONST_NULL));
        l.add(new VarInsnNode(ASTORE, nodeLocal));
        return l;
    }

    /** node = Recorder.enterIfNot(node, methodId): where some paths have entered the method and others not. */
    static InsnList enterIfNot(int methodId, int nodeLocal) {
        InsnList l = new InsnList();
        l.add(new VarInsnNode(ALOAD, nodeLocal));
        l.add(push(methodId));
        l.add(call("enterIfNot", "(" + N + "I)" + N));
        l.add(new VarInsnNode(ASTORE, nodeLocal));
        return l;
    }

    /** At a return that some paths reach without an entry: Recorder.exitIfEntered(node). */
    static InsnList exitIfEntered(int nodeLocal) {
        InsnList l = new InsnList();
        l.add(new VarInsnNode(ALOAD, nodeLocal));
        l.add(call("exitIfEntered", "(" + N + ")V"));
        return l;
    }

    /** Before an invoke in a profiled method: node.callSite = site (the callee's inline cache, see Node.siteChildren). */
    static InsnList callSite(int nodeLocal, int site) {
        InsnList l = new InsnList();
        l.add(new VarInsnNode(ALOAD, nodeLocal));
        l.add(push(site));
        l.add(new FieldInsnNode(PUTFIELD, NODE, "callSite", "I"));
        return l;
    }

    static InsnList exit(int nodeLocal) {
        InsnList l = new InsnList();
        l.add(new VarInsnNode(ALOAD, nodeLocal));
        l.add(call("exit", "(" + N + ")V"));
        return l;
    }

    /** At the start of each exception handler of a profiled method: Recorder.caught(node), an out-of-line call. */
    static InsnList caught(int nodeLocal) {
        InsnList l = new InsnList();
        l.add(new VarInsnNode(ALOAD, nodeLocal));
        l.add(call("caught", "(" + N + ")V"));
        return l;
    }

    /** In the method-wide exception handler: Recorder.unwind(node), an out-of-line call. */
    static InsnList unwind(int nodeLocal) {
        InsnList l = new InsnList();
        l.add(new VarInsnNode(ALOAD, nodeLocal));
        l.add(call("unwind", "(" + N + ")V"));
        return l;
    }

    /**
     * After NEW (the uninitialised reference stays untouched on the stack). nodeLocal < 0: no node (JDK code).
     * outOfLine: the class is instrumented without the call tree (sites, sampled): one call to Recorder.aobj,
     * no inlined dispatch.
     */
    static InsnList object(int key, int nodeLocal, boolean outOfLine) {
        InsnList l = new InsnList();
        if (nodeLocal >= 0) {
            l.add(new VarInsnNode(ALOAD, nodeLocal));
            l.add(push(key));
            l.add(call("obj", "(" + N + "I)V"));
        } else {
            l.add(push(key));
            l.add(call(outOfLine ? "aobj" : "jobj", "(I)V"));
        }
        return l;
    }

    /** After NEWARRAY/ANEWARRAY: [array] → [array], counting only arrays that were really allocated (outOfLine: as {@link #object}). */
    static InsnList array(int key, int elementSize, int nodeLocal, boolean outOfLine) {
        InsnList l = new InsnList();
        l.add(new InsnNode(DUP));
        l.add(new InsnNode(ARRAYLENGTH));
        if (nodeLocal >= 0) {
            l.add(new VarInsnNode(ALOAD, nodeLocal));
            l.add(push(key));
            l.add(push(elementSize));
            l.add(call("arr", "(I" + N + "II)V"));
        } else {
            l.add(push(key));
            l.add(push(elementSize));
            l.add(call(outOfLine ? "aarr" : "jarr", "(III)V"));
        }
        return l;
    }

    /** Before MULTIANEWARRAY: park the dimensions in temporaries and reload them for the instruction. */
    static InsnList saveDims(int dims, int firstTemp) {
        InsnList l = new InsnList();
        for (int i = dims - 1; i >= 0; i--) l.add(new VarInsnNode(ISTORE, firstTemp + i));
        for (int i = 0; i < dims; i++) l.add(new VarInsnNode(ILOAD, firstTemp + i));
        return l;
    }

    /** After MULTIANEWARRAY: record every dimension level (Binder 2006 Figure 4). */
    static InsnList multi(int firstKey, int dims, int firstTemp, int nodeLocal) {
        InsnList l = new InsnList();
        l.add(nodeLocal >= 0 ? new VarInsnNode(ALOAD, nodeLocal) : new InsnNode(ACONST_NULL));
        l.add(push(firstKey));
        if (dims <= 3) {
            for (int i = 0; i < dims; i++) l.add(new VarInsnNode(ILOAD, firstTemp + i));
            l.add(call("multi", "(" + N + "I" + "I".repeat(dims) + ")V"));
        } else {
            l.add(push(dims));
            l.add(new IntInsnNode(NEWARRAY, T_INT));
            for (int i = 0; i < dims; i++) {
                l.add(new InsnNode(DUP));
                l.add(push(i));
                l.add(new VarInsnNode(ILOAD, firstTemp + i));
                l.add(new InsnNode(IASTORE));
            }
            l.add(call("multiDims", "(" + N + "I[I)V"));
        }
        return l;
    }

    /** Before a boxing call: [value] → [value], counting the box unless the value is cached. */
    static InsnList box(AllocatingCalls.BoxKind b, int key, int nodeLocal) {
        InsnList l = new InsnList();
        l.add(new InsnNode(b.wide() ? DUP2 : DUP));
        if (nodeLocal >= 0) {
            l.add(new VarInsnNode(ALOAD, nodeLocal));
            l.add(push(key));
            l.add(call(b.probe, "(" + b.argType + N + "I)V"));
        } else {
            l.add(push(key));
            l.add(call("j" + b.probe, "(" + b.argType + "I)V"));
        }
        return l;
    }

    /** Inside a boxing method, after its NEW: boxInside(value as long, key). */
    static InsnList boxInside(AllocatingCalls.BoxKind b, int key) {
        InsnList l = new InsnList();
        if (b.wide()) {
            l.add(new VarInsnNode(LLOAD, 0));
        } else {
            l.add(new VarInsnNode(ILOAD, 0));
            l.add(new InsnNode(I2L));
        }
        l.add(push(key));
        l.add(call("boxInside", "(JI)V"));
        return l;
    }

    /** After Array.newInstance(Class, int[]): every level of the new array. */
    static InsnList dynamicMulti(int siteId, int nodeLocal) {
        return afterCall("dynMulti", siteId, nodeLocal);
    }

    /** After a call that returns a freshly allocated object or array: [result] → [result]. */
    static InsnList dynamic(int siteId, int nodeLocal) {
        return afterCall("dyn", siteId, nodeLocal);
    }

    /** [result] → [result]: {@code Recorder.<probe>(result, node or null, siteId)}. */
    private static InsnList afterCall(String probe, int siteId, int nodeLocal) {
        InsnList l = new InsnList();
        l.add(new InsnNode(DUP));
        l.add(nodeLocal >= 0 ? new VarInsnNode(ALOAD, nodeLocal) : new InsnNode(ACONST_NULL));
        l.add(push(siteId));
        l.add(call(probe, "(Ljava/lang/Object;" + N + "I)V"));
        return l;
    }
}
