package io.heaplens.agent.instrument;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AnalyzerAdapter;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Binder 2006 §4: which alternate or superclass constructor a constructor invokes on {@code this} (the map M).
 * Abstract interpretation of the stack and locals (ASM's AnalyzerAdapter, driven by the class's own stack map
 * frames) follows the uninitialised {@code this} to the invokespecial {@code <init>} that receives it.
 */
final class CtorAnalysis {
    /** The invokespecial instructions whose receiver is the uninitialised this, in code order. */
    final List<MethodInsnNode> thisInits = new ArrayList<>();
    /** Distinct targets, "owner.<init>desc". */
    final Set<String> targets = new LinkedHashSet<>();
    /** Set when the analysis could not follow the code (no stack map frames after a jump). */
    boolean incomplete;

    static CtorAnalysis of(String owner, MethodNode mn) {
        CtorAnalysis result = new CtorAnalysis();
        List<MethodInsnNode> calls = new ArrayList<>();
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof MethodInsnNode) calls.add((MethodInsnNode) i);
        }
        Probe probe = new Probe();
        AnalyzerAdapter adapter = new AnalyzerAdapter(owner, mn.access, mn.name, mn.desc, probe);
        probe.adapter = adapter;
        mn.accept(adapter);
        for (int ordinal : probe.hits) {
            MethodInsnNode call = calls.get(ordinal);
            result.thisInits.add(call);
            result.targets.add(call.owner + ".<init>" + call.desc);
        }
        result.incomplete = probe.lostTrack;
        return result;
    }

    /** Sees each method instruction before the adapter applies it, i.e. with the operand stack it consumes. */
    private static final class Probe extends MethodVisitor {
        AnalyzerAdapter adapter;
        final List<Integer> hits = new ArrayList<>();
        boolean lostTrack;
        private int ordinal;

        Probe() { super(Opcodes.ASM9); }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
            if (opcode == Opcodes.INVOKESPECIAL && name.equals("<init>")) {
                List<Object> stack = adapter.stack;
                if (stack == null) {
                    lostTrack = true;
                } else {
                    int argSlots = (Type.getArgumentsAndReturnSizes(desc) >> 2) - 1;
                    int receiver = stack.size() - argSlots - 1;
                    if (receiver >= 0 && stack.get(receiver) == Opcodes.UNINITIALIZED_THIS) hits.add(ordinal);
                }
            }
            ordinal++;
        }
    }
}
