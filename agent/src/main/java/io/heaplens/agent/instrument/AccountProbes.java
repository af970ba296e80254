package io.heaplens.agent.instrument;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Account switches in the methods of an accounted class (Bouché et al. 2009 §5), as a pass of its own over the class the
 * allocation instrumenter produced: {@code ts = ThreadState.current(); saved = Accounts.enter(ts, id)} on entry,
 * {@code ts.account = saved} before every return and in a method-wide exception handler (last in the table, so
 * the method's own handlers run first), exactly like the call-tree probes. The thread's state is looked up once
 * per call (on h2 the lookup at exit too was a quarter of all samples). The class's stack map frames are kept
 * and extended with the two locals, so no frame is recomputed and no class is loaded. Methods that call nothing and allocate nothing
 * get no probes: nothing can be charged while they run.
 */
public final class AccountProbes implements Opcodes {
    static final String ACCOUNTS = "io/heaplens/runtime/Accounts";
    static final String THREAD_STATE = "io/heaplens/runtime/ThreadState";

    private AccountProbes() {}

    /** @return the class with account probes in its methods, or null when no method needed them */
    public static byte[] apply(byte[] classFile, int account) {
        ClassReader reader = new ClassReader(classFile);
        ClassNode cn = new ClassNode();
        reader.accept(cn, ClassReader.EXPAND_FRAMES);
        boolean frames = (cn.version & 0xFFFF) >= 50;
        int changed = 0;
        for (MethodNode m : cn.methods) {
            if ((m.access & (ACC_ABSTRACT | ACC_NATIVE)) != 0 || m.instructions.size() == 0) continue;
            if (ClassInstrumenter.isQuietLeaf(m)) continue;
            method(cn.name, m, account, frames);
            changed++;
        }
        if (changed == 0) return null;
        try {
            ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
            cn.accept(cw);
            return cw.toByteArray();
        } catch (MethodTooLargeException e) {
            return null;                                   // the class stays unaccounted rather than broken
        }
    }

    private static void method(String owner, MethodNode mn, int account, boolean frames) {
        int local = mn.maxLocals;                 // ThreadState ts; int saved (local + 1)
        mn.maxLocals += 2;
        LabelNode handlerStart = null, thisInit = null;
        if (mn.name.equals("<init>")) {
            // The handler over the body begins after the one constructor call on this (none found: no handlers); the
            // code before the call gets a handler of its own (beforeSuper), in class files with stack map frames.
            CtorAnalysis a = CtorAnalysis.of(owner, mn);
            if (a.thisInits.size() == 1) {
                handlerStart = new LabelNode();
                mn.instructions.insert(a.thisInits.get(0), handlerStart);
                if (frames) {
                    thisInit = new LabelNode();
                    mn.instructions.insertBefore(a.thisInits.get(0), thisInit);
                }
            }
        }
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            int op = i.getOpcode();
            if (op >= IRETURN && op <= RETURN) mn.instructions.insertBefore(i, exit(local));
        }
        LabelNode start = new LabelNode();
        InsnList prologue = new InsnList();
        prologue.add(new MethodInsnNode(INVOKESTATIC, THREAD_STATE, "current", "()L" + THREAD_STATE + ";", false));
        prologue.add(new InsnNode(DUP));
        prologue.add(new VarInsnNode(ASTORE, local));
        prologue.add(Probes.push(account));
        prologue.add(new MethodInsnNode(INVOKESTATIC, ACCOUNTS, "enter", "(L" + THREAD_STATE + ";I)I", false));
        prologue.add(new VarInsnNode(ISTORE, local + 1));
        prologue.add(start);
        mn.instructions.insert(prologue);
        if (frames) {
            for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
                if (i instanceof FrameNode) ((FrameNode) i).local = withLocal(((FrameNode) i).local, local);
            }
        }
        if (!mn.name.equals("<init>")) handlerStart = start;
        if (handlerStart != null) handler(mn, handlerStart, local, frames);
        if (thisInit != null && keepsThis(start, thisInit)) beforeSuper(mn, start, thisInit, local);
    }

    private static InsnList exit(int local) {
        InsnList l = new InsnList();
        l.add(new VarInsnNode(ALOAD, local));
        l.add(new VarInsnNode(ILOAD, local + 1));
        l.add(new org.objectweb.asm.tree.FieldInsnNode(PUTFIELD, THREAD_STATE, "account", "I"));
        return l;
    }

    /** Frames are expanded: one entry per value, long/double included, padded with TOP up to the new locals. */
    private static List<Object> withLocal(List<Object> locals, int local) {
        List<Object> out = new ArrayList<>(locals == null ? List.of() : locals);
        int slots = 0;
        for (Object o : out) slots += (o == LONG || o == DOUBLE) ? 2 : 1;
        while (slots < local) { out.add(TOP); slots++; }
        out.add(THREAD_STATE);
        out.add(INTEGER);
        return out;
    }

    /** catch (Throwable t) { ts.account = saved; throw t; } around the body (in a constructor: after its call to super), after every other handler. */
    private static void handler(MethodNode mn, LabelNode start, int local, boolean frames) {
        LabelNode end = new LabelNode(), handler = new LabelNode();
        mn.instructions.add(end);
        mn.instructions.add(handler);
        if (frames) {
            List<Object> locals = withLocal(new ArrayList<>(), local);
            for (int i = 0; i < locals.size() - 2; i++) locals.set(i, TOP);
            mn.instructions.add(new FrameNode(F_NEW, locals.size(), locals.toArray(), 1, new Object[] {"java/lang/Throwable"}));
        }
        mn.instructions.add(exit(local));
        mn.instructions.add(new InsnNode(ATHROW));
        mn.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
    }

    /**
     * The same over a constructor's code before its call to super(...)/this(...) (an argument that fails a check):
     * otherwise that exception left the constructor's account current in whatever unaccounted frame caught it. There
     * `this` is uninitialised and the handler's frame must say so (HotSpot's verifier lets no such code flow into a
     * frame without that flag), so it is a handler of its own, which only rethrows. The call itself stays uncovered:
     * the verifier checks its handler against the frame before the call (this uninitialised) and after it (this
     * initialised), and no frame accepts both.
     */
    /** No store into local 0 before the call: the handler's frame says local 0 is the uninitialised this. */
    private static boolean keepsThis(LabelNode from, LabelNode to) {
        for (AbstractInsnNode i = from; i != null && i != to; i = i.getNext()) {
            int op = i.getOpcode();
            if (i instanceof VarInsnNode && ((VarInsnNode) i).var == 0 && op >= ISTORE && op <= ASTORE) return false;
            if (i instanceof IincInsnNode && ((IincInsnNode) i).var == 0) return false;
        }
        return true;
    }

    private static void beforeSuper(MethodNode mn, LabelNode start, LabelNode end, int local) {
        LabelNode handler = new LabelNode();
        mn.instructions.add(handler);
        List<Object> locals = withLocal(new ArrayList<>(), local);
        for (int i = 0; i < locals.size() - 2; i++) locals.set(i, TOP);
        locals.set(0, UNINITIALIZED_THIS);
        mn.instructions.add(new FrameNode(F_NEW, locals.size(), locals.toArray(), 1, new Object[] {"java/lang/Throwable"}));
        mn.instructions.add(exit(local));
        mn.instructions.add(new InsnNode(ATHROW));
        mn.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
    }
}
