package io.heaplens.agent.instrument;

import io.heaplens.agent.core.Registry;
import io.heaplens.agent.core.Registry.MethodInfo;
import io.heaplens.agent.core.Registry.SiteInfo;
import io.heaplens.agent.core.Types;
import io.heaplens.agent.instrument.OffsetClassNode.OffsetMethodNode;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MultiANewArrayInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites one method: MCT entry/exit probes (when the method is profiled) and allocation probes.
 * The node returned by the entry probe lives in a fresh local; every return restores the caller's node, and a
 * method-wide handler (last in the exception table, so the method's own handlers win) restores it when an
 * exception leaves the method. The class's own stack map frames are kept and extended with that local, so no
 * frame is recomputed and no class is loaded.
 */
final class MethodInstrumenter implements Opcodes {
    private final Registry registry;
    private final ClassPlan plan;
    private final OffsetMethodNode mn;
    private final MethodInfo info;
    private final boolean mct;
    private final boolean allocations;
    private int nodeLocal = -1;
    /** Instrumented without the call tree (sites, sampled): the allocation probes are out-of-line calls (Recorder.aobj). */
    boolean outOfLine;
    /**
     * Whether calls store their call-site number (Probes.callSite). Off only where those stores would take the method
     * past HotSpot's compile limit (CodeSizes): its node's call site then stays 0, so its callees' lines are unknown
     * and the allocations of JDK code it calls are not kept apart by line; counts do not change.
     */
    boolean callSites = true;
    private int tempBase = -1;
    int sites;
    /** Allocation instruction → its site key (the lifetime mode's tracking probes use them). */
    final java.util.Map<AbstractInsnNode, Integer> allocKeys = new java.util.IdentityHashMap<>();

    MethodInstrumenter(Registry registry, ClassPlan plan, OffsetMethodNode mn, boolean mct, boolean allocations) {
        this.allocations = allocations;
        this.registry = registry;
        this.plan = plan;
        this.mn = mn;
        this.mct = mct;
        this.info = registry.method(plan.name, mn.name, mn.desc);
    }

    /** The method is a frame of the call tree in every mode (sampled traces resolve to it). */
    void registerFrame() { info.profiled = true; }

    void run() {
        info.file = plan.sourceFile;
        info.line = firstLine();
        CtorAnalysis ctor = null;
        if (mct && mn.name.equals("<init>")) ctor = analyseConstructor();
        if (mct) {
            nodeLocal = mn.maxLocals;
            mn.maxLocals += 1;
        }
        boolean probeAllocations = allocations && !AllocatingCalls.countedByCaller(plan.name, mn.name, mn.desc);
        List<AbstractInsnNode> original = new ArrayList<>();
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) original.add(i);
        // leaves=skip: an invocation that calls and allocates nothing gets no node, whether the method never calls
        // (ClassInstrumenter.isQuietLeaf) or only returns early before it does (EntryPlacement)
        EntryPlacement entry = mct && ClassInstrumenter.skipLeaves
            ? new EntryPlacement(mn, original, probeAllocations) : null;
        boolean late = entry != null && entry.late;
        int line = -1;
        List<Integer> callLines = new ArrayList<>();
        List<Integer> callees = new ArrayList<>();
        for (AbstractInsnNode insn : original) {
            if (insn instanceof LineNumberNode) { line = ((LineNumberNode) insn).line; continue; }
            int op = insn.getOpcode();
            if (op >= IRETURN && op <= RETURN && mct) {
                if (!late || entry.mustHaveEntered(insn)) mn.instructions.insertBefore(insn, Probes.exit(nodeLocal));
                else if (entry.mayHaveEntered(insn)) mn.instructions.insertBefore(insn, Probes.exitIfEntered(nodeLocal));
                // else no path to this return entered: the caller's node is still the thread's current one
            } else {
                boolean enterHere = late && EntryPlacement.needsNode(op, probeAllocations) && !entry.mustHaveEntered(insn);
                boolean call = op >= INVOKEVIRTUAL && op <= INVOKEDYNAMIC;
                if (enterHere && call) mn.instructions.insertBefore(insn, lateEntry(entry, insn));
                if (mct && call) {
                    callLines.add(line);
                    // what the call invokes: the hover of a line names the JDK method its allocations were made inside
                    callees.add(insn instanceof MethodInsnNode
                        ? registry.method(((MethodInsnNode) insn).owner, ((MethodInsnNode) insn).name, ((MethodInsnNode) insn).desc).id : -1);
                    if (callSites) mn.instructions.insertBefore(insn, Probes.callSite(nodeLocal, callLines.size()));
                }
                if (probeAllocations) allocation(insn, op, line);
                // before an allocation instruction (a class it initialises is then a callee of this method, as with
                // an entry at the start), unless a frame names the `new` as an uninitialised value: the frame points
                // at the label right before the NEW, so nothing may come between them, and the entry goes after it
                if (enterHere && !call) {
                    if (op == NEW && namesUninitialised(insn)) mn.instructions.insert(insn, lateEntry(entry, insn));
                    else mn.instructions.insertBefore(insn, lateEntry(entry, insn));
                }
            }
        }
        if (mct) info.callLines = callLines.stream().mapToInt(Integer::intValue).toArray();
        if (mct) info.callees = callees.stream().mapToInt(Integer::intValue).toArray();
        if (mct) {
            LabelNode start = new LabelNode();
            InsnList prologue = new InsnList();
            if (info.line >= 0) {
                // The entry probe carries the method's first line: a StackOverflowError thrown in it must not leave
                // the user's frame without a line (bci 0 came before the method's first LineNumberTable entry).
                LabelNode at = new LabelNode();
                prologue.add(at);
                prologue.add(new LineNumberNode(info.line, at));
            }
            prologue.add(late ? Probes.noNodeYet(nodeLocal) : Probes.enter(info.id, nodeLocal));
            prologue.add(start);
            mn.instructions.insert(prologue);
            addNodeLocalToFrames();
            restoreAtHandlers();                 // before the method-wide handler is added: not in that one
            LabelNode handlerStart = start;
            if (ctor != null) handlerStart = ctor.thisInits.size() == 1 ? labelAfter(ctor.thisInits.get(0)) : null;
            if (handlerStart != null) addExitHandler(handlerStart);
            info.profiled = true;
        }
    }

    private java.util.Set<Object> uninitialised;

    /** Whether a stack map frame of the method names this NEW (by the label right before it) as an uninitialised value. */
    private boolean namesUninitialised(AbstractInsnNode newInsn) {
        if (uninitialised == null) {
            uninitialised = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
                if (!(i instanceof FrameNode)) continue;
                FrameNode f = (FrameNode) i;
                for (List<Object> l : java.util.Arrays.asList(f.local, f.stack)) {
                    if (l != null) for (Object o : l) if (o instanceof LabelNode) uninitialised.add(o);
                }
            }
        }
        for (AbstractInsnNode p = newInsn.getPrevious(); p instanceof LabelNode || p instanceof LineNumberNode || p instanceof FrameNode; p = p.getPrevious()) {
            if (p instanceof LabelNode && uninitialised.contains(p)) return true;
        }
        return false;
    }

    /** A plain entry where no path has entered yet, a null-checked one where some have. */
    private InsnList lateEntry(EntryPlacement entry, AbstractInsnNode insn) {
        return entry.mayHaveEntered(insn) ? Probes.enterIfNot(info.id, nodeLocal) : Probes.enter(info.id, nodeLocal);
    }

    private int firstLine() {
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof LineNumberNode) return ((LineNumberNode) i).line;
        }
        return -1;
    }

    private CtorAnalysis analyseConstructor() {
        CtorAnalysis a = CtorAnalysis.of(plan.name, mn);
        if (a.targets.size() == 1) {
            MethodInsnNode call = a.thisInits.get(0);
            info.ctorTarget = registry.method(call.owner, "<init>", call.desc).id;
        } else if (a.targets.size() > 1) {
            info.ctorWarning = "invokes " + a.targets.size() + " different constructors on this depending on the path "
                + a.targets + " (hand-crafted bytecode, Binder 2006 Appendix B): object counts from constructor calls may be wrong";
        } else if (!plan.name.equals("java/lang/Object")) {
            info.ctorWarning = a.incomplete
                ? "the constructor analysis lost track of this (no stack map frames): no alternate/superclass constructor found"
                : "no alternate or superclass constructor invocation on this was found";
        }
        if (info.ctorWarning != null) plan.warnings.add(plan.name.replace('/', '.') + ".<init>" + mn.desc + ": " + info.ctorWarning);
        return a;
    }

    private void allocation(AbstractInsnNode insn, int op, int line) {
        int bci = mn.bciOf(insn);
        switch (op) {
            case NEW: {
                SiteInfo s = site(bci, line, "new", Types.descriptorOfInternal(((TypeInsnNode) insn).desc));
                AllocatingCalls.BoxKind box = AllocatingCalls.boxBody(plan.name, mn.name, mn.desc);
                int key = registry.singleKey(s);
                allocKeys.put(insn, key);
                mn.instructions.insert(insn, box != null ? Probes.boxInside(box, key) : Probes.object(key, nodeLocal, outOfLine));
                break;
            }
            case NEWARRAY:
                arraySite(insn, bci, line, "newarray", Types.newarrayDescriptor(((IntInsnNode) insn).operand));
                break;
            case ANEWARRAY:
                arraySite(insn, bci, line, "anewarray", "[" + Types.descriptorOfInternal(((TypeInsnNode) insn).desc));
                break;
            case MULTIANEWARRAY: {
                MultiANewArrayInsnNode m = (MultiANewArrayInsnNode) insn;
                if (m.dims == 1) { arraySite(insn, bci, line, "multianewarray", m.desc); break; }
                SiteInfo s = site(bci, line, "multianewarray", m.desc);
                int firstKey = registry.levelKeys(s, m.dims);
                allocKeys.put(insn, firstKey);
                int temps = temps(m.dims);
                mn.instructions.insertBefore(insn, Probes.saveDims(m.dims, temps));
                mn.instructions.insert(insn, Probes.multi(firstKey, m.dims, temps, nodeLocal));
                break;
            }
            case INVOKEVIRTUAL: case INVOKESPECIAL: case INVOKESTATIC: {
                MethodInsnNode call = (MethodInsnNode) insn;
                AllocatingCalls.BoxKind box = AllocatingCalls.boxOf(call);
                if (box != null) {
                    SiteInfo s = site(bci, line, "box", box.typeDescriptor());
                    mn.instructions.insertBefore(insn, Probes.box(box, registry.singleKey(s), nodeLocal));
                    break;
                }
                String kind = AllocatingCalls.kindOf(call);
                if (kind == null) break;
                String declared = call.owner.charAt(0) == '[' ? call.owner : "Ljava/lang/Object;";
                SiteInfo s = site(bci, line, kind.equals("reflect-multi") ? "reflect" : kind, declared);
                mn.instructions.insert(insn, kind.equals("reflect-multi") ? Probes.dynamicMulti(s.id, nodeLocal) : Probes.dynamic(s.id, nodeLocal));
                break;
            }
            case INVOKEDYNAMIC: {
                InvokeDynamicInsnNode indy = (InvokeDynamicInsnNode) insn;
                if (!AllocatingCalls.isCapturingLambda(indy.bsm, indy.desc)) break;
                SiteInfo s = site(bci, line, "lambda", org.objectweb.asm.Type.getReturnType(indy.desc).getDescriptor());
                mn.instructions.insert(insn, Probes.dynamic(s.id, nodeLocal));
                break;
            }
            default:
        }
    }

    private void arraySite(AbstractInsnNode insn, int bci, int line, String kind, String descriptor) {
        SiteInfo s = site(bci, line, kind, descriptor);
        int key = registry.singleKey(s);
        allocKeys.put(insn, key);
        mn.instructions.insert(insn, Probes.array(key, registry.type(s).elementSize, nodeLocal, outOfLine));
    }

    private SiteInfo site(int bci, int line, String kind, String descriptor) {
        sites++;
        return registry.site(info.id, bci, line, kind, descriptor);
    }

    private int temps(int needed) {
        if (tempBase < 0) {
            tempBase = mn.maxLocals;
            mn.maxLocals += needed;
        } else if (tempBase + needed > mn.maxLocals) {
            mn.maxLocals = tempBase + needed;
        }
        return tempBase;
    }

    private LabelNode labelAfter(AbstractInsnNode insn) {
        LabelNode l = new LabelNode();
        mn.instructions.insert(insn, l);
        return l;
    }

    /** Every existing frame gets the node local (frames are expanded: one entry per value, long/double included). */
    private void addNodeLocalToFrames() {
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof FrameNode) {
                FrameNode f = (FrameNode) i;
                f.local = withNodeLocal(f.local);
            }
        }
    }

    private List<Object> withNodeLocal(List<Object> locals) {
        List<Object> out = new ArrayList<>(locals == null ? List.of() : locals);
        int slots = 0;
        for (Object o : out) slots += (o == LONG || o == DOUBLE) ? 2 : 1;
        while (slots < nodeLocal) { out.add(TOP); slots++; }
        out.add(Probes.NODE);
        return out;
    }

    /**
     * Recorder.caught(node) at the start of each of the method's own exception handlers (finally blocks included),
     * after the handler's label, frame and line. The method-wide handler unwinds every profiled frame an exception
     * leaves, except a constructor's code before super(...), which no handler may cover: a catcher that makes its own
     * node current again closes that gap (catchpaths' ctorBefore). The node local is assigned by the prologue, before
     * any of the method's own code, so every handler may read it.
     */
    private void restoreAtHandlers() {
        java.util.Set<LabelNode> done = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        List<LabelNode[]> probes = new ArrayList<>();
        for (TryCatchBlockNode tcb : mn.tryCatchBlocks) {
            if (!done.add(tcb.handler)) continue;
            LabelNode before = new LabelNode(), after = new LabelNode();
            InsnList probe = Probes.caught(nodeLocal);
            probe.insert(before);
            probe.add(after);
            mn.instructions.insert(handlerCode(tcb.handler), probe);
            probes.add(new LabelNode[] {tcb.handler, before, after});
        }
        for (LabelNode[] p : probes) uncoverFromItsOwnHandler(p[0], p[1], p[2]);
    }

    /**
     * javac's try/catch/finally covers the start of its finally handler with that same handler (the catch-any entry
     * "from the catch block to past the finally's astore"). Our probe call there would be a throwing instruction in a
     * handler's entry block covered by itself, and C1 refuses such a method outright ("exception handler covers
     * itself"): the method then stays interpreted until C2 takes it, the hottest methods of xalan among them
     * (docs/benchmark.md "Round 21"). The entry is split around the probe, so the program's own instructions keep
     * exactly the coverage they had.
     */
    private void uncoverFromItsOwnHandler(LabelNode handler, LabelNode before, LabelNode after) {
        for (int i = 0; i < mn.tryCatchBlocks.size(); i++) {
            TryCatchBlockNode t = mn.tryCatchBlocks.get(i);
            if (t.handler != handler) continue;
            int start = mn.instructions.indexOf(t.start), end = mn.instructions.indexOf(t.end);
            if (start > mn.instructions.indexOf(before) || end <= mn.instructions.indexOf(after)) continue;
            boolean head = hasCode(t.start, before), tail = hasCode(after, t.end);
            if (head && tail) {
                mn.tryCatchBlocks.add(i + 1, new TryCatchBlockNode(after, t.end, t.handler, t.type));
                t.end = before;
                i++;
            } else if (head) {
                t.end = before;
            } else if (tail) {
                t.start = after;
            } else {
                mn.tryCatchBlocks.remove(i--);
            }
        }
    }

    /** Whether a real instruction lies between the two labels (a try-catch entry may not be empty). */
    private static boolean hasCode(LabelNode from, LabelNode to) {
        for (AbstractInsnNode i = from.getNext(); i != null && i != to; i = i.getNext()) {
            if (i.getOpcode() >= 0) return true;
        }
        return false;
    }

    /** The handler's first instruction's predecessor: after its label, frame and line (the frame must stay at the label). */
    private static AbstractInsnNode handlerCode(LabelNode handler) {
        AbstractInsnNode at = handler;
        while (at.getNext() instanceof FrameNode || at.getNext() instanceof LineNumberNode || at.getNext() instanceof LabelNode) {
            at = at.getNext();
        }
        return at;
    }

    /** catch (Throwable t) { Recorder.unwind(node); throw t; } around the whole body, after every other handler. */
    private void addExitHandler(LabelNode start) {
        LabelNode end = new LabelNode(), handler = new LabelNode();
        mn.instructions.add(end);
        mn.instructions.add(handler);
        if (plan.frames) {
            List<Object> locals = withNodeLocal(new ArrayList<>());
            for (int i = 0; i < locals.size() - 1; i++) locals.set(i, TOP);
            mn.instructions.add(new FrameNode(F_NEW, locals.size(), locals.toArray(), 1, new Object[] {"java/lang/Throwable"}));
        }
        mn.instructions.add(Probes.unwind(nodeLocal));
        mn.instructions.add(new InsnNode(ATHROW));
        mn.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
    }
}
