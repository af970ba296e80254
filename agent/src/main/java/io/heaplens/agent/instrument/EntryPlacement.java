package io.heaplens.agent.instrument;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a profiled method's entry probe goes when it may be late (agent option {@code leaves=skip}): at the first
 * call or allocation on each path, not at the method's start, so an invocation that returns without calling or
 * allocating anything (a method's quick path: {@code if (x instanceof Number) return x;}) pays no probe at all. Such
 * an invocation could hold no allocation and no callee, as a quiet leaf method could not (ClassInstrumenter).
 *
 * A forward data-flow over the method's instructions says, for each instruction, whether the method has entered on
 * every path to it ({@link #mustHaveEntered}) and on some path ({@link #mayHaveEntered}). An instruction that needs
 * the node then gets a plain entry (entered on no path), a null-checked one (on some paths) or none (on all).
 * A method whose every return is reached only after an entry keeps the entry at its start, as before: its counts
 * and its code are those of an eager entry.
 */
final class EntryPlacement implements Opcodes {
    private final Map<AbstractInsnNode, Integer> index = new IdentityHashMap<>();
    private final AbstractInsnNode[] insns;
    private final boolean[] must, may, reached;
    /** Whether some return can be reached before any entry: only then does the entry move. */
    final boolean late;

    /**
     * @param probeAllocations whether the method's allocations get probes (then they need the node, as calls do:
     *                         {@link #needsNode}); the entry happens right before the first such instruction
     */
    EntryPlacement(MethodNode mn, List<AbstractInsnNode> original, boolean probeAllocations) {
        insns = original.toArray(new AbstractInsnNode[0]);
        int n = insns.length;
        for (int i = 0; i < n; i++) index.put(insns[i], i);
        must = new boolean[n];
        may = new boolean[n];
        reached = new boolean[n];
        boolean subroutines = false;
        for (AbstractInsnNode i : insns) if (i.getOpcode() == JSR || i.getOpcode() == RET) subroutines = true;
        if (subroutines || n == 0) {            // old class files' subroutines: no flow analysis, the entry at the start
            late = false;
            return;
        }
        boolean[] enters = new boolean[n];
        for (int i = 0; i < n; i++) enters[i] = needsNode(insns[i].getOpcode(), probeAllocations);
        int handlers = mn.tryCatchBlocks.size();
        int[] from = new int[handlers], to = new int[handlers], handler = new int[handlers];
        for (int h = 0; h < handlers; h++) {
            TryCatchBlockNode tcb = mn.tryCatchBlocks.get(h);
            from[h] = at(tcb.start);
            to[h] = at(tcb.end);
            handler[h] = at(tcb.handler);
        }
        ArrayDeque<Integer> work = new ArrayDeque<>();
        reached[0] = true;                       // must = may = false: nothing has entered at the method's start
        work.add(0);
        while (!work.isEmpty()) {
            int i = work.poll();
            boolean outMust = must[i] || enters[i], outMay = may[i] || enters[i];
            AbstractInsnNode insn = insns[i];
            int op = insn.getOpcode();
            if (insn instanceof JumpInsnNode) {
                flow(at(((JumpInsnNode) insn).label), outMust, outMay, work);
                if (op != GOTO) flow(i + 1, outMust, outMay, work);
            } else if (insn instanceof TableSwitchInsnNode) {
                TableSwitchInsnNode s = (TableSwitchInsnNode) insn;
                flow(at(s.dflt), outMust, outMay, work);
                for (LabelNode l : s.labels) flow(at(l), outMust, outMay, work);
            } else if (insn instanceof LookupSwitchInsnNode) {
                LookupSwitchInsnNode s = (LookupSwitchInsnNode) insn;
                flow(at(s.dflt), outMust, outMay, work);
                for (LabelNode l : s.labels) flow(at(l), outMust, outMay, work);
            } else if (!((op >= IRETURN && op <= RETURN) || op == ATHROW)) {
                flow(i + 1, outMust, outMay, work);
            }
            // An exception can leave any instruction of a try range, the entry's own call included (before or
            // after it stored the node): the handler sees the state before the instruction, or entered.
            for (int h = 0; h < handlers; h++) {
                if (from[h] <= i && i < to[h]) flow(handler[h], must[i], outMay, work);
            }
        }
        boolean early = false;
        for (int i = 0; i < n; i++) {
            int op = insns[i].getOpcode();
            if (reached[i] && op >= IRETURN && op <= RETURN && !must[i]) early = true;
        }
        late = early;
    }

    /**
     * Whether the probes MethodInstrumenter puts at an instruction read the method's node: a call (its call-site
     * store) or a probed allocation.
     */
    static boolean needsNode(int op, boolean probeAllocations) {
        if (op >= INVOKEVIRTUAL && op <= INVOKEDYNAMIC) return true;
        return probeAllocations && (op == NEW || op == NEWARRAY || op == ANEWARRAY || op == MULTIANEWARRAY);
    }

    private int at(AbstractInsnNode label) {
        Integer i = index.get(label);
        if (i == null) throw new IllegalStateException("a branch target outside the method's instructions");
        return i;
    }

    private void flow(int to, boolean inMust, boolean inMay, ArrayDeque<Integer> work) {
        if (to >= insns.length) return;
        if (!reached[to]) {
            reached[to] = true;
            must[to] = inMust;
            may[to] = inMay;
            work.add(to);
            return;
        }
        boolean m = must[to] && inMust, y = may[to] || inMay;
        if (m != must[to] || y != may[to]) {
            must[to] = m;
            may[to] = y;
            work.add(to);
        }
    }

    /** Entered on every path to {@code insn} (unreachable code counts as entered: it keeps the plain probes). */
    boolean mustHaveEntered(AbstractInsnNode insn) {
        int i = index.get(insn);
        return !late || !reached[i] || must[i];
    }

    /** Entered on some path to {@code insn}. */
    boolean mayHaveEntered(AbstractInsnNode insn) {
        int i = index.get(insn);
        return !late || !reached[i] || may[i];
    }
}
